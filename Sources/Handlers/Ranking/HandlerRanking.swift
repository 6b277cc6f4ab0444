import UniformTypes

/// An app that can take a document, and why it ranks where it does.
public struct HandlerCandidate: Sendable, Hashable {
    /// The app's bundle identifier.
    public var bundleIdentifier: String
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
        parts.append("claims \(claimedType)\(distance == 0 ? " (the document's own type)" : " (\(distance) step\(distance == 1 ? "" : "s") up)")")
        if isWildcard { parts.append("a wildcard claim") }
        parts.append("rank \(claim.rank.rawValue)")
        parts.append("role \(claim.role.rawValue)")
        return parts.joined(separator: ", ")
    }
}

/// Picks and orders the apps that can open a document, as LaunchServices does.
///
/// Eligible: a `CFBundleDocumentTypes` entry with role Editor or Viewer and a rank other than None
/// that claims a type the document conforms to (through `LSItemContentTypes`, or, only when that key
/// is absent, the legacy extensions and MIME types; `*` matches anything).
///
/// Order: the user's default first; then specific claims before wildcard claims (`public.item`,
/// `public.data`, `public.content`); then rank Owner, Default, Alternate; then conformance distance
/// (exact type first); then Editor before Viewer; then bundle identifier.
public struct HandlerRanking: Sendable {
    /// The types wildcard claims name.
    public static let wildcardTypes: Set<String> = ["public.item", "public.data", "public.content"]

    /// The registry the document's type and the claims are resolved in.
    public var registry: TypeRegistry

    /// Creates a ranking over `registry`.
    public init(registry: TypeRegistry) { self.registry = registry }

    /// Distances from `type` to each of its supertypes: breadth-first over the declared parents.
    func distances(from type: UTType) -> [String: Int] {
        var result = [TypeIdentifierSyntax.normalized(type.identifier): 0]
        var frontier = [type]
        var depth = 0
        while !frontier.isEmpty {
            depth += 1
            var next: [UTType] = []
            for t in frontier {
                for p in t.parents where result[TypeIdentifierSyntax.normalized(p.identifier)] == nil {
                    result[TypeIdentifierSyntax.normalized(p.identifier)] = depth
                    next.append(p)
                }
            }
            frontier = next
        }
        return result
    }

    /// The eligible apps for a document of `type` named `fileName`, best first.
    /// - Parameters:
    ///   - apps: bundle identifier and claims of every registered app.
    ///   - userDefaults: type identifier → bundle identifier the user chose.
    public func rank(type: UTType, fileName: String?, mimeType: String? = nil,
                     apps: [(bundleIdentifier: String, claims: [DocumentTypeClaim])],
                     userDefaults: [String: String] = [:]) -> [HandlerCandidate] {
        let distance = distances(from: type)
        // The user's default for the type or its nearest supertype.
        let defaultApp = userDefaults.compactMap { entry -> (String, Int)? in
            distance[TypeIdentifierSyntax.normalized(entry.key)].map { (entry.value, $0) }
        }.min { $0.1 < $1.1 }?.0
        let ext = fileName.flatMap(FileTypeDetector.filenameExtension(of:))?.lowercased()
        var best: [String: HandlerCandidate] = [:]
        for app in apps {
            for claim in app.claims where claim.role.opensDocuments && claim.rank != .none {
                var matches: [(claimed: String, distance: Int, wildcard: Bool)] = []
                if !claim.contentTypes.isEmpty {
                    for id in claim.contentTypes {
                        if let d = distance[TypeIdentifierSyntax.normalized(id)] {
                            matches.append((id, d, Self.wildcardTypes.contains(TypeIdentifierSyntax.normalized(id))))
                        }
                    }
                } else {
                    for e in claim.extensions where e == "*" || e.lowercased() == ext { matches.append((e == "*" ? "*" : "extension \(e)", 0, e == "*")) }
                    for m in claim.mimeTypes where m == "*" || m.lowercased() == mimeType?.lowercased() || m.lowercased() == type.preferredMIMEType?.lowercased() {
                        matches.append((m == "*" ? "*" : "MIME type \(m)", 0, m == "*"))
                    }
                }
                guard let match = matches.min(by: { ($0.wildcard ? 1 : 0, $0.distance) < ($1.wildcard ? 1 : 0, $1.distance) }) else { continue }
                let candidate = HandlerCandidate(bundleIdentifier: app.bundleIdentifier, claim: claim, claimedType: match.claimed,
                                                 distance: match.distance, isWildcard: match.wildcard,
                                                 isUserDefault: app.bundleIdentifier == defaultApp)
                if let existing = best[app.bundleIdentifier], !Self.precedes(candidate, existing) { continue }
                best[app.bundleIdentifier] = candidate
            }
        }
        return best.values.sorted(by: Self.precedes)
    }

    /// The documented order.
    static func precedes(_ a: HandlerCandidate, _ b: HandlerCandidate) -> Bool {
        func key(_ c: HandlerCandidate) -> (Int, Int, Int, Int, Int, String) {
            (c.isUserDefault ? 0 : 1, c.isWildcard ? 1 : 0, c.claim.rank.order, c.distance, c.claim.role == .editor ? 0 : 1, c.bundleIdentifier)
        }
        return key(a) < key(b)
    }
}
