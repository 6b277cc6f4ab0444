/// The one rule for what an App Group identifier in `com.apple.security.application-groups` is
/// worth: the group containers, the shared defaults and the entitlements linter all ask here.
///
/// iOS requires `group.` followed by a reverse-DNS name (`group.com.example.notes`); macOS also
/// accepts the team identifier as the prefix (`ABCDE12345.com.example.notes`). The rest follows
/// the bundle-identifier rule (letters, digits, hyphens and periods), which also makes every
/// valid identifier a plain folder name for its container.
public enum AppGroupIdentifier {
    /// The prefix iOS requires.
    public static let prefix = "group."

    /// Why `value` is not a usable App Group identifier, or `nil` when it is. `teamIdentifier`
    /// (the entitlements' team) allows the macOS form `TEAM.name` too.
    public static func problem(with value: String, teamIdentifier: String? = nil) -> String? {
        if let team = teamIdentifier, !team.isEmpty, value.hasPrefix(team + "."), value.count > team.count + 1 {
            return BundleIdentifier.problem(with: value)
        }
        guard value.hasPrefix(prefix) else {
            return "it does not start with \"group.\"" + (teamIdentifier.map { " (or the team identifier \($0).)" } ?? "")
        }
        if value.count == prefix.count { return "it names nothing after \"group.\"" }
        if let problem = BundleIdentifier.problem(with: value) { return problem }
        return nil
    }

    /// Whether `value` is usable (``problem(with:teamIdentifier:)`` finds nothing).
    public static func isValid(_ value: String, teamIdentifier: String? = nil) -> Bool {
        problem(with: value, teamIdentifier: teamIdentifier) == nil
    }
}
