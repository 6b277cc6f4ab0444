import PropertyLists

/// Who the app says it is: a bundle identifier the registry can use, a four-character signature.
enum IdentityChecks {
    static func check(_ value: PropertyList, app: AppBundle, into out: inout LintCollector) {
        let path = PropertyListPath.root.appending("CFBundleIdentifier")
        // Every app has one (uti register refuses a plist without it: it is not an app).
        if value["CFBundleIdentifier"] == nil {
            out.add(.bundleIdentifier, .error, "no CFBundleIdentifier: every app has one (in a source tree whose build adds it, --ignore bundle-identifier)", path)
        } else if value["CFBundleIdentifier"]?.stringValue == nil {
            out.add(.bundleIdentifier, .error, "CFBundleIdentifier is not a string", path)
        }
        if let identifier = value["CFBundleIdentifier"]?.stringValue, !BuildVariables.isUnresolved(identifier),
           let problem = BundleIdentifier.problem(with: identifier) {
            out.add(.bundleIdentifier, .error, "CFBundleIdentifier \"\(identifier)\" is not a bundle identifier: \(problem)", path)
        }
        if let signature = value["CFBundleSignature"]?.stringValue, signature.utf8.count != 4 {
            out.add(.bundleSignature, .error, "CFBundleSignature \"\(signature)\" must be exactly 4 characters", PropertyListPath.root.appending("CFBundleSignature"))
        }
    }
}
