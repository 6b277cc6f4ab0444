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
}
