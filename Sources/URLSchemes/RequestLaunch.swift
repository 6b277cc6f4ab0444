import AppRegistry
import OpenRequests
import SystemCalls

/// Hands an open request that carries no document (a URL, an activity to continue) to an app:
/// the request goes into the app's `Library/OpenRequests/`, atomically but not flushed, and the
/// app's launch command runs with `%r` naming it, unless an instance of the app is running and
/// listening (``RequestListener``): then, as on iOS, the running app takes it and nothing is
/// started. One rule for ``URLOpener`` and Handoff's continuing.
///
/// Not flushed: such a request is a message, as `openURL` is on iOS; after a power loss there is
/// no sender waiting for its answer, and the two `fsync`s a durable file needs were most of the
/// time `openurl` took (6 of 9 ms here). Documents are different: ``Handlers/Delivery`` flushes
/// every copy and request.
public enum RequestLaunch {
    /// Where the request went.
    public struct Outcome: Sendable, Hashable {
        /// The request file.
        public var requestPath: String
        /// The command started; `nil` when none was (a running app took the request, the app
        /// declares no launch command, or launching was not asked for).
        public var launched: [String]?
        /// Whether a running, listening instance of the app takes the request.
        public var reachedRunningApp: Bool
    }

    /// Writes `request` into `app`'s container on `root` and, when `launch` is true and no instance
    /// of the app listens, starts its launch command (`%u` is `url`, empty for an activity).
    public static func deliver(_ request: OpenRequest, to app: AppBundle, on root: DeviceRoot, url: String, launch: Bool,
                               clock: Clock = .system) throws(URLSchemeError) -> Outcome {
        let container: AppContainer
        do {
            container = try AppContainer(bundleIdentifier: app.bundleIdentifier, on: root)
            // One stat when the container is set up, instead of creating each folder's parents.
            if !FileSystem.isDirectory(container.openRequests) { try container.create() }
        } catch { throw .app(error) }
        let requestPath: String
        do { requestPath = try request.write(into: container.openRequests, clock: clock, durable: false) } catch { throw .handler(.openRequest(error)) }
        // Asked after the request is in place: a listener that holds its mark now sees it.
        if launch && RequestListener.isListening(in: container) {
            return Outcome(requestPath: requestPath, launched: nil, reachedRunningApp: true)
        }
        guard launch, let command = app.launchCommand else { return Outcome(requestPath: requestPath, launched: nil, reachedRunningApp: false) }
        let sender = request.sourceApplication ?? ""
        let words = command.expanded(bundlePath: app.path, url: url, sourceApplication: sender, requestPath: requestPath)
        do {
            let pid = try Spawn.detached(words, adding: LaunchCommand.environment(bundleIdentifier: app.bundleIdentifier, root: root, sourceApplication: sender,
                                                                                  requestPath: requestPath, url: url.isEmpty ? nil : url))
            // Left to run; reaped when it ends (the caller may live on: a receiver, a listener).
            Spawn.reapWhenDone(pid)
        } catch { throw .system(error) }
        return Outcome(requestPath: requestPath, launched: words, reachedRunningApp: false)
    }
}
