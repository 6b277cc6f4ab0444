/// A kind of name a type can be known by outside its identifier (Apple's `UTTagClass`): filename
/// extensions, MIME types, and any other class named by its identifier.
///
/// Open like Apple's struct: `TagClass(rawValue: "public.url-scheme")` is a tag class too. The four
/// standard classes are the only ones declarations keep (Apple: "the system does not store tag
/// information for non-standard tag classes"), so only they have indexes in the registry; a lookup
/// with another class finds no declared type and answers a dynamic type, whose `dyn.` identifier
/// spells the class out (or uses its one-character code, as `public.url-scheme` has).
///
/// ```swift
/// TagClass.filenameExtension.rawValue              // "public.filename-extension"
/// TagClass(rawValue: "public.mime-type") == .mimeType // true
/// ```
public struct TagClass: RawRepresentable, Sendable, Hashable, Comparable, Codable, CustomStringConvertible,
                        CustomDebugStringConvertible {
    /// The class's identifier (`public.filename-extension`), compared exactly.
    public let rawValue: String
    /// The position in ``standard``, or `otherClass`: the registry and the hot lookup paths
    /// branch on this byte instead of comparing strings.
    @usableFromInline let standardIndex: UInt8

    @usableFromInline static let otherClass: UInt8 = .max
    /// The identifiers of the standard classes, in ``standard`` order (the registry's tag words
    /// store this position, so the order is part of the file format).
    static let standardNames = ["public.filename-extension", "public.mime-type",
                                                  "com.apple.ostype", "com.apple.nspboard-type"]

    /// The tag class named `rawValue`; one of the standard classes when it spells one.
    public init(rawValue: String) {
        self.rawValue = rawValue
        standardIndex = Self.standardNames.firstIndex(of: rawValue).map(UInt8.init) ?? Self.otherClass
    }

    /// A standard class; the names are literals here so that `.filenameExtension` costs no lookup.
    @inlinable init(standardIndex: UInt8) {
        switch standardIndex {
        case 0: rawValue = "public.filename-extension"
        case 1: rawValue = "public.mime-type"
        case 2: rawValue = "com.apple.ostype"
        default: rawValue = "com.apple.nspboard-type"
        }
        self.standardIndex = standardIndex
    }

    /// Filename extensions, without the dot (`png`).
    @inlinable public static var filenameExtension: TagClass { TagClass(standardIndex: 0) }
    /// MIME types (`image/png`).
    @inlinable public static var mimeType: TagClass { TagClass(standardIndex: 1) }
    /// Classic Mac OS four-character type codes (`PNGf`).
    @inlinable public static var osType: TagClass { TagClass(standardIndex: 2) }
    /// Pasteboard type names.
    @inlinable public static var pasteboardType: TagClass { TagClass(standardIndex: 3) }

    /// The classes declarations keep and the registry indexes, in this order.
    public static let standard: [TagClass] = (0..<UInt8(standardNames.count)).map(TagClass.init(standardIndex:))

    /// The standard class named `rawValue`, or `nil` for any other class.
    public init?(standard rawValue: String) {
        let tagClass = TagClass(rawValue: rawValue)
        guard tagClass.isStandard else { return nil }
        self = tagClass
    }

    /// Whether this is one of the four classes declarations keep.
    @inlinable public var isStandard: Bool { standardIndex != Self.otherClass }

    /// The position in ``standard``, `nil` for other classes.
    @inlinable public var standardPosition: Int? { isStandard ? Int(standardIndex) : nil }

    /// Extensions and MIME types match case-insensitively; every other class does not.
    @inlinable public var isCaseInsensitive: Bool { standardIndex <= 1 }

    /// The tag as the indexes store it: lower-cased for case-insensitive classes.
    public func normalized(_ tag: String) -> String { isCaseInsensitive ? tag.lowercased() : tag }

    /// Equal when the identifiers are equal; the standard classes compare by their index.
    @inlinable public static func == (a: TagClass, b: TagClass) -> Bool {
        a.standardIndex == b.standardIndex && (a.standardIndex != otherClass || a.rawValue == b.rawValue)
    }

    /// Hashes what equality compares (the index of a standard class, which stands for its name).
    public func hash(into hasher: inout Hasher) {
        if isStandard { hasher.combine(standardIndex) } else { hasher.combine(rawValue) }
    }

    /// The standard classes first, in ``standard`` order, then the others by identifier.
    public static func < (a: TagClass, b: TagClass) -> Bool {
        a.standardIndex != b.standardIndex ? a.standardIndex < b.standardIndex : a.rawValue < b.rawValue
    }

    /// Reads the identifier as a single string, as Apple's `UTTagClass` is coded.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Writes the identifier as a single string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The identifier.
    public var description: String { rawValue }
    /// The identifier.
    public var debugDescription: String { rawValue }
}
