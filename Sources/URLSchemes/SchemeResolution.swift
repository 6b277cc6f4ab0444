import AppRegistry

/// One app that claims a scheme, where it stands among the others and why.
public struct SchemeCandidate: Sendable, Hashable {
    /// The app.
    public var app: AppBundle
    /// The URL type that claims the scheme.
    public var urlType: URLType
    /// The user chose it for the scheme (`openurl default set`).
    public var isUserDefault: Bool
    /// Its bundle identifier is the scheme (apps use their own identifier as a scheme).
    public var isNamedByScheme: Bool

    /// Why it is where it is, in one line.
    public var reason: String {
        var parts: [String] = []
        if isUserDefault { parts.append("the user's default for the scheme") }
        if isNamedByScheme { parts.append("its bundle identifier is the scheme") }
        parts.append("CFBundleURLTypes names it (\(urlType.keyPath))" + (urlType.name.map { ", \"\($0)\"" } ?? ""))
        parts.append("role \(urlType.role.rawValue)")
        return parts.joined(separator: "; ")
    }
}

/// Every app that claims a scheme, in the order that decides which opens its URLs
/// (docs/url-schemes.md). iOS leaves the choice undefined when two apps claim one scheme, and
/// apps were hijacked that way; here the order is deterministic:
///
/// 1. the user's default for the scheme (`openurl default set SCHEME BUNDLE`);
/// 2. the app whose bundle identifier is the scheme (ignoring case): an app answers to its own
///    identifier, and another app claiming it is the hijack the linter warns about;
/// 3. role: Editor, then Viewer, then Shell;
/// 4. the bundle identifier, in byte order (lowercased), then the registration path.
///
/// Registration time is deliberately not a key: it changes when a device root is copied or an
/// app re-registered, and the answer must not.
public struct SchemeResolution: Sendable {
    /// The scheme, normalized.
    public var scheme: String
    /// The claimants, the one that opens the URL first.
    public var candidates: [SchemeCandidate]
    /// A default the user set for an app that no longer claims the scheme (ignored).
    public var staleDefault: String?

    /// The app that opens URLs of the scheme.
    public var handler: SchemeCandidate? { candidates.first }
    /// Whether more than one app claims the scheme.
    public var isContested: Bool { candidates.count > 1 }

    /// Orders `apps` (those that claim `scheme`) as documented above.
    public init(scheme: String, apps: [AppBundle], userDefault: String?) {
        self.scheme = URLType.normalized(scheme)
        let normalized = self.scheme
        var candidates: [SchemeCandidate] = []
        for app in apps {
            guard let type = app.urlType(forScheme: normalized) else { continue }
            candidates.append(SchemeCandidate(app: app, urlType: type, isUserDefault: app.bundleIdentifier == userDefault,
                                              isNamedByScheme: app.bundleIdentifier.lowercased() == normalized))
        }
        func roleOrder(_ role: HandlerRole) -> Int { role == .editor ? 0 : role == .viewer ? 1 : 2 }
        candidates.sort { a, b in
            if a.isUserDefault != b.isUserDefault { return a.isUserDefault }
            if a.isNamedByScheme != b.isNamedByScheme { return a.isNamedByScheme }
            if roleOrder(a.urlType.role) != roleOrder(b.urlType.role) { return roleOrder(a.urlType.role) < roleOrder(b.urlType.role) }
            let (x, y) = (a.app.bundleIdentifier.lowercased(), b.app.bundleIdentifier.lowercased())
            if x != y { return Array(x.utf8).lexicographicallyPrecedes(Array(y.utf8)) }
            return Array(a.app.path.utf8).lexicographicallyPrecedes(Array(b.app.path.utf8))
        }
        self.candidates = candidates
        staleDefault = userDefault.flatMap { id in candidates.contains { $0.app.bundleIdentifier == id } ? nil : id }
    }
}
