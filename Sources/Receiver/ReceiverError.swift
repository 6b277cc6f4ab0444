import AppRegistry
import AppRegistry
import Handlers
import SystemCalls

/// What stopped the receiver, as a value.
public enum ReceiverError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A system call failed.
    case system(SystemCallError)
    /// The manifest (SQLite) failed: its path, SQLite's result code and message.
    case manifest(path: String, code: Int32, message: String)
    /// No device root at this path.
    case noDeviceRoot(String)
    /// No container and no registration for this app on the root.
    case noSuchApp(String, root: String)
    /// A problem of the app model or the device (a container, the catalog, the registry).
    case app(AppRegistryError)
    /// A problem of the handler layer.
    case handler(HandlerError)

    /// One sentence.
    public var description: String {
        switch self {
        case .system(let error): error.description
        case .manifest(let path, let code, let message): "manifest \(path): \(message) (SQLite \(code))"
        case .noDeviceRoot(let path): DeviceRoot.absence(at: path)
        case .noSuchApp(let id, let root): "no app \(id) on \(root) (neither registered nor with a container)"
        case .app(let error): error.description
        case .handler(let error): error.description
        }
    }
}
