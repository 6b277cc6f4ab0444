import PropertyLists

/// `NSUserActivityTypes`, read as ``AppBundle/activityTypes`` and ``ActivityType`` read it: an array
/// of strings, none empty or repeated, each a reverse-DNS name (or a SiriKit intent's class name)
/// in the app's own domain, and none another app on the device declares too.
///
/// Apple documents no limit on how many types an app declares; the size limit it documents is
/// on an activity's `userInfo`, which is checked when an activity is made current, not here.
struct ActivityTypeChecks {
    let otherApps: [AppBundle]

    func check(_ value: PropertyList, app: AppBundle, into out: inout LintCollector) {
        let key = PropertyListPath.root.appending("NSUserActivityTypes")
        guard let declared = value["NSUserActivityTypes"] else { return }
        guard case .array(let entries) = declared else {
            out.add(.valueType, .error, "NSUserActivityTypes must be an array of strings, not \(declared.typeNameWithArticle)", key)
            return
        }
        let ownDomain = BundleIdentifier.usable(value["CFBundleIdentifier"]?.stringValue).flatMap(ActivityType.domain)
        var seen: [String: PropertyListPath] = [:]
        for (i, entry) in entries.enumerated() {
            let path = key.appending(i)
            guard let type = entry.stringValue else {
                out.add(.valueType, .error, "an activity type must be a string, not \(entry.typeNameWithArticle)", path)
                continue
            }
            guard !type.isEmpty else {
                out.add(.activityType, .error, "an empty activity type names no activity", path)
                continue
            }
            if let first = seen[type] {
                out.add(.activityType, .warning, "the activity type \(type) is declared again (first at \(first))", path)
                continue
            }
            seen[type] = path
            switch ActivityType.kind(of: type) {
            case .intent:
                continue  // SiriKit's, not Handoff's: no domain, and shared by design
            case .other:
                out.add(.activityType, .warning, "the activity type \"\(type)\" is not a reverse-DNS name (com.example.app.activity) nor an intent's class name; nothing says whose it is", path)
            case .reverseDNS:
                if let ownDomain, let domain = ActivityType.domain(of: type), domain != ownDomain {
                    out.add(.activityType, .warning, "the activity type \(type) is in the domain \(domain), not this app's (\(ownDomain)); Handoff continues an activity only in an app of the team that offered it", path)
                }
            }
            let rivals = otherApps.filter { $0.bundleIdentifier != app.bundleIdentifier && $0.activityTypes.contains(type) }.map(\.bundleIdentifier)
            if !rivals.isEmpty {
                out.add(.contestedActivityType, .warning, "the activity type \(type) is also declared by \(rivals.joined(separator: ", ")); which app continues it is decided by the team that offered it, then docs/handoff.md's order, not by this file", path)
            }
        }
    }
}
