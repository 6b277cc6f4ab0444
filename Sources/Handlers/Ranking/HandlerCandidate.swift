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
    /// The type the claim names that the document conforms to (or the legacy tag that matched).
    public var claimedType: String
    /// Steps from the document's type up to the claimed type (0: the exact type).
    public var distance: Int
    /// Whether the claim is a wildcard (`public.item`, `public.data`, `public.content`, or `*`).
    public var isWildcard: Bool
    /// Whether the user made this app the default for the type or a supertype.
    public var isUserDefault: Bool

    /// A sentence for `--explain`.
    public var reason: String {
        var parts: [String] = []
        if isUserDefault { parts.append("the user's default") }
        if claimedType == "*" {
            parts.append("claims everything (* in its legacy extension or MIME list)")
        } else if claimedType.hasPrefix("extension ") || claimedType.hasPrefix("MIME type ") {
            parts.append("claims the legacy \(claimedType) (no LSItemContentTypes)")
        } else {
            parts.append("claims \(claimedType)\(distance == 0 ? " (the document's own type)" : " (\(distance) step\(distance == 1 ? "" : "s") up)")")
        }
        if isWildcard { parts.append("a wildcard claim") }
        parts.append("rank \(claim.rank.rawValue)")
        parts.append("role \(claim.role.rawValue)")
        return parts.joined(separator: ", ")
    }
}
