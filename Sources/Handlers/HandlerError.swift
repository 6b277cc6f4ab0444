import AppRegistry
import DesktopEntries
import OpenRequests
import PropertyLists
import SystemCalls

/// What went wrong while choosing or delivering, as a value: the call and errno, the path, the
/// app or type it concerns.
public enum HandlerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A system call failed.
    case system(SystemCallError)
    /// A problem of the app model or the device (a container, a registration).
    case app(AppRegistryError)
    /// No registered app has this bundle identifier.
    case noSuchApp(String)
    /// The app cannot take the documents, and why.
    case cannotTake(app: String, reason: String)
    /// Not a regular file (a folder, a device…): only files are delivered.
    case notAFile(String, FileKind)
    /// Every `name-N` is taken in the folder.
    case noFreeName(name: String, folder: String)
    /// An open request that cannot be written or read.
    case openRequest(OpenRequestError)
    /// An open request or defaults file that cannot be read or written: its path and why.
    case unreadableFile(path: String, reason: String)
    /// An activity that cannot run here, and why.
    case activityFailed(activity: String, reason: String)
    /// The app cannot open documents of this type (the app as named, the type, and what it opens instead).
    case cannotOpen(app: String, type: String, detail: String)
    /// A desktop application could not be started.
    case launch(app: String, DesktopLauncher.Failure)
    /// A refusal that has no better case yet.
    case refused(String)

    /// One sentence.
    public var description: String {
        switch self {
        case .system(let error): error.description
        case .app(let error): error.description
        case .noSuchApp(let id): "no registered app \(id)"
        case .cannotTake(let app, let reason): "\(app) cannot take it: \(reason)"
        case .notAFile(let path, let kind): "\(path) is \(kind.phrase), not a file"
        case .noFreeName(let name, let folder): "no free name for \(name) in \(folder)"
        case .openRequest(let error): error.description
        case .unreadableFile(let path, let reason): "\(path): \(reason)"
        case .activityFailed(let activity, let reason): "\(activity): \(reason)"
        case .cannotOpen(let app, let type, let detail): "\(app) cannot open \(type)\(detail)"
        case .launch(let app, let failure): "\(app): \(failure)"
        case .refused(let why): why
        }
    }
}
