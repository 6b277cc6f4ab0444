import AppRegistry
import Handlers
import OpenRequests
import PropertyLists
import SystemCalls
import UniformTypes

/// Opens URLs the way `openURL` does on iOS: the app that handles the scheme
/// (``SchemeResolution``) gets an open request in its `Library/OpenRequests/` (the URL whole, the
/// sender, the annotation) and its launch command runs with `%u` and `%r`, unless the app is
/// running and listening (``RequestListener``): then, as on iOS, the running app takes the URL
/// and nothing is started. A scheme no registered app handles (https, mailto) is handed to the
/// desktop (``DesktopHandoff``). Nothing goes through a shell; a URL of any length reaches the
/// app through the request file.
public struct URLOpener: Sendable {
    /// What opening did.
    public enum Outcome: Sendable, Hashable {
        /// Delivered to a registered app: the request file, and the command started, if any.
        case delivered(app: AppBundle, requestPath: String, launched: [String]?)
        /// Delivered to a registered app that is running and listening: the request file, taken
        /// by the running app; nothing was started.
        case deliveredToRunningApp(app: AppBundle, requestPath: String)
        /// No registered app handles the scheme: handed to the desktop with this command.
        case handedToDesktop(command: [String])
    }

    /// The `sourceApplication` used when the sender does not say.
    public static let defaultSourceApplication = "org.document-interchange.openurl"

    /// The device the apps live on.
    public var root: DeviceRoot
    /// Who handles which scheme.
    public var directory: SchemeDirectory
    /// The sender's bundle identifier (`sourceApplication`), as the sender states it.
    public var sourceApplication: String
    /// The property-list value passed along (`annotation`).
    public var annotation: PropertyList?
    /// Whether to start the handler's launch command.
    public var launch = true
    /// Whether schemes no registered app handles go to the desktop (`gio open`, `xdg-open`).
    public var desktopHandoff = true
    /// Where the request's time comes from.
    public var clock: Clock = .system

    /// An opener for `root`'s apps.
    public init(root: DeviceRoot, directory: SchemeDirectory, sourceApplication: String = defaultSourceApplication, annotation: PropertyList? = nil) {
        self.root = root
        self.directory = directory
        self.sourceApplication = sourceApplication
        self.annotation = annotation
    }

    /// Opens `url` with the app that handles its scheme, or the desktop.
    public func open(_ url: SchemeURL) throws(URLSchemeError) -> Outcome {
        if let handler = directory.resolve(url.normalizedScheme).handler {
            return try deliver(url, to: handler.app)
        }
        guard desktopHandoff else { throw .noHandler(scheme: url.normalizedScheme) }
        return .handedToDesktop(command: try DesktopHandoff.handOver(url))
    }

    /// Opens `url` with `app`, which must handle its scheme.
    public func open(_ url: SchemeURL, with bundleIdentifier: String) throws(URLSchemeError) -> Outcome {
        guard let app = directory.resolve(url.normalizedScheme).candidates.first(where: { $0.app.bundleIdentifier == bundleIdentifier })?.app else {
            if AppBundle.isRegistered(bundleIdentifier, in: directory.registry) { throw .doesNotHandle(app: bundleIdentifier, scheme: url.normalizedScheme) }
            throw .noSuchApp(bundleIdentifier)
        }
        return try deliver(url, to: app)
    }

    /// Writes the open request into `app`'s container and starts the app unless it is running
    /// and listening (``RequestLaunch``).
    func deliver(_ url: SchemeURL, to app: AppBundle) throws(URLSchemeError) -> Outcome {
        var request = OpenRequest(url: url.text)
        request.sourceApplication = sourceApplication
        request.targetApplication = app.bundleIdentifier
        request.time = clock.now()
        request.annotation = annotation
        let outcome = try RequestLaunch.deliver(request, to: app, on: root, url: url.text, launch: launch, clock: clock)
        if outcome.reachedRunningApp { return .deliveredToRunningApp(app: app, requestPath: outcome.requestPath) }
        return .delivered(app: app, requestPath: outcome.requestPath, launched: outcome.launched)
    }
}
