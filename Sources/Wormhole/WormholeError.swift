import FileCoordination
import KeyedArchives
import Notifications
import SystemCalls

/// Why a wormhole call failed.
public enum WormholeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The identifier cannot name a message file (empty, a `/`, `.` or `..`, a NUL byte, too long).
    case invalidIdentifier(String, reason: String)
    /// A message file is not a keyed archive of the allowed classes: its path and why.
    case unreadableMessage(path: String, KeyedArchiveError)
    /// The message could not be archived.
    case unarchivable(KeyedArchiveError)
    /// Posting or registering the identifier's notification failed.
    case notification(NotificationError)
    /// A coordinated access failed.
    case coordination(CoordinationError)
    /// A system call failed.
    case system(SystemCallError)

    /// One sentence.
    public var description: String {
        switch self {
        case .invalidIdentifier(let identifier, let reason): "invalid wormhole identifier '\(identifier)': \(reason)"
        case .unreadableMessage(let path, let error): "\(path): \(error)"
        case .unarchivable(let error): "cannot archive the message: \(error)"
        case .notification(let error): error.description
        case .coordination(let error): error.description
        case .system(let error): error.description
        }
    }
}
