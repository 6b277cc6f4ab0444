import AppRegistry
import SystemCalls

// `AppBundle` cannot conform to `PasteboardRequester` itself: its `bundleIdentifier` is a
// `String` (every registered app has one), the protocol's is optional (the user has none).
extension PasteboardClient {
    /// The client for a registered app: its bundle identifier, and the team and App Groups its
    /// entitlements name (`com.apple.developer.team-identifier`,
    /// `com.apple.security.application-groups`), running in `process`.
    /// - Parameters:
    ///   - app: the app as the app model reads it.
    ///   - process: the process it runs in; the current one by default.
    public init(app: AppBundle, process: ProcessIdentity = .current) {
        self.init(bundleIdentifier: app.bundleIdentifier, teamIdentifier: app.entitlements.teamIdentifier,
                  appGroups: Set(app.entitlements.applicationGroups), process: process)
    }
}
