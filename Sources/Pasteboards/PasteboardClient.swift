import AppRegistry
import SystemCalls

/// What the pasteboards need to know of an app: its bundle identifier, its team and the app
/// groups its entitlements name. The app model conforms to this; so does ``PasteboardClient``.
public protocol PasteboardRequester: Sendable {
    /// `CFBundleIdentifier`; `nil` for the user (the command-line tools).
    var bundleIdentifier: String? { get }
    /// The team identifier it is signed with, if any.
    var teamIdentifier: String? { get }
    /// `com.apple.security.application-groups`.
    var appGroups: Set<String> { get }
}

/// Who is asking: an app (bundle identifier, team, app groups) and the process it runs in, or the
/// user, who sees every pasteboard (`pbcopy` and `pbpaste` act as the user).
public struct PasteboardClient: PasteboardRequester, Sendable, Hashable {
    /// `CFBundleIdentifier`; `nil` for the user.
    public var bundleIdentifier: String?
    /// The team identifier, if any.
    public var teamIdentifier: String?
    /// The app groups it belongs to.
    public var appGroups: Set<String>
    /// The process it runs in: pasteboards that live as long as their creator record it.
    public var process: ProcessIdentity

    /// A client.
    public init(bundleIdentifier: String?, teamIdentifier: String? = nil, appGroups: Set<String> = [],
                process: ProcessIdentity = .current) {
        self.bundleIdentifier = bundleIdentifier
        self.teamIdentifier = teamIdentifier
        self.appGroups = appGroups
        self.process = process
    }

    /// The client for an app of the app model, running in `process`.
    public init(_ requester: some PasteboardRequester, process: ProcessIdentity = .current) {
        self.init(bundleIdentifier: requester.bundleIdentifier, teamIdentifier: requester.teamIdentifier,
                  appGroups: requester.appGroups, process: process)
    }

    /// The user in this process: no app identity, sees every pasteboard.
    public static var user: PasteboardClient { PasteboardClient(bundleIdentifier: nil) }

    /// Whether this is the user rather than an app.
    public var isUser: Bool { bundleIdentifier == nil }
}

/// Who a named pasteboard belongs to, as stored with it: the app that created it (nothing for the
/// user) and the app group it is shared with, if any.
public struct PasteboardOwner: Sendable, Hashable {
    /// The creating app's bundle identifier; `nil` when the user created it.
    public var bundleIdentifier: String?
    /// The creating app's team.
    public var teamIdentifier: String?
    /// An app group whose members may see it too.
    public var appGroup: String?

    /// An owner record.
    public init(bundleIdentifier: String? = nil, teamIdentifier: String? = nil, appGroup: String? = nil) {
        self.bundleIdentifier = bundleIdentifier
        self.teamIdentifier = teamIdentifier
        self.appGroup = appGroup
    }

    /// The one rule of who sees a pasteboard (UIPasteboard: named pasteboards are shared between
    /// "apps that have the same team ID"; here also the members of the app group it was shared
    /// with). System pasteboards and pasteboards the user made are seen by everyone; the user sees
    /// everything; an app sees what its own bundle identifier, its team, or one of its app groups
    /// made or was given.
    public func isVisible(to client: PasteboardClient, name: PasteboardName) -> Bool {
        if name.isSystem || client.isUser || bundleIdentifier == nil { return true }
        if client.bundleIdentifier == bundleIdentifier { return true }
        if let team = teamIdentifier, !team.isEmpty, client.teamIdentifier == team { return true }
        if let group = appGroup, client.appGroups.contains(group) { return true }
        return false
    }
}
