/// One representation of an item: its type (a UTI) and its bytes.
public struct PasteboardRepresentation: Sendable, Hashable {
    /// The type identifier (`public.utf8-plain-text`, `com.example.datapackage`).
    public var type: String
    /// The bytes.
    public var data: [UInt8]

    /// A representation.
    public init(type: String, data: [UInt8]) {
        self.type = type
        self.data = data
    }
}

/// One item on a pasteboard: the same thing in several representations, keyed by type, in the
/// order the writer gave them (the first is the writer's preferred one).
///
/// ```swift
/// let item = PasteboardItem(["public.utf8-plain-text": Array("hi".utf8), "public.html": Array("<b>hi</b>".utf8)])
/// ```
public struct PasteboardItem: Sendable, Hashable {
    /// The representations, preferred first.
    public var representations: [PasteboardRepresentation]

    /// An item of `representations`.
    public init(representations: [PasteboardRepresentation]) { self.representations = representations }

    /// An item from type–bytes pairs, in the order written.
    public init(_ pairs: KeyValuePairs<String, [UInt8]>) {
        representations = pairs.map { PasteboardRepresentation(type: $0.key, data: $0.value) }
    }

    /// An item with one text representation (`public.utf8-plain-text`).
    public init(text: String) {
        representations = [PasteboardRepresentation(type: PasteboardType.utf8PlainText, data: Array(text.utf8))]
    }

    /// The types, in order.
    public var types: [String] { representations.map(\.type) }

    /// The bytes stored under exactly `type` (compared case-insensitively, as type identifiers are).
    public func data(exactly type: String) -> [UInt8]? {
        representations.first { PasteboardType.same($0.type, type) }?.data
    }

    /// The size of every representation together.
    public var byteCount: Int64 { representations.reduce(0) { $0 + Int64($1.data.count) } }
}

/// The type identifiers the pasteboards and tools use by name.
public enum PasteboardType {
    /// `public.utf8-plain-text`: what `pbcopy` stores and `UIPasteboard.string` reads.
    public static let utf8PlainText = "public.utf8-plain-text"
    /// `public.plain-text`.
    public static let plainText = "public.plain-text"
    /// `public.text`: any text, found through conformance.
    public static let text = "public.text"
    /// `public.rtf`.
    public static let rtf = "public.rtf"
    /// `com.adobe.encapsulated-postscript`.
    public static let eps = "com.adobe.encapsulated-postscript"
    /// `public.url`.
    public static let url = "public.url"

    /// Whether two type identifiers name the same type (they are case-insensitive).
    public static func same(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a.lowercased() == b.lowercased()
    }
}
