import AppRegistry
import UniformTypes

/// An app that can take a document, and why it ranks where it does.
public struct HandlerCandidate: Sendable, Hashable {
    /// The app's bundle identifier.
    public var bundleIdentifier: String
    /// The app's name (`CFBundleDisplayName` or `CFBundleName`), the last key of the order.
    public var appName: String
    /// The claim that made it eligible.
    public var claim: DocumentTypeClaim
    /// How a claim matched a document: a decision kept as a value (the sentence is made from it).
    public enum Match: Sendable, Hashable, CustomStringConvertible {
        /// A type the claim names (`LSItemContentTypes`) that the document conforms to, as spelt.
        case type(String)
        /// A legacy `CFBundleTypeExtensions` entry that matched the name.
        case legacyExtension(String)
        /// A legacy `CFBundleTypeMIMETypes` entry that matched the MIME type.
        case legacyMIMEType(String)
        /// `*` in a legacy extension or MIME list: everything.
        case everything

        /// `public.png`, `extension png`, `MIME type image/png`, `*`.
        public var description: String {
            switch self {
            case .type(let identifier): identifier
            case .legacyExtension(let ext): "extension \(ext)"
            case .legacyMIMEType(let mime): "MIME type \(mime)"
            case .everything: "*"
            }
        }
    }

    /// How the claim matched.
    public var match: Match
    /// The type the claim names that the document conforms to (or the legacy tag that matched).
    public var claimedType: String { match.description }
    /// Steps from the document's type up to the claimed type (0: the exact type).
    public var distance: Int
    /// Whether the claim is a wildcard (`public.item`, `public.data`, `public.content`, or `*`).
    public var isWildcard: Bool
    /// Whether the user made this app the default for the type or a supertype.
    public var isUserDefault: Bool

    /// A sentence for `--explain`.
    public var reason: String {
        // One string, not an array then `joined`: `openin --list --json` says this for every app,
        // and a process's first generic `joined` costs about 130,000 instructions of run-time
        // type lookups (callgrind).
        var text = isUserDefault ? "the user's default, " : ""
        switch match {
        case .everything: text += "claims everything (* in its legacy extension or MIME list)"
        case .legacyExtension, .legacyMIMEType: text += "claims the legacy \(claimedType) (no LSItemContentTypes)"
        case .type: text += "claims \(claimedType)\(distance == 0 ? " (the document's own type)" : " (\(distance) step\(distance == 1 ? "" : "s") up)")"
        }
        if isWildcard { text += ", a wildcard claim" }
        return text + ", rank \(claim.rank.rawValue), role \(claim.role.rawValue)"
    }
}
