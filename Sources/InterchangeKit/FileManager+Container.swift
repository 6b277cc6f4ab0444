import AppGroups
import Foundation

extension FileManager {
    /// The shared container of the App Group `groupIdentifier` (`ROOT/Groups/GROUP`, made on
    /// first use), when the current app is a member (its `com.apple.security.application-groups`
    /// entitlement names the group); else `nil`, as on iOS.
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? {
        guard let app = try? CurrentApp.app.get(),
              let container = try? GroupContainer(for: groupIdentifier, member: AppGroupMember(app: app.bundle), on: app.root) else { return nil }
        return URL(fileURLWithPath: container.path, isDirectory: true)
    }
}
