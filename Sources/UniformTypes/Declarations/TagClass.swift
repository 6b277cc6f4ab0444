/// The standard tag classes: the kinds of names a type can be known by outside its identifier.
public enum TagClass: String, Sendable, Hashable, CaseIterable, Comparable {
    /// Filename extensions, without the dot (`png`).
    case filenameExtension = "public.filename-extension"
    /// MIME types (`image/png`).
    case mimeType = "public.mime-type"
    /// Classic Mac OS four-character type codes (`PNGf`).
    case osType = "com.apple.ostype"
    /// Pasteboard type names.
    case pasteboardType = "com.apple.nspboard-type"

    /// Extensions and MIME types match case-insensitively; OSTypes and pasteboard types do not.
    public var isCaseInsensitive: Bool { self == .filenameExtension || self == .mimeType }

    /// The tag as the indexes store it: lower-cased for case-insensitive classes.
    public func normalized(_ tag: String) -> String { isCaseInsensitive ? tag.lowercased() : tag }

    /// Orders classes in declaration order of this enum (extension, MIME, OSType, pasteboard).
    public static func < (a: TagClass, b: TagClass) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
