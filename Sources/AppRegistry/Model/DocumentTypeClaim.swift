import PropertyLists
import UniformTypes

/// One `CFBundleDocumentTypes` entry of an app, read once with the rules both the chooser and the
/// linter follow: a claim with a role or rank LaunchServices does not know never opens anything,
/// and the linter reports it as an error; a missing role is Editor and a missing rank Default.
public struct DocumentTypeClaim: Sendable, Hashable {
    /// `CFBundleTypeName`.
    public var name: String?
    /// `CFBundleTypeRole` (``HandlerRole/whenAbsent`` when absent).
    public var role: HandlerRole
    /// `LSHandlerRank` (``HandlerRank/whenAbsent`` when absent).
    public var rank: HandlerRank
    /// A role or rank value LaunchServices does not know, as written: the claim never opens.
    public var unknownRole: String?, unknownRank: String?
    /// `LSItemContentTypes`, in order.
    public var contentTypes: [String]
    /// `CFBundleTypeExtensions` (legacy; used only when `contentTypes` is empty). `*` matches any.
    public var extensions: [String]
    /// `CFBundleTypeMIMETypes` (legacy; used only when `contentTypes` is empty). `*` matches any.
    public var mimeTypes: [String]
    /// Where the entry is in its Info.plist.
    public var keyPath: PropertyListPath

    /// Creates a claim.
    public init(name: String? = nil, role: HandlerRole = .whenAbsent, rank: HandlerRank = .whenAbsent, contentTypes: [String] = [],
                extensions: [String] = [], mimeTypes: [String] = [], keyPath: PropertyListPath = .root) {
        self.name = name
        self.role = role
        self.rank = rank
        self.contentTypes = contentTypes
        self.extensions = extensions
        self.mimeTypes = mimeTypes
        self.keyPath = keyPath
    }

    /// Whether the claim lets the app open documents of its types: a known role that opens
    /// documents (Editor, Viewer), a known rank other than None.
    public var opensDocuments: Bool {
        unknownRole == nil && unknownRank == nil && role.opensDocuments && rank != .none
    }

    /// Why the claim opens nothing, when it does not.
    public var whyItOpensNothing: String? {
        if let unknownRole { return "its role \"\(unknownRole)\" is not one LaunchServices knows (Editor, Viewer, Shell, QLGenerator, None)" }
        if let unknownRank { return "its rank \"\(unknownRank)\" is not one LaunchServices knows (Owner, Default, Alternate, None)" }
        if !role.opensDocuments { return "role \(role.rawValue), which does not open documents" }
        if rank == .none { return "rank None, which never opens" }
        return nil
    }

    /// Whether the claim names types (`LSItemContentTypes`) rather than legacy extensions and MIME types.
    public var usesContentTypes: Bool { !contentTypes.isEmpty }

    /// Reads `CFBundleDocumentTypes` from an Info.plist, tolerating loose types as the system does
    /// (a string where an array is expected).
    public static func claims(in plist: PropertyList) -> [DocumentTypeClaim] {
        guard case .array(let entries)? = plist["CFBundleDocumentTypes"] else { return [] }
        return entries.enumerated().compactMap { index, entry in
            guard case .dictionary = entry else { return nil }
            var claim = DocumentTypeClaim(name: entry["CFBundleTypeName"]?.stringValue,
                                          contentTypes: InfoPlistValue.strings(entry["LSItemContentTypes"]),
                                          extensions: InfoPlistValue.strings(entry["CFBundleTypeExtensions"]),
                                          mimeTypes: InfoPlistValue.strings(entry["CFBundleTypeMIMETypes"]),
                                          keyPath: PropertyListPath.root.appending("CFBundleDocumentTypes").appending(index))
            if let value = entry["CFBundleTypeRole"] {
                if let text = value.stringValue, let role = HandlerRole(rawValue: text) { claim.role = role } else {
                    claim.unknownRole = value.stringValue ?? value.typeNameWithArticle
                }
            }
            if let value = entry["LSHandlerRank"] {
                if let text = value.stringValue, let rank = HandlerRank(rawValue: text) { claim.rank = rank } else {
                    claim.unknownRank = value.stringValue ?? value.typeNameWithArticle
                }
            }
            return claim
        }
    }
}
