import AppRegistry
import UniformTypes

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
        let defaultApp = DefaultHandlerRule.nearest(in: userDefaults) { distance[TypeIdentifierSyntax.normalized($0)] }?.app
        var found = Candidates(index: index, defaultApp: defaultApp)
        for (type, d) in distance {
            for entry in index.claimsByType[type] ?? [] {
                found.offer(entry.app, entry.claim, claimed: .type(entry.spelling), distance: d, wildcard: Self.wildcardTypes.contains(type))
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
        let defaultApp = userDefaults.isEmpty ? nil : DefaultHandlerRule.nearest(in: userDefaults) { typeName in
            if type.typeNumber == nil, TypeIdentifierSyntax.normalized(typeName) == TypeIdentifierSyntax.normalized(type.identifier) { return 0 }
            guard let n = registry.number(of: typeName) else { return nil }
            return distance.first(where: { $0.0 == n })?.1
        }?.app
        var found = Candidates(index: index, defaultApp: defaultApp)
        if type.typeNumber == nil {
            // Claims that name the dynamic identifier itself.
            for entry in index.claimsByType[TypeIdentifierSyntax.normalized(type.identifier)] ?? [] {
                found.offer(entry.app, entry.claim, claimed: .type(entry.spelling), distance: 0, wildcard: false)
            }
        }
        for (t, d) in distance {
            guard let entries = numbered.claimsByNumber[Int(t)] else { continue }
            let wildcard = numbered.wildcards.contains(t)
            for entry in entries {
                found.offer(entry.app, entry.claim, claimed: .type(entry.spelling), distance: d, wildcard: wildcard)
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
        mutating func offer(_ app: Int, _ claimIndex: Int, claimed: HandlerCandidate.Match, distance: Int, wildcard: Bool) {
            let candidate = HandlerCandidate(bundleIdentifier: index.apps[app].bundleIdentifier, appName: index.apps[app].name,
                                             claim: index.apps[app].claims[claimIndex], match: claimed, distance: distance,
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

        func sorted() -> [HandlerCandidate] {
            // Each candidate's key once, not two per comparison (the key lowercases the app's
            // name), and indices moved instead of candidates: the sort was a twentieth of a query
            // that ranks 89 desktop apps. The same stable sort by the same order.
            // The comparison sees keys and identifiers only, through the one rule (`precedes`):
            // passing candidates copied each one (its claim's arrays and strings) per comparison.
            let candidates = Array(best.values)
            let keys = candidates.map { (HandlerRanking.orderKey($0), $0.bundleIdentifier) }
            return candidates.indices.sorted { HandlerRanking.precedes(keys[$0].0, keys[$0].1, keys[$1].0, keys[$1].1) }
                .map { candidates[$0] }
        }
    }

    /// How a claim without `LSItemContentTypes` matches: a named extension or MIME type, else `*`.
    static func legacyMatch(_ claim: DocumentTypeClaim, ext: String?, mime: String?, preferredMIME: String?) -> (HandlerCandidate.Match, Bool)? {
        var match: (HandlerCandidate.Match, Bool)?
        for e in claim.extensions where e == "*" || e.lowercased() == ext {
            if e != "*" { return (.legacyExtension(e), false) }
            match = match ?? (.everything, true)
        }
        for m in claim.mimeTypes where m == "*" || m.lowercased() == mime || m.lowercased() == preferredMIME {
            if m != "*" { return (.legacyMIMEType(m), false) }
            match = match ?? (.everything, true)
        }
        return match
    }

    /// The documented order.
    static func precedes(_ a: HandlerCandidate, _ b: HandlerCandidate) -> Bool {
        precedes(orderKey(a), a.bundleIdentifier, orderKey(b), b.bundleIdentifier)
    }

    /// The documented order, given each candidate's ``orderKey(_:)`` and bundle identifier.
    static func precedes(_ ka: OrderKey, _ a: String, _ kb: OrderKey, _ b: String) -> Bool {
        ka != kb ? ka < kb : a < b
    }

    /// What the documented order compares before the bundle identifier.
    typealias OrderKey = (Int, Int, Int, Int, Int, String)

    /// The default first, then non-wildcard claims, rank, distance, editors, the name ignoring case.
    static func orderKey(_ c: HandlerCandidate) -> OrderKey {
        (c.isUserDefault ? 0 : 1, c.isWildcard ? 1 : 0, c.claim.rank.order, c.distance, c.claim.role == .editor ? 0 : 1, c.appName.lowercased())
    }
}
