import PropertyLists

/// A Foundation object graph as an archive holds it, decoded into Swift values: what
/// `NSKeyedUnarchiver` would build as `NSString`, `NSArray`, `NSURL` and so on, without
/// Foundation. Objects of other classes, when the caller allows them, become ``object(_:)``.
///
/// ```swift
/// let value = try KeyedUnarchiver(bytes).decodeValue(forKey: "root", allowing: ["NSArray", "NSString"])
/// if case .array(let items, _) = value { print(items.compactMap(\.stringValue)) }
/// ```
///
/// Mutable classes (`NSMutableArray`, `NSMutableDictionary`, …) are kept apart from immutable
/// ones so that an archive decoded and written again names the same classes.
public indirect enum ArchivedValue: Sendable, Hashable {
    /// No object: reference 0, `$null` (a nil field).
    case null
    /// `NSString`, stored as a plain string.
    case string(String)
    /// `NSMutableString`, stored as an object with `NS.string`.
    case mutableString(String)
    /// `NSData`, stored as plain data.
    case data([UInt8])
    /// `NSMutableData`, stored as an object with `NS.data`.
    case mutableData([UInt8])
    /// `NSNumber` holding an integer.
    case integer(Int64)
    /// `NSNumber` holding an unsigned integer above `Int64.max`.
    case unsignedInteger(UInt64)
    /// `NSNumber` holding a floating-point value.
    case real(Double)
    /// `NSNumber` holding a boolean.
    case bool(Bool)
    /// `NSDate` (`NS.time`, seconds since 2001-01-01).
    case date(PropertyListDate)
    /// `NSArray` or `NSMutableArray` (`NS.objects`).
    case array([ArchivedValue], mutable: Bool = false)
    /// `NSDictionary` or `NSMutableDictionary` (`NS.keys`, `NS.objects`); keys are objects too,
    /// usually strings. Entries are in archive order.
    case dictionary([DictionaryEntry], mutable: Bool = false)
    /// `NSSet` or `NSMutableSet` (`NS.objects`), in archive order.
    case set([ArchivedValue], mutable: Bool = false)
    /// `NSOrderedSet` or `NSMutableOrderedSet` (`NS.object.0`, `NS.object.1`, …).
    case orderedSet([ArchivedValue], mutable: Bool = false)
    /// `NSURL` (`NS.base`, `NS.relative`).
    case url(ArchivedURL)
    /// `NSUUID` (`NS.uuidbytes`).
    case uuid(ArchivedUUID)
    /// `NSValue` holding a point, size, rectangle, range, insets, transform or offset (`NS.special`).
    case value(ArchivedNSValue)
    /// `NSNull`, the object that stands for "nothing" inside collections.
    case nsNull
    /// An object of any other class: its class and its fields.
    case object(ArchivedObject)

    /// One key and value of an ``ArchivedValue/dictionary(_:mutable:)``.
    public struct DictionaryEntry: Sendable, Hashable {
        /// The key object.
        public var key: ArchivedValue
        /// The value object.
        public var value: ArchivedValue
        /// Creates an entry.
        public init(key: ArchivedValue, value: ArchivedValue) {
            self.key = key
            self.value = value
        }
    }

    /// A dictionary with string keys, in the given order.
    public static func dictionary(_ pairs: KeyValuePairs<String, ArchivedValue>, mutable: Bool = false) -> ArchivedValue {
        .dictionary(pairs.map { DictionaryEntry(key: .string($0.key), value: $0.value) }, mutable: mutable)
    }

    /// The class this value is archived as.
    public var archiveClass: ArchiveClass {
        switch self {
        case .null: return ArchiveClass(KeyedArchive.nullMarker, superclasses: [])
        case .string: return .string
        case .mutableString: return .mutableString
        case .data: return .data
        case .mutableData: return .mutableData
        case .integer, .unsignedInteger, .real, .bool: return .number
        case .date: return .date
        case .array(_, let mutable): return mutable ? .mutableArray : .array
        case .dictionary(_, let mutable): return mutable ? .mutableDictionary : .dictionary
        case .set(_, let mutable): return mutable ? .mutableSet : .set
        case .orderedSet(_, let mutable): return mutable ? .mutableOrderedSet : .orderedSet
        case .url: return .url
        case .uuid: return .uuid
        case .value: return .value
        case .nsNull: return .null
        case .object(let object): return object.archiveClass
        }
    }

    /// The string of an `NSString` or `NSMutableString`; otherwise `nil`.
    public var stringValue: String? {
        switch self {
        case .string(let s), .mutableString(let s): return s
        default: return nil
        }
    }

    /// The bytes of an `NSData` or `NSMutableData`; otherwise `nil`.
    public var dataValue: [UInt8]? {
        switch self {
        case .data(let d), .mutableData(let d): return d
        default: return nil
        }
    }

    /// The elements of an array, set or ordered set; otherwise `nil`.
    public var elements: [ArchivedValue]? {
        switch self {
        case .array(let items, _), .set(let items, _), .orderedSet(let items, _): return items
        default: return nil
        }
    }

    /// The value for a string key of a dictionary; `nil` for other values or absent keys.
    public subscript(key: String) -> ArchivedValue? {
        guard case .dictionary(let entries, _) = self else { return nil }
        return entries.first { $0.key.stringValue == key }?.value
    }

    /// A short description of the kind of value, for messages: "an NSString", "an NSArray".
    var kindDescription: String {
        let name = archiveClass.name
        if case .null = self { return "$null" }
        return (name.first.map { "AEIOUN".contains($0) } ?? false ? "an " : "a ") + name
    }
}
