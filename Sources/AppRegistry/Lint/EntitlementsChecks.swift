import PropertyLists

/// An entitlements file (`NAME.entitlements` as Xcode writes it, or a bundle's
/// `Entitlements.plist`), read as the app model reads it (``Entitlements``): App Group
/// identifiers by the one rule (``AppGroupIdentifier``), duplicates, the team, misspelt keys.
struct EntitlementsChecks {
    /// Entitlements commonly found beside App Groups: a key near one of these is probably a typo.
    static let knownKeys: Set<String> = [
        Entitlements.applicationGroupsKey, Entitlements.teamIdentifierKey, "com.apple.security.app-sandbox",
        "application-identifier", "com.apple.application-identifier", "keychain-access-groups", "aps-environment",
        "com.apple.developer.associated-domains", "com.apple.developer.icloud-container-identifiers",
        "com.apple.developer.icloud-services", "com.apple.developer.ubiquity-container-identifiers",
        "com.apple.security.files.user-selected.read-write", "com.apple.security.network.client",
        "com.apple.security.network.server", "get-task-allow",
    ]

    func check(_ value: PropertyList, into out: inout LintCollector) {
        KeyChecks.unknownKeys(value, known: Self.knownKeys, at: .root, into: &out)
        let team = value[Entitlements.teamIdentifierKey]
        if let team, team.stringValue == nil {
            out.add(.teamIdentifier, .error, "\(Entitlements.teamIdentifierKey) must be a string, not \(team.typeNameWithArticle)",
                    PropertyListPath.root.appending(Entitlements.teamIdentifierKey))
        }
        let key = Entitlements.applicationGroupsKey
        guard let groups = value[key] else { return }
        let path = PropertyListPath.root.appending(key)
        guard case .array(let elements) = groups else {
            out.add(.applicationGroups, .error, "\(key) must be an array of group identifiers, not \(groups.typeNameWithArticle); the app is in no group", path)
            return
        }
        if elements.isEmpty { out.add(.applicationGroups, .warning, "\(key) lists no groups; remove it or add \"group.…\" identifiers", path) }
        var seen: [String: Int] = [:]
        for (i, element) in elements.enumerated() {
            guard let group = element.stringValue else {
                out.add(.applicationGroups, .error, "a group identifier must be a string, not \(element.typeNameWithArticle); it is ignored", path.appending(i))
                continue
            }
            if let problem = AppGroupIdentifier.problem(with: group, teamIdentifier: team?.stringValue) {
                out.add(.applicationGroups, .error, "\"\(group)\" is not an App Group identifier: \(problem); no container is given for it", path.appending(i))
            } else if let first = seen[group] {
                out.add(.applicationGroups, .warning, "\(group) is listed again (first at item \(first))", path.appending(i))
            }
            seen[group] = seen[group] ?? i
        }
    }
}

extension InfoPlistLinter {
    /// Every finding for one entitlements file, ordered by position.
    public func lint(entitlements document: PropertyListDocument) -> [LintFinding] {
        var out = LintCollector(document: document, ignored: ignored)
        for duplicate in document.duplicateKeys {
            out.add(.duplicateKey, .warning, "the key appears twice in one dictionary; the last value is used", duplicate.keyPath)
        }
        let (value, _) = variables.substitute(document.value)
        guard case .dictionary = value else {
            out.add(.notADictionary, .error, "an entitlements file must be a dictionary, not \(value.typeNameWithArticle)", .root)
            return out.sorted
        }
        EntitlementsChecks().check(value, into: &out)
        return out.sorted
    }
}
