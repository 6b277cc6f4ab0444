import AppRegistry
import OpenRequests
import SystemCalls
import UniformTypes
import URLSchemes

/// Continues, on this device, an activity a paired device offers, as Apple does: the app here that
/// declares the activity's type in `NSUserActivityTypes` gets an activity request through the same
/// mechanism as URLs (``URLSchemes/RequestLaunch``: launched, or reached if it runs and listens);
/// with no such app and an `http`/`https` ``ActivityOffer/webpageURL``, the page opens in the
/// desktop's browser; otherwise a refusal that says why.
public struct ActivityContinuation: Sendable {
    /// What continuing did.
    public enum Outcome: Sendable, Hashable {
        /// The app got the activity request: the request file, and the command started, if any.
        case delivered(app: String, requestPath: String, launched: [String]?)
        /// A running, listening instance of the app takes the request; nothing was started.
        case deliveredToRunningApp(app: String, requestPath: String)
        /// No app here declares the type: the web page was handed to the desktop with this command.
        case openedWebpage(url: String, command: [String])
    }

    /// This device's root.
    public var root: DeviceRoot
    /// The device's registry (who declares which activity type).
    public var registry: TypeRegistry
    /// Whether to start the app's launch command (tests leave it to the request alone).
    public var launch = true
    /// Whether a web page may be handed to the desktop when no app continues the activity.
    public var webpageHandoff = true

    /// Continuing on `root`, with its `registry`.
    public init(root: DeviceRoot, registry: TypeRegistry) {
        self.root = root
        self.registry = registry
    }

    /// The apps here that can continue `offer`, the one to use first: the offering app's own
    /// bundle identifier when it is installed here and declares the type (Apple continues in the
    /// same developer's app), then the others in registration-name order.
    public func candidates(for offer: ActivityOffer) -> [AppBundle] {
        let apps = AppBundle.continuing(offer.activityType, in: registry)
        return apps.filter { $0.bundleIdentifier == offer.bundleIdentifier } + apps.filter { $0.bundleIdentifier != offer.bundleIdentifier }
    }

    /// Continues `offer`, which `device` (a paired device's name) offered; with `app`, only that
    /// app may continue it.
    public func `continue`(_ offer: ActivityOffer, from device: String, in app: String? = nil) throws(HandoffError) -> Outcome {
        let apps = candidates(for: offer)
        let chosen: AppBundle?
        if let app {
            chosen = apps.first { $0.bundleIdentifier == app }
            guard chosen != nil else {
                throw AppBundle.isRegistered(app, in: registry) ? .appDoesNotContinue(app: app, activityType: offer.activityType) : .noSuchApp(app)
            }
        } else {
            chosen = apps.first
        }
        if let chosen {
            var request = OpenRequest(continuing: offer.propertyList, from: device)
            request.sourceApplication = offer.bundleIdentifier
            request.targetApplication = chosen.bundleIdentifier
            request.time = Clock.system.now()
            let outcome: RequestLaunch.Outcome
            do { outcome = try RequestLaunch.deliver(request, to: chosen, on: root, url: "", launch: launch) } catch {
                throw .delivery("\(chosen.bundleIdentifier): \(error)")
            }
            if outcome.reachedRunningApp { return .deliveredToRunningApp(app: chosen.bundleIdentifier, requestPath: outcome.requestPath) }
            return .delivered(app: chosen.bundleIdentifier, requestPath: outcome.requestPath, launched: outcome.launched)
        }
        guard let page = offer.webpageURL, webpageHandoff else { throw .noAppContinues(activityType: offer.activityType, webpage: nil) }
        let url: SchemeURL
        do { url = try SchemeURL(page) } catch { throw .noAppContinues(activityType: offer.activityType, webpage: "\(page) is not a URL: \(error)") }
        // Apple takes only http and https web pages (NSUserActivity raises on another scheme):
        // a page from the network that names another scheme could start any local handler.
        guard ["http", "https"].contains(url.normalizedScheme) else {
            throw .noAppContinues(activityType: offer.activityType, webpage: "\(page) is not an http or https page")
        }
        do { return .openedWebpage(url: page, command: try DesktopHandoff.handOver(url)) } catch {
            throw .noAppContinues(activityType: offer.activityType, webpage: "opening \(page) failed: \(error)")
        }
    }
}
