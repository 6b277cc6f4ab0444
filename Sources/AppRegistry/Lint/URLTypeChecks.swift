import PropertyLists

/// `CFBundleURLTypes` and `LSApplicationQueriesSchemes`, read as the URL-scheme dispatcher reads
/// them (``URLType``): scheme syntax (RFC 3986), roles, and the contests between apps where iOS's
/// behaviour is undefined (two apps claiming one scheme; a scheme equal to another app's bundle
/// identifier).
struct URLTypeChecks {
    let otherApps: [AppBundle]

    /// iOS 15 and later read only the first 50 entries of `LSApplicationQueriesSchemes`.
    static let queriedSchemesLimit = AppBundle.queriedSchemesLimit

    func check(_ value: PropertyList, app: AppBundle, into out: inout LintCollector) {
        var seen: [String: PropertyListPath] = [:]
        for type in app.urlTypes {
            if let role = type.unknownRole {
                out.add(.role, .error, "CFBundleTypeRole \"\(role)\" is not Editor, Viewer, Shell, QLGenerator or None; URLs of this type are never opened here",
                        type.keyPath.appending("CFBundleTypeRole"))
            } else if !type.opensURLs {
                out.add(.role, .warning, "CFBundleTypeRole \(type.role.rawValue) declares these schemes without handling them; URLs of this type are never opened here (use Editor, Viewer or Shell)",
                        type.keyPath.appending("CFBundleTypeRole"))
            }
            if type.schemes.isEmpty { out.add(.urlScheme, .warning, "a URL type without CFBundleURLSchemes claims nothing", type.keyPath) }
            for (i, scheme) in type.schemes.enumerated() {
                let path = type.keyPath.appending("CFBundleURLSchemes").appending(i)
                if let problem = URLType.problem(withScheme: scheme) {
                    out.add(.urlScheme, .error, "URL scheme \"\(scheme)\" is not valid: \(problem)", path)
                    continue
                }
                let normalized = URLType.normalized(scheme)
                if let first = seen[normalized] { out.add(.urlScheme, .warning, "the scheme \(scheme) is claimed again (first at \(first))", path) }
                else { seen[normalized] = path }
                let rivals = otherApps.filter { $0.bundleIdentifier != app.bundleIdentifier && $0.urlSchemes.contains(normalized) }.map(\.bundleIdentifier)
                if !rivals.isEmpty {
                    out.add(.contestedScheme, .warning, "the scheme \(scheme) is also claimed by \(rivals.joined(separator: ", ")); which app opens it is decided by the user's default, then the documented order (docs/url-schemes.md), not by this file", path)
                }
                if let owner = otherApps.first(where: { $0.bundleIdentifier != app.bundleIdentifier && $0.bundleIdentifier.lowercased() == normalized }) {
                    out.add(.schemeIsBundleIdentifier, .warning, "the scheme \(scheme) is the bundle identifier of \(owner.name) (\(owner.bundleIdentifier)); apps use their own identifier as a scheme, so this one will be contested", path)
                }
            }
        }
        let queried = app.queriedSchemes
        if queried.count > Self.queriedSchemesLimit {
            out.add(.queriedSchemes, .warning, "LSApplicationQueriesSchemes lists \(queried.count) schemes; only the first \(Self.queriedSchemesLimit) count (iOS 15 and later), so canOpenURL answers false for \(queried[Self.queriedSchemesLimit...].prefix(3).joined(separator: ", "))\(queried.count > Self.queriedSchemesLimit + 3 ? "…" : "")",
                    PropertyListPath.root.appending("LSApplicationQueriesSchemes").appending(Self.queriedSchemesLimit))
        }
        for (i, scheme) in queried.enumerated() {
            if let problem = URLType.problem(withScheme: scheme) {
                out.add(.queriedSchemes, .error, "queried scheme \"\(scheme)\" is not valid: \(problem)", PropertyListPath.root.appending("LSApplicationQueriesSchemes").appending(i))
            }
        }
    }
}
