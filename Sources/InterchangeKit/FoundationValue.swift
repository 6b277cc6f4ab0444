import Foundation
import PropertyLists

/// Property-list values as Foundation objects and back, for the `Any` in Apple's dictionaries
/// (an open request's annotation, a user activity's user info).
enum FoundationValue {
    /// `value` as Foundation gives property lists: `String`, `Int`, `Double`, `Bool`, `Date`,
    /// `Data`, `[Any]`, `[String: Any]`.
    static func object(_ value: PropertyList) -> Any {
        switch value {
        case .string(let text): text
        case .integer(let number): Int(truncatingIfNeeded: number)
        case .unsignedInteger(let number): UInt(truncatingIfNeeded: number)
        case .real(let number): number
        case .bool(let flag): flag
        case .date(let date): Date(timeIntervalSince1970: date.secondsSince1970)
        case .data(let bytes): Data(bytes)
        case .array(let items): items.map(object)
        case .dictionary(let entries): Dictionary(entries.map { ($0.key, object($0.value)) }, uniquingKeysWith: { a, _ in a })
        case .uid(let uid): uid
        }
    }

    /// A Foundation object as a property list; `nil` for what a property list cannot hold.
    static func propertyList(_ object: Any) -> PropertyList? {
        switch object {
        case let text as String: .string(text)
        case let flag as Bool: .bool(flag)
        case let number as Int: .integer(Int64(number))
        case let number as Double: .real(number)
        case let date as Date: .date(PropertyListDate(secondsSince1970: date.timeIntervalSince1970))
        case let data as Data: .data(Array(data))
        case let url as URL: .string(url.absoluteString)
        case let items as [Any]:
            .array(items.compactMap(propertyList))
        case let entries as [String: Any]:
            .dictionary(.init(uniqueKeysWithValues: entries.sorted { $0.key < $1.key }.compactMap { key, value in propertyList(value).map { (key, $0) } }))
        default: nil
        }
    }

    /// A Foundation object as a property list, every part of it: the key path (from `path`) of the
    /// first value a property list cannot hold is the failure. A `URL` becomes its string, as
    /// Handoff's `userInfo` carries web and file URLs.
    static func exactPropertyList(_ object: Any, path: String) -> Result<PropertyList, FoundationValueError> {
        switch object {
        case let text as String: return .success(.string(text))
        case let flag as Bool: return .success(.bool(flag))
        case let number as Int: return .success(.integer(Int64(number)))
        case let number as Int64: return .success(.integer(number))
        case let number as Int32: return .success(.integer(Int64(number)))
        case let number as UInt: return .success(number <= UInt(Int64.max) ? .integer(Int64(number)) : .unsignedInteger(UInt64(number)))
        case let number as Double: return .success(.real(number))
        case let number as Float: return .success(.real(Double(number)))
        case let date as Date: return .success(.date(PropertyListDate(secondsSince1970: date.timeIntervalSince1970)))
        case let data as Data: return .success(.data(Array(data)))
        case let url as URL: return .success(.string(url.absoluteString))
        case let items as [Any]:
            var out: [PropertyList] = []
            for (i, item) in items.enumerated() {
                switch exactPropertyList(item, path: "\(path)[\(i)]") {
                case .success(let value): out.append(value)
                case .failure(let error): return .failure(error)
                }
            }
            return .success(.array(out))
        case let entries as [String: Any]:
            return dictionary(entries.map { (AnyHashable($0.key), $0.value) }, path: path)
        case let entries as [AnyHashable: Any]:
            return dictionary(Array(entries), path: path)
        default:
            return .failure(FoundationValueError(path: path, typeName: String(describing: type(of: object))))
        }
    }

    private static func dictionary(_ entries: [(AnyHashable, Any)], path: String) -> Result<PropertyList, FoundationValueError> {
        var out: [(String, PropertyList)] = []
        for (key, value) in entries {
            guard let name = key.base as? String else {
                return .failure(FoundationValueError(path: "\(path)[\(key)]", typeName: "a key of type \(type(of: key.base))"))
            }
            switch exactPropertyList(value, path: "\(path).\(name)") {
            case .success(let converted): out.append((name, converted))
            case .failure(let error): return .failure(error)
            }
        }
        return .success(.dictionary(.init(uniqueKeysWithValues: out.sorted { $0.0 < $1.0 })))
    }
}

/// A value a property list cannot hold, and where it is.
struct FoundationValueError: Error, CustomStringConvertible {
    /// The key path (`userInfo.contacts[2]`).
    var path: String
    /// What was found there.
    var typeName: String

    var description: String { "\(path) is \(typeName), which a property list cannot hold" }
}
