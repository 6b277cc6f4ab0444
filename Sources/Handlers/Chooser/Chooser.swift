import AppRegistry
import SystemCalls
import UniformTypes

/// The activity sheet for one or more documents: the apps that can open all of them, in order and
/// with reasons, the activities that can take them, and (for `--all`) the apps that cannot.
public struct Sheet: Sendable {
    /// A document and how its type was decided.
    public struct Document: Sendable {
        public var path: String
        public var type: UTType
        public var rule: FileTypeDetector.Rule
        /// What the path is (`nil`: it could not be looked at): activities take regular files only.
        public var kind: FileKind? = nil

        /// The documents at `paths`, each typed once (``AppRegistry/FileTypeDetector``), with what each path is.
        public static func typed(_ paths: [String], registry: TypeRegistry) -> [Document] {
            let detector = FileTypeDetector(registry: registry)
            return paths.map { path in
                let answer = detector.type(ofFileAt: path)
                return Document(path: path, type: answer.type, rule: answer.rule, kind: FileSystem.status(path)?.kind)
            }
        }
    }
    /// An activity left out because a document is not a file it can take.
    public struct Withheld: Sendable, Hashable, CustomStringConvertible {
        /// The activity type.
        public var activityType: String
        /// The document it would refuse.
        public var document: String
        /// What that document is (`nil`: it could not be looked at).
        public var kind: FileKind?

        /// "afolder is a folder, not a file".
        public var description: String { "\(document) is \(kind?.phrase ?? "missing or unreadable"), not a file" }
    }
    /// An app that can open every document.
    public struct AppEntry: Sendable {
        public var app: AppBundle
        /// Its ranking for each document, in document order.
        public var candidates: [HandlerCandidate]
    }
    /// An app that cannot, and why.
    public struct Refusal: Sendable {
        public var app: AppBundle
        public var reason: String
    }

    public var documents: [Document]
    public var apps: [AppEntry]
    public var activities: [Activity]
    public var refusals: [Refusal]
    /// Apps and activities left out by `--exclude`.
    public var excluded: [String]
    /// Activities left out because they would refuse a document (a folder, a device).
    public var withheld: [Withheld] = []
}

/// Builds activity sheets from a registry, the registered apps and the user's defaults.
public struct Chooser: Sendable {
    public var registry: TypeRegistry
    public var bundles: [AppBundle]
    public var index: HandlerIndex
    public var defaults: [String: String]

    /// Prepares a chooser (the claims are indexed once).
    public init(registry: TypeRegistry, bundles: [AppBundle], defaults: [String: String] = [:]) {
        self.registry = registry
        self.bundles = bundles
        self.index = HandlerIndex(bundles: bundles, registry: registry)
        self.defaults = defaults
    }

    /// The sheet for `paths`.
    /// - Parameters:
    ///   - exclude: bundle identifiers and activity types to leave out (like `excludedActivityTypes`).
    ///   - sourceApplication: the sender, which is never offered its own documents.
    ///   - refusals: whether to explain every app that is not offered (`--all`); skipped otherwise.
    ///   - senderIsRegistered: whether the sender is a registered app, when the caller knows it
    ///     (the chooser may have been given only the apps that matter); else looked up in `bundles`.
    public func sheet(for paths: [String], exclude: Set<String> = [], sourceApplication: String, refusals wantRefusals: Bool = true,
                      senderIsRegistered: Bool? = nil, nearbyDevices: [String] = []) -> Sheet {
        sheet(for: Sheet.Document.typed(paths, registry: registry), exclude: exclude, sourceApplication: sourceApplication, refusals: wantRefusals,
                     senderIsRegistered: senderIsRegistered, nearbyDevices: nearbyDevices)
    }

    /// The sheet for documents whose types are already decided (``DocumentChooser`` types each once).
    /// - Parameter nearbyDevices: the paired devices offered as rows (``Activity/builtIns(documentCount:sender:senderIsRegistered:nearbyDevices:)``).
    public func sheet(for documents: [Sheet.Document], exclude: Set<String> = [], sourceApplication: String, refusals wantRefusals: Bool = true,
                      senderIsRegistered: Bool? = nil, nearbyDevices: [String] = []) -> Sheet {
        let ranking = HandlerRanking(registry: registry)
        var perDocument: [[String: HandlerCandidate]] = []
        var order: [String] = []
        for (i, document) in documents.enumerated() {
            let ranked = ranking.rank(type: document.type, fileName: document.path, index: index, userDefaults: defaults)
            if i == 0 { order = ranked.map(\.bundleIdentifier) }
            perDocument.append(Dictionary(ranked.map { ($0.bundleIdentifier, $0) }, uniquingKeysWith: { a, _ in a }))
        }
        let byIdentifier = Dictionary(bundles.map { ($0.bundleIdentifier, $0) }, uniquingKeysWith: { a, _ in a })
        var excluded: [String] = []
        var apps: [Sheet.AppEntry] = []
        for id in order {
            guard let app = byIdentifier[id] else { continue }
            if exclude.contains(id) { excluded.append(id); continue }
            if id == sourceApplication { continue }
            let candidates = perDocument.compactMap { $0[id] }
            if candidates.count == documents.count { apps.append(Sheet.AppEntry(app: app, candidates: candidates)) }
        }
        var refusals: [Sheet.Refusal] = []
        let offered = Set(apps.map(\.app.bundleIdentifier))
        for app in bundles where wantRefusals && !offered.contains(app.bundleIdentifier) && !exclude.contains(app.bundleIdentifier) {
            refusals.append(Sheet.Refusal(app: app, reason: refusalReason(app, documents: documents, perDocument: perDocument,
                                                                            sourceApplication: sourceApplication)))
        }
        var activities = Activity.builtIns(documentCount: documents.count, sender: sourceApplication,
                                           senderIsRegistered: senderIsRegistered ?? (byIdentifier[sourceApplication] != nil),
                                           nearbyDevices: nearbyDevices)
        for app in bundles {
            for share in app.shareExtensions {
                let verdict = share.accepts(documents.map(\.type), in: registry)
                if verdict.accepted {
                    activities.append(Activity(activityType: share.activityType, name: share.name,
                                               kind: .shareExtension(bundleIdentifier: app.bundleIdentifier),
                                               reason: "\(app.name)'s share extension: \(verdict.reason)"))
                }
            }
        }
        activities = activities.filter { activity in
            if exclude.contains(activity.activityType) { excluded.append(activity.activityType); return false }
            return true
        }
        // Never offer what would then refuse: every activity copies or reads the documents as
        // files (a folder is refused, /dev/zero would be read for ever), except a share
        // extension of an app that opens documents in place, which also takes a folder.
        var withheld: [Sheet.Withheld] = []
        activities = activities.filter { activity in
            let inPlace: Bool
            if case .shareExtension(let id) = activity.kind { inPlace = byIdentifier[id]?.opensDocumentsInPlace ?? false } else { inPlace = false }
            guard let refused = documents.first(where: { !Delivery.takes($0.kind, inPlace: inPlace) }) else { return true }
            withheld.append(Sheet.Withheld(activityType: activity.activityType, document: refused.path, kind: refused.kind))
            return false
        }
        return Sheet(documents: documents, apps: apps, activities: activities, refusals: refusals, excluded: excluded, withheld: withheld)
    }

    /// Why `app` is not offered.
    func refusalReason(_ app: AppBundle, documents: [Sheet.Document], perDocument: [[String: HandlerCandidate]],
                       sourceApplication: String) -> String {
        if app.bundleIdentifier == sourceApplication { return "it is the sender" }
        if let missing = documents.indices.first(where: { perDocument[$0][app.bundleIdentifier] == nil }), documents.count > 1,
           perDocument.contains(where: { $0[app.bundleIdentifier] != nil }) {
            return "it cannot open \(documents[missing].path) (\(documents[missing].type.identifier)), and must take every document"
        }
        if app.claims.isEmpty { return "it declares no CFBundleDocumentTypes" }
        let type = documents[0].type
        let supertypes = Set(([type] + type.supertypes).map { TypeIdentifierSyntax.normalized($0.identifier) })
        for claim in app.claims {
            let names = claim.contentTypes.filter { supertypes.contains(TypeIdentifierSyntax.normalized($0)) }
            guard !names.isEmpty else { continue }
            if let why = claim.whyItOpensNothing { return "it claims \(names.joined(separator: ", ")) with \(why)" }
        }
        let claimed = app.claims.flatMap { $0.contentTypes.isEmpty ? $0.extensions.map { "." + $0 } + $0.mimeTypes : $0.contentTypes }
        let shown = claimed.prefix(4).joined(separator: ", ") + (claimed.count > 4 ? ", …" : "")
        return "none of its claims (\(shown)) covers \(type.identifier)"
    }
}
