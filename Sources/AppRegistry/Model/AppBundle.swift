import PropertyLists
import SystemCalls
import UniformTypes

/// An app as everything reads it, from its Info.plist (and its plug-ins' and its entitlements):
/// who it is, what documents and URLs it opens and how, what it may query, the activities and
/// extensions it offers, the groups it belongs to and how it starts. The registry records it,
/// the linter checks the same reading, the chooser ranks it, the receiver judges by it.
public struct AppBundle: Sendable, Hashable {
    /// `CFBundleIdentifier` when usable (``BundleIdentifier/usable(_:)``), else the registration's name.
    public var bundleIdentifier: String
    /// `CFBundleDisplayName`, else `CFBundleName`, else the bundle identifier.
    public var name: String
    /// `CFBundleShortVersionString`.
    public var shortVersion: String?
    /// `CFBundleVersion`.
    public var version: String?
    /// `CFBundleDocumentTypes`.
    public var claims: [DocumentTypeClaim]
    /// `CFBundleURLTypes`.
    public var urlTypes: [URLType]
    /// `LSApplicationQueriesSchemes`: the schemes the app may ask about (`canOpenURL`), in order.
    public var queriedSchemes: [String]
    /// `NSUserActivityTypes`: the activities it continues (Handoff).
    public var activityTypes: [String]
    /// `LSSupportsOpeningDocumentsInPlace`: the app opens the original, no copy is made.
    public var opensDocumentsInPlace: Bool
    /// How to start the app on Linux (``LaunchCommand/key``), when it declares one.
    public var launchCommand: LaunchCommand?
    /// Share extensions: the app's own `NSExtension` and those of `PlugIns/*.appex`.
    public var shareExtensions: [ShareExtension]
    /// Its entitlements (App Groups, team).
    public var entitlements: Entitlements
    /// The bundle folder (or the lone Info.plist) it was registered from.
    public var path: String
    /// Its Info.plist.
    public var infoPlistPath: String

    /// The URL schemes it handles (``URLType``s that open URLs: ``URLType/opensURLs``), valid
    /// (``URLType/problem(withScheme:)``), normalized, each once, in order.
    public var urlSchemes: [String] {
        var seen: Set<String> = []
        return urlTypes.filter(\.opensURLs).flatMap(\.schemes)
            .filter { URLType.problem(withScheme: $0) == nil }
            .map(URLType.normalized).filter { seen.insert($0).inserted }
    }

    /// How many `LSApplicationQueriesSchemes` entries count: iOS 15 and later read the first 50
    /// and answer `canOpenURL` with false for the rest.
    public static let queriedSchemesLimit = 50

    /// The schemes the app may ask about (`canOpenURL`): the first ``queriedSchemesLimit``
    /// entries of `LSApplicationQueriesSchemes`, normalized. Entries past the limit do not count.
    public var countedQueriedSchemes: [String] {
        queriedSchemes.prefix(Self.queriedSchemesLimit).map(URLType.normalized)
    }

    /// The URL type that makes the app handle `scheme` (ignoring case), when one does.
    public func urlType(forScheme scheme: String) -> URLType? {
        let normalized = URLType.normalized(scheme)
        return urlTypes.first { $0.opensURLs && $0.schemes.contains { URLType.normalized($0) == normalized } }
    }

    /// The app a registry record holds, or an Info.plist value with its plug-ins' Info.plists
    /// (`(folder name, value)`) and its entitlements.
    public init(plist: PropertyList, path: String = "", infoPlistPath: String = "", fallbackIdentifier: String = "",
                plugIns: [(name: String, plist: PropertyList)] = [], entitlements: Entitlements = Entitlements()) {
        let identifier = BundleIdentifier.usable(plist["CFBundleIdentifier"]?.stringValue) ?? fallbackIdentifier
        bundleIdentifier = identifier
        // A name still holding a build variable names nothing either.
        func named(_ key: String) -> String? {
            plist[key]?.stringValue.flatMap { $0.isEmpty || BuildVariables.isUnresolved($0) ? nil : $0 }
        }
        name = named("CFBundleDisplayName") ?? named("CFBundleName") ?? identifier
        shortVersion = plist["CFBundleShortVersionString"]?.stringValue
        version = plist["CFBundleVersion"]?.stringValue
        claims = DocumentTypeClaim.claims(in: plist)
        urlTypes = URLType.urlTypes(in: plist)
        queriedSchemes = InfoPlistValue.strings(plist["LSApplicationQueriesSchemes"])
        activityTypes = InfoPlistValue.strings(plist["NSUserActivityTypes"])
        opensDocumentsInPlace = InfoPlistValue.bool(plist["LSSupportsOpeningDocumentsInPlace"]) ?? false
        launchCommand = LaunchCommand(plist: plist)
        shareExtensions = ShareExtension(plist: plist, fallbackIdentifier: identifier + ".share").map { [$0] } ?? []
        for plugIn in plugIns {
            let stem = plugIn.name.hasSuffix(".appex") ? String(plugIn.name.dropLast(6)) : plugIn.name
            if let share = ShareExtension(plist: plugIn.plist, fallbackIdentifier: identifier + "." + stem) { shareExtensions.append(share) }
        }
        self.entitlements = entitlements
        self.path = path
        self.infoPlistPath = infoPlistPath
    }

    /// Whether the chooser must look at this app for every document, whatever its type: it has
    /// legacy claims by extension or MIME type, or share extensions (their rules count kinds).
    public var isAlwaysConsidered: Bool {
        claims.contains { !$0.usesContentTypes } || !shareExtensions.isEmpty
    }

    /// The type identifiers its document types name (for the registry's index of claims).
    public var claimedTypes: [String] { claims.flatMap(\.contentTypes) }
}
