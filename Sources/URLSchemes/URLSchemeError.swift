import AppRegistry
import Handlers
import SystemCalls

/// What went wrong with a URL, its handler or its delivery, as a value.
public enum URLSchemeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Text that is not a URL per RFC 3986: what is wrong, and the byte offset where.
    case invalidURL(String, reason: String, offset: Int)
    /// No registered app handles the scheme (and it was not handed to the desktop).
    case noHandler(scheme: String)
    /// The scheme is not handled here, and the desktop has no program to hand it to.
    case noDesktopHandler(scheme: String, lookedFor: [String])
    /// The desktop's program ran and failed.
    case desktopFailed(command: [String], status: Int32)
    /// No installed desktop app claims the scheme (`x-scheme-handler/SCHEME`), and the desktop
    /// programs tried could not open it: for https, no browser is installed.
    case noDesktopApp(scheme: String, tried: [String])
    /// Handing the URL back to the desktop would loop (openurl was started by the desktop for it).
    case handoffLoop(scheme: String)
    /// A payload that is not what it claims (base64url, JSON): what and where.
    case invalidPayload(String)
    /// No registered app has this bundle identifier.
    case noSuchApp(String)
    /// The app does not handle the scheme, and why.
    case doesNotHandle(app: String, scheme: String)
    /// A system call failed.
    case system(SystemCallError)
    /// A problem of the app model or the device.
    case app(AppRegistryError)
    /// A problem writing the request or reading the defaults.
    case handler(HandlerError)

    /// One sentence.
    public var description: String {
        switch self {
        case .invalidURL(let text, let reason, let offset):
            let shown = text.utf8.count > 80 ? String(decoding: text.utf8.prefix(77), as: UTF8.self) + "..." : text
            return "not a URL (RFC 3986): \(reason) at byte \(offset) of \(shown)"
        case .noHandler(let scheme): return "no registered app handles the scheme \(scheme)"
        case .noDesktopHandler(let scheme, let places):
            return "no registered app handles the scheme \(scheme), and there is no desktop handler to hand it to (looked for \(places.joined(separator: ", ")))"
        case .desktopFailed(let command, let status): return "\(command.joined(separator: " ")) failed with status \(status)"
        case .noDesktopApp(let scheme, let tried):
            return "no installed app opens \(scheme): URLs: no registered app handles the scheme, no .desktop file claims x-scheme-handler/\(scheme)"
                + (tried.isEmpty ? "" : ", and \(tried.joined(separator: " and ")) could not open it") + (["http", "https"].contains(scheme) ? "; install a web browser" : "")
        case .handoffLoop(let scheme):
            return "no registered app handles the scheme \(scheme); not handing it back to the desktop, which started this openurl for it"
        case .invalidPayload(let why): return "invalid payload: \(why)"
        case .noSuchApp(let id): return "no registered app \(id)"
        case .doesNotHandle(let app, let scheme): return "\(app) does not handle the scheme \(scheme)"
        case .system(let error): return error.description
        case .app(let error): return error.description
        case .handler(let error): return error.description
        }
    }
}
