import OrderedCollections

/// A property-list value: the tree every reader produces and every writer consumes.
///
/// Dictionaries keep the order their keys had in the source, so a file can be
/// reported on (and written back) in the order its author wrote it.
///
/// ```swift
/// let value = try PropertyList(parsing: bytes)
/// if case .string(let identifier) = value["CFBundleIdentifier"] { print(identifier) }
/// ```
public enum PropertyList: Sendable, Hashable {
    /// A string (`<string>`, `<key>`, binary ASCII or UTF-16 strings).
    case string(String)
    /// A signed 64-bit integer.
    case integer(Int64)
    /// An unsigned integer above `Int64.max`, as CoreFoundation keeps it.
    case unsignedInteger(UInt64)
    /// A double-precision real, including NaN and the infinities.
    case real(Double)
    /// A boolean (`<true/>`, `<false/>`).
    case bool(Bool)
    /// A point in time, kept as CoreFoundation does: seconds since 2001-01-01T00:00:00Z.
    case date(PropertyListDate)
    /// Raw bytes (`<data>`).
    case data([UInt8])
    /// An ordered list of values.
    case array([PropertyList])
    /// String keys to values, in source order.
    case dictionary(OrderedDictionary<String, PropertyList>)
    /// A keyed-archiver object reference (`CF$UID`): not a property-list type proper,
    /// kept distinct so it is never mistaken for an integer.
    case uid(UInt64)

    /// The name `plutil -type` prints for this value's type.
    public var typeName: String {
        switch self {
        case .string: "string"
        case .integer, .unsignedInteger: "integer"
        case .real: "float"
        case .bool: "bool"
        case .date: "date"
        case .data: "data"
        case .array: "array"
        case .dictionary: "dictionary"
        case .uid: "uid"
        }
    }

    /// The type name with its article, for messages: "an integer", "a UID".
    public var typeNameWithArticle: String {
        switch self {
        case .uid: "a UID"
        case .integer, .unsignedInteger, .array: "an \(typeName)"
        default: "a \(typeName)"
        }
    }

    /// The value for `key` when this is a dictionary holding it; otherwise `nil`.
    public subscript(key: String) -> PropertyList? {
        if case .dictionary(let entries) = self { return entries[key] }
        return nil
    }

    /// The element at `index` when this is an array long enough; otherwise `nil`.
    public subscript(index: Int) -> PropertyList? {
        if case .array(let elements) = self, elements.indices.contains(index) { return elements[index] }
        return nil
    }

    /// The string payload, or `nil` for any other type.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The boolean payload, or `nil` for any other type.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The array payload, or `nil` for any other type.
    public var arrayValue: [PropertyList]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The dictionary payload, or `nil` for any other type.
    public var dictionaryValue: OrderedDictionary<String, PropertyList>? {
        if case .dictionary(let d) = self { return d }
        return nil
    }
}
