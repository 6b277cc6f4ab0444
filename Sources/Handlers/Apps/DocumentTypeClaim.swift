import PropertyLists
import UniformTypes

/// How an app ranks itself for a document type (`LSHandlerRank`).
public enum HandlerRank: String, Sendable, Hashable, CaseIterable {
    /// The app created the type.
    case owner = "Owner"
    /// A normal handler (also when the key is absent).
    case `default` = "Default"
    /// A secondary handler.
    case alternate = "Alternate"
    /// Never opens the type.
    case none = "None"

    /// Lower sorts first: Owner, Default, Alternate, None.
    var order: Int { HandlerRank.allCases.firstIndex(of: self)! }
}

/// What an app does with a document type (`CFBundleTypeRole`).
public enum HandlerRole: String, Sendable, Hashable, CaseIterable {
    /// Reads and writes.
    case editor = "Editor"
    /// Reads only.
    case viewer = "Viewer"
    /// Provides runtime services; does not open documents.
    case shell = "Shell"
    /// Declares the type without using it.
    case none = "None"

    /// Whether the role lets the app open documents: Editor and Viewer do.
    public var opensDocuments: Bool { self == .editor || self == .viewer }
}

/// One `CFBundleDocumentTypes` entry of an app.
public struct DocumentTypeClaim: Sendable, Hashable {
    /// `CFBundleTypeName`.
    public var name: String?
    /// `CFBundleTypeRole`. A missing role is taken as Editor (our choice; real Info.plists omit it).
    public var role: HandlerRole
    /// `LSHandlerRank`, Default when absent.
    public var rank: HandlerRank
    /// `LSItemContentTypes`, in order.
    public var contentTypes: [String]
    /// `CFBundleTypeExtensions` (legacy; used only when `contentTypes` is empty). `*` matches any.
    public var extensions: [String]
    /// `CFBundleTypeMIMETypes` (legacy; used only when `contentTypes` is empty). `*` matches any.
    public var mimeTypes: [String]
    /// Where the entry is in its Info.plist.
    public var keyPath: PropertyListPath

    /// Creates a claim.
    public init(name: String? = nil, role: HandlerRole = .editor, rank: HandlerRank = .default, contentTypes: [String] = [],
                extensions: [String] = [], mimeTypes: [String] = [], keyPath: PropertyListPath = .root) {
        self.name = name
        self.role = role
        self.rank = rank
        self.contentTypes = contentTypes
        self.extensions = extensions
        self.mimeTypes = mimeTypes
        self.keyPath = keyPath
    }

    /// Reads `CFBundleDocumentTypes` from an Info.plist, tolerating loose types as the system does.
    public static func claims(in plist: PropertyList) -> [DocumentTypeClaim] {
        let root = PropertyListCursor(plist)
        guard let entries = try? root.array("CFBundleDocumentTypes") else { return [] }
        return entries.compactMap { entry in
            guard case .dictionary = entry.value else { return nil }
            let strings = { (key: String) in ((try? entry.stringOrArray(key)) ?? nil) ?? [] }
            return DocumentTypeClaim(
                name: entry["CFBundleTypeName"]?.value.stringValue,
                role: entry["CFBundleTypeRole"]?.value.stringValue.flatMap(HandlerRole.init(rawValue:)) ?? .editor,
                rank: entry["LSHandlerRank"]?.value.stringValue.flatMap(HandlerRank.init(rawValue:)) ?? .default,
                contentTypes: strings("LSItemContentTypes"), extensions: strings("CFBundleTypeExtensions"),
                mimeTypes: strings("CFBundleTypeMIMETypes"), keyPath: entry.path)
        }
    }
}
