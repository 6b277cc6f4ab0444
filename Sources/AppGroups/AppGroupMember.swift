import AppRegistry
import PropertyLists
import SystemCalls

/// An app or app extension as App Groups see it: its bundle identifier and the groups its
/// entitlements list. Membership is decided here and nowhere else.
///
/// ```swift
/// let member = try AppGroupMember(bundle: "/Apps/Notes.app/PlugIns/Widget.appex")
/// let container = try GroupContainer(for: "group.com.example.notes", member: member, on: root)
/// ```
public struct AppGroupMember: Sendable, Hashable {
    /// `CFBundleIdentifier`.
    public var bundleIdentifier: String
    /// The groups of `com.apple.security.application-groups`, in order.
    public var groups: [String]
    /// The team of `com.apple.developer.team-identifier`, when named (macOS allows `TEAM.name` groups).
    public var teamIdentifier: String?
    /// The entitlements file the groups were read from, if any (for messages).
    public var entitlementsFile: String?

    /// A member from its parts.
    public init(bundleIdentifier: String, entitlements: Entitlements) {
        self.bundleIdentifier = bundleIdentifier
        groups = entitlements.applicationGroups
        teamIdentifier = entitlements.teamIdentifier
        entitlementsFile = entitlements.path
    }

    /// An app as the app model reads it (``AppRegistry/AppBundle``).
    public init(app: AppBundle) {
        self.init(bundleIdentifier: app.bundleIdentifier, entitlements: app.entitlements)
    }

    /// The app or extension bundle at `bundle` (`X.app`, `X.appex`): its Info.plist's
    /// `CFBundleIdentifier` and its entitlements file (``AppRegistry/Entitlements/read(bundle:)``).
    /// - Throws: ``AppGroupError/unreadableBundle(path:reason:)`` when either cannot be read or
    ///   the identifier is missing.
    public init(bundle: String) throws(AppGroupError) {
        let candidates = [bundle + "/Info.plist", bundle + "/Contents/Info.plist"]
        guard let info = candidates.first(where: FileSystem.isRegularFile) else {
            throw .unreadableBundle(path: bundle, reason: "no Info.plist (looked for \(candidates.joined(separator: ", ")))")
        }
        let plist: PropertyList
        do { plist = try PropertyListReader.read(contentsOf: .init(info)).value } catch {
            throw .unreadableBundle(path: info, reason: "\(error)")
        }
        guard let identifier = BundleIdentifier.usable(plist["CFBundleIdentifier"]?.stringValue) else {
            throw .unreadableBundle(path: info, reason: "CFBundleIdentifier is missing or unresolved")
        }
        let entitlements: Entitlements
        do { entitlements = try Entitlements.read(bundle: bundle) } catch {
            throw .unreadableBundle(path: bundle, reason: "\(error)")
        }
        self.init(bundleIdentifier: identifier, entitlements: entitlements)
    }

    /// Whether the entitlements list `group` (exactly, as Apple compares them).
    public func isMember(of group: String) -> Bool { groups.contains(group) }

    /// Checks that `group` is a usable identifier and that this member is in it.
    /// - Throws: ``AppGroupError/invalidIdentifier(_:reason:)`` or ``AppGroupError/notAMember(bundleIdentifier:group:memberOf:entitlementsFile:)``.
    public func checkMembership(of group: String) throws(AppGroupError) {
        if let reason = AppGroupIdentifier.problem(with: group, teamIdentifier: teamIdentifier) { throw .invalidIdentifier(group, reason: reason) }
        guard isMember(of: group) else {
            throw .notAMember(bundleIdentifier: bundleIdentifier, group: group, memberOf: groups, entitlementsFile: entitlementsFile)
        }
    }
}
