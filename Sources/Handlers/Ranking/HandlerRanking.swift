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

/// Picks and orders the apps that can open a document, as LaunchServices does.
///
/// Eligible: a `CFBundleDocumentTypes` entry with role Editor or Viewer and a rank other than None
/// that claims a type the document conforms to (through `LSItemContentTypes`, or, only when that key
/// is absent, the legacy extensions and MIME types; `*` matches anything).
///
/// Order: the user's default for the type or its nearest supertype first; then specific claims
/// before wildcard claims (`public.item`, `public.data`, `public.content`, `*`); then rank Owner,
/// Default (also when absent), Alternate; then conformance distance (exact type first); then Editor
/// before Viewer; then app name (ignoring case); then bundle identifier.
public struct HandlerRanking: Sendable {
    /// The types wildcard claims name.
    public static let wildcardTypes: Set<String> = ["public.item", "public.data", "public.content"]

    /// The registry the document's type and the claims are resolved in.
    public var registry: TypeRegistry

    /// Creates a ranking over `registry`.
    public init(registry: TypeRegistry) { self.registry = registry }

    /// Distances from `type` to each of its supertypes (normalized identifiers), breadth-first over
    /// the declared parents; the type itself is at 0.
    public func distancesFromType(_ type: UTType) -> [String: Int] { distances(from: type) }

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
        let index = HandlerIndex(apps: apps.map { (bundleIdentifier: $0.bundleIdentifier, name: $0.bundleIdentifier, claims: $0.claims) })
        return rank(type: type, fileName: fileName, mimeType: mimeType, index: index, userDefaults: userDefaults)
    }

    /// The same over a prepared index: looks up only the claims of the document's type and its
    /// supertypes (and the legacy claims), so the cost does not grow with the number of apps.
    public func rank(type: UTType, fileName: String?, mimeType: String? = nil, index: HandlerIndex,
                     userDefaults: [String: String] = [:]) -> [HandlerCandidate] {
        if let numbered = index.numbered, numbered.registry === registry {
            return rankByNumber(type: type, numbered: numbered, fileName: fileName, mimeType: mimeType,
                                index: index, userDefaults: userDefaults)
        }
        let distance = distances(from: type)
        // The user's default for the type or its nearest supertype.
        let defaultApp = userDefaults.compactMap { entry -> (String, Int)? in
            distance[TypeIdentifierSyntax.normalized(entry.key)].map { (entry.value, $0) }
        }.min { $0.1 < $1.1 }?.0
        var found = Candidates(index: index, defaultApp: defaultApp)
        for (type, d) in distance {
            for entry in index.claimsByType[type] ?? [] {
                found.offer(entry.app, entry.claim, claimed: entry.spelling, distance: d, wildcard: Self.wildcardTypes.contains(type))
            }
        }
        found.offerLegacyClaims(type: type, fileName: fileName, mimeType: mimeType)
        return found.sorted()
    }

    /// The same ranking over registry numbers: the supertypes are walked as numbers and the claims
    /// looked up by number, so no identifier string is built or hashed per query.
    func rankByNumber(type: UTType, numbered: HandlerIndex.Numbered, fileName: String?,
                      mimeType: String?, index: HandlerIndex, userDefaults: [String: String]) -> [HandlerCandidate] {
        // Breadth-first distances over parents; types have a handful of supertypes. A dynamic type
        // has no number: its parents (the types it conforms to) start the walk at distance 1.
        var distance: [(TypeRegistry.TypeID, Int)] = []
        var frontier: [TypeRegistry.TypeID]
        var depth: Int
        if let number = type.typeNumber {
            distance = [(number, 0)]
            frontier = [number]
            depth = 0
        } else {
            frontier = type.parents.compactMap(\.typeNumber)
            distance = frontier.map { ($0, 1) }
            depth = 1
        }
        while !frontier.isEmpty {
            depth += 1
            var next: [TypeRegistry.TypeID] = []
            for t in frontier {
                for p in registry.parents(of: t) where !distance.contains(where: { $0.0 == p }) {
                    distance.append((p, depth))
                    next.append(p)
                }
            }
            frontier = next
        }
        var defaultApp: String?
        if !userDefaults.isEmpty {
            var nearest = Int.max
            for (typeName, app) in userDefaults {
                if type.typeNumber == nil, TypeIdentifierSyntax.normalized(typeName) == TypeIdentifierSyntax.normalized(type.identifier) {
                    nearest = 0
                    defaultApp = app
                    continue
                }
                guard let n = registry.number(of: typeName), let d = distance.first(where: { $0.0 == n })?.1, d < nearest else { continue }
                nearest = d
                defaultApp = app
            }
        }
        var found = Candidates(index: index, defaultApp: defaultApp)
        if type.typeNumber == nil {
            // Claims that name the dynamic identifier itself.
            for entry in index.claimsByType[TypeIdentifierSyntax.normalized(type.identifier)] ?? [] {
                found.offer(entry.app, entry.claim, claimed: entry.spelling, distance: 0, wildcard: false)
            }
        }
        for (t, d) in distance {
            guard let entries = numbered.claimsByNumber[Int(t)] else { continue }
            let wildcard = numbered.wildcards.contains(t)
            for entry in entries {
                found.offer(entry.app, entry.claim, claimed: entry.spelling, distance: d, wildcard: wildcard)
            }
        }
        found.offerLegacyClaims(type: type, fileName: fileName, mimeType: mimeType)
        return found.sorted()
    }

    /// The best candidate per app while claims are offered, then the documented order.
    struct Candidates {
        let index: HandlerIndex
        let defaultApp: String?
        var best: [Int: HandlerCandidate] = [:]

        init(index: HandlerIndex, defaultApp: String?) {
            self.index = index
            self.defaultApp = defaultApp
        }

        /// Keeps the claim when it places the app better than its claims so far.
        mutating func offer(_ app: Int, _ claimIndex: Int, claimed: String, distance: Int, wildcard: Bool) {
            let candidate = HandlerCandidate(bundleIdentifier: index.apps[app].bundleIdentifier, appName: index.apps[app].name,
                                             claim: index.apps[app].claims[claimIndex], claimedType: claimed, distance: distance,
                                             isWildcard: wildcard, isUserDefault: index.apps[app].bundleIdentifier == defaultApp)
            if let existing = best[app], !HandlerRanking.precedes(candidate, existing) { return }
            best[app] = candidate
        }

        /// Offers the claims without `LSItemContentTypes` that match the name or MIME type.
        mutating func offerLegacyClaims(type: UTType, fileName: String?, mimeType: String?) {
            guard !index.legacyClaims.isEmpty else { return }
            let ext = fileName.flatMap(FileTypeDetector.filenameExtension(of:))?.lowercased()
            let mime = mimeType?.lowercased(), preferredMIME = type.preferredMIMEType?.lowercased()
            for entry in index.legacyClaims {
                let claim = index.apps[entry.app].claims[entry.claim]
                if let (claimed, wildcard) = HandlerRanking.legacyMatch(claim, ext: ext, mime: mime, preferredMIME: preferredMIME) {
                    offer(entry.app, entry.claim, claimed: claimed, distance: 0, wildcard: wildcard)
                }
            }
        }

        func sorted() -> [HandlerCandidate] { best.values.sorted(by: HandlerRanking.precedes) }
    }

    /// How a claim without `LSItemContentTypes` matches: a named extension or MIME type, else `*`.
    static func legacyMatch(_ claim: DocumentTypeClaim, ext: String?, mime: String?, preferredMIME: String?) -> (String, Bool)? {
        var match: (String, Bool)?
        for e in claim.extensions where e == "*" || e.lowercased() == ext {
            if e != "*" { return ("extension \(e)", false) }
            match = match ?? ("*", true)
        }
        for m in claim.mimeTypes where m == "*" || m.lowercased() == mime || m.lowercased() == preferredMIME {
            if m != "*" { return ("MIME type \(m)", false) }
            match = match ?? ("*", true)
        }
        return match
    }

    /// The documented order.
    static func precedes(_ a: HandlerCandidate, _ b: HandlerCandidate) -> Bool {
        func key(_ c: HandlerCandidate) -> (Int, Int, Int, Int, Int, String) {
            (c.isUserDefault ? 0 : 1, c.isWildcard ? 1 : 0, c.claim.rank.order, c.distance, c.claim.role == .editor ? 0 : 1,
             c.appName.lowercased())
        }
        let (ka, kb) = (key(a), key(b))
        return ka != kb ? ka < kb : a.bundleIdentifier < b.bundleIdentifier
    }
}

/// The claims of many apps arranged for ranking: content-type claims by the (normalized) type they
/// name, legacy extension/MIME claims in a list. Only claims that can open documents (role Editor
/// or Viewer, rank other than None) are kept.
public struct HandlerIndex: Sendable {
    /// An app as the index keeps it.
    public struct App: Sendable {
        public var bundleIdentifier: String
        public var name: String
        public var claims: [DocumentTypeClaim]
    }
    /// The apps, in the order given.
    public let apps: [App]
    /// Normalized type identifier → the apps and claims that name it (with the claim's spelling).
    let claimsByType: [String: [(app: Int, claim: Int, spelling: String)]]
    /// Claims without `LSItemContentTypes`.
    let legacyClaims: [(app: Int, claim: Int)]

    /// The claims by registry number, when the index was built against a registry.
    public struct Numbered: Sendable {
        let registry: TypeRegistry
        /// Keyed by `Int`, not the registry's `Int32` numbers: one key type less for the runtime
        /// to look up a `Hashable` conformance for when a short-lived `openin` starts.
        let claimsByNumber: [Int: [(app: Int, claim: Int, spelling: String)]]
        let wildcards: Set<TypeRegistry.TypeID>
    }
    /// Set by ``init(apps:registry:)``.
    public private(set) var numbered: Numbered?

    /// Indexes `apps` and, for the claims of types `registry` knows, by their numbers there.
    public init(apps: [(bundleIdentifier: String, name: String, claims: [DocumentTypeClaim])], registry: TypeRegistry) {
        self.init(apps: apps)
        var byNumber: [Int: [(app: Int, claim: Int, spelling: String)]] = [:]
        for (type, entries) in claimsByType {
            guard let n = registry.number(of: type) else { continue }
            byNumber[Int(n), default: []] += entries
        }
        let wildcards = Set(HandlerRanking.wildcardTypes.compactMap { registry.number(of: $0) })
        numbered = Numbered(registry: registry, claimsByNumber: byNumber, wildcards: wildcards)
    }

    /// Indexes app bundles against `registry`.
    public init(bundles: [AppBundle], registry: TypeRegistry) {
        self.init(apps: bundles.map { (bundleIdentifier: $0.bundleIdentifier, name: $0.name, claims: $0.claims) }, registry: registry)
    }

    /// Indexes `apps`.
    public init(apps: [(bundleIdentifier: String, name: String, claims: [DocumentTypeClaim])]) {
        self.apps = apps.map { App(bundleIdentifier: $0.bundleIdentifier, name: $0.name, claims: $0.claims) }
        var byType: [String: [(app: Int, claim: Int, spelling: String)]] = [:]
        var legacy: [(app: Int, claim: Int)] = []
        for (a, app) in apps.enumerated() {
            for (c, claim) in app.claims.enumerated() where claim.role.opensDocuments && claim.rank != .none {
                if claim.contentTypes.isEmpty {
                    legacy.append((a, c))
                } else {
                    for id in claim.contentTypes { byType[TypeIdentifierSyntax.normalized(id), default: []].append((a, c, id)) }
                }
            }
        }
        claimsByType = byType
        legacyClaims = legacy
        numbered = nil
    }

    /// Indexes app bundles.
    public init(bundles: [AppBundle]) {
        self.init(apps: bundles.map { (bundleIdentifier: $0.bundleIdentifier, name: $0.name, claims: $0.claims) })
    }
}
