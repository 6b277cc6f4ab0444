import AppRegistry
import SystemCalls

/// Why a group container cannot be given, as a value.
public enum AppGroupError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The app or extension asking is not in the group: its entitlements list these groups
    /// (read from this file, when there is one).
    case notAMember(bundleIdentifier: String, group: String, memberOf: [String], entitlementsFile: String?)
    /// Not a usable App Group identifier, and why (``AppRegistry/AppGroupIdentifier``).
    case invalidIdentifier(String, reason: String)
    /// No device root at this path.
    case noDeviceRoot(String)
    /// The container exists but cannot be trusted: a link, not a folder, or another user's.
    case unsafeContainer(path: String, reason: String)
    /// A bundle whose identity or entitlements cannot be read.
    case unreadableBundle(path: String, reason: String)
    /// A system call failed.
    case system(SystemCallError)

    /// One sentence.
    public var description: String {
        switch self {
        case .notAMember(let app, let group, let groups, let file):
            let listed = groups.isEmpty ? "no App Groups" : "only " + groups.joined(separator: ", ")
            let source = file.map { " (\($0))" } ?? " (it has no entitlements file)"
            return "\(app) is not a member of \(group): its com.apple.security.application-groups entitlement lists \(listed)\(source)"
        case .invalidIdentifier(let group, let reason): return "\"\(group)\" is not an App Group identifier: \(reason)"
        case .noDeviceRoot(let path): return DeviceRoot.absence(at: path)
        case .unsafeContainer(let path, let reason): return "refusing the group container \(path): \(reason)"
        case .unreadableBundle(let path, let reason): return "cannot read the bundle \(path): \(reason)"
        case .system(let error): return error.description
        }
    }
}
