import AppRegistry
import UniformTypes

/// The claims of many apps arranged for ranking: content-type claims by the (normalized) type they
/// name, legacy extension/MIME claims in a list. Only claims that can open documents
/// (``DocumentTypeClaim/opensDocuments``: a known role Editor or Viewer, a known rank other than
/// None) are kept.
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
            for (c, claim) in app.claims.enumerated() where claim.opensDocuments {
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
