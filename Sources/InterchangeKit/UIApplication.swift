import AppInterchange
import Dispatch
import Foundation
import URLSchemes

/// UIKit's application object for URL schemes: asking whether a URL can be opened, opening it
/// (an open request into the handling app's container, then its launch command), and handing
/// the URLs that reach this app to its delegate with the sender and the annotation.
///
/// iOS calls the delegate by itself; on Linux the app starts that with
/// ``UIApplicationMain(_:)`` (what `@main` does on iOS): the launch URL first, then every URL
/// waiting, then the ones that arrive while it runs.
///
/// On the main actor as UIKit's is, and `@preconcurrency` as the SDK's imported declarations
/// are: a Swift 5 program may call it from top-level code or a plain function, as it does on
/// iOS, while a Swift 6 program is checked.
@preconcurrency @MainActor
public final class UIApplication {
    /// The one application object.
    public static let shared = UIApplication()

    /// Receives the URLs (and, with Handoff, the activities) that reach the app.
    public var delegate: (any UIApplicationDelegate)?

    /// Keys of the options ``UIApplicationDelegate/application(_:open:options:)`` gets.
    public struct OpenURLOptionsKey: RawRepresentable, Hashable, Sendable {
        /// The key.
        public var rawValue: String
        /// A key.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// `String`: the sender's bundle identifier.
        public static let sourceApplication = OpenURLOptionsKey(rawValue: "UIApplicationOpenURLOptionsSourceApplicationKey")
        /// The property list the sender attached (`String`, `[String: Any]`, …).
        public static let annotation = OpenURLOptionsKey(rawValue: "UIApplicationOpenURLOptionsAnnotationKey")
        /// `Bool`: a document to open in place (documents come through the Inbox here: always false).
        public static let openInPlace = OpenURLOptionsKey(rawValue: "UIApplicationOpenURLOptionsOpenInPlaceKey")
    }

    /// Keys of the options ``open(_:options:completionHandler:)`` takes.
    public struct OpenExternalURLOptionsKey: RawRepresentable, Hashable, Sendable {
        /// The key.
        public var rawValue: String
        /// A key.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// `Bool`: open only a universal link (there are none here: the open fails).
        public static let universalLinksOnly = OpenExternalURLOptionsKey(rawValue: "UIApplicationOpenURLOptionUniversalLinksOnly")
    }

    /// Keys of the launch options ``UIApplicationDelegate/application(_:didFinishLaunchingWithOptions:)`` gets.
    public struct LaunchOptionsKey: RawRepresentable, Hashable, Sendable {
        /// The key.
        public var rawValue: String
        /// A key.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// `URL`: the URL the app was started to open.
        public static let url = LaunchOptionsKey(rawValue: "UIApplicationLaunchOptionsURLKey")
        /// `String`: who sent it.
        public static let sourceApplication = LaunchOptionsKey(rawValue: "UIApplicationLaunchOptionsSourceApplicationKey")
        /// Its annotation.
        public static let annotation = LaunchOptionsKey(rawValue: "UIApplicationLaunchOptionsAnnotationKey")
        /// `[String: Any]` holding ``userActivityType``'s value: the app was started to continue
        /// an activity (Handoff), which then reaches ``UIApplicationDelegate/application(_:continue:restorationHandler:)``.
        public static let userActivityDictionary = LaunchOptionsKey(rawValue: "UIApplicationLaunchOptionsUserActivityDictionaryKey")
        /// `String`: the type of the activity the app was started to continue.
        public static let userActivityType = LaunchOptionsKey(rawValue: "UIApplicationLaunchOptionsUserActivityTypeKey")
    }

    /// Why the last ``open(_:options:completionHandler:)`` or delivery failed (not Apple's).
    public private(set) var lastError: (any Error)?

    /// Hands requests to the delegate as they arrive, while the app runs (``UIApplicationMain(_:)``).
    private var listener: Task<Void, Never>?

    init() {}

    /// Whether a registered app handles `url`'s scheme and this app declared the scheme in its
    /// `LSApplicationQueriesSchemes` (the first 50 entries count), as on iOS 9 and later.
    public func canOpenURL(_ url: URL) -> Bool {
        guard let app = try? CurrentApp.app.get() else { return false }
        return app.canOpen(url.absoluteString)
    }

    /// Opens `url` with the app that handles its scheme (or hands it to the desktop), then calls
    /// `completionHandler` on the main queue with whether it was opened.
    public func open(_ url: URL, options: [OpenExternalURLOptionsKey: Any] = [:],
                     completionHandler: (@MainActor @Sendable (Bool) -> Void)? = nil) {
        var opened = false
        if options[.universalLinksOnly] as? Bool != true {
            do {
                let app = try CurrentApp.app.get()
                try app.open(url.absoluteString)
                opened = true
                lastError = nil
            } catch {
                lastError = error
            }
        }
        guard let completionHandler else { return }
        let result = opened
        DispatchQueue.main.async { completionHandler(result) }
    }

    /// Hands every URL waiting for this app to the delegate, oldest first; returns how many.
    @discardableResult
    public func deliverPendingURLs() -> Int {
        guard let app = try? CurrentApp.app.get() else { return 0 }
        let waiting: [IncomingURL]
        do { waiting = try app.pendingURLs() } catch { lastError = error; return 0 }
        for incoming in waiting { deliver(incoming) }
        return waiting.count
    }

    /// Hands every activity waiting to be continued to `receiver`, oldest first.
    private func deliverPendingActivities(to receiver: any UIApplicationDelegate) {
        guard let app = try? CurrentApp.app.get() else { return }
        do {
            for case .activity(let incoming) in try app.pendingRequests() { deliver(incoming, to: receiver) }
        } catch { lastError = error }
    }

    func deliver(_ incoming: IncomingURL, to receiver: (any UIApplicationDelegate)? = nil) {
        guard let url = URL(string: incoming.url.description) else { return }
        open(url, sender: incoming.sourceApplication, annotation: incoming.annotation.map(FoundationValue.object), to: receiver ?? delegate)
    }

    /// A document another app handed over (moved from the Inbox into `Documents/` by the app's
    /// receiver), as iOS gives it: a file URL, with the sender and the annotation.
    func deliver(_ document: IncomingDocument, to receiver: (any UIApplicationDelegate)?) {
        open(URL(fileURLWithPath: document.path), sender: document.sourceApplication, annotation: document.annotation.map(FoundationValue.object),
             to: receiver)
    }

    /// An activity a paired device offered, continued here (Handoff), as iOS hands it over:
    /// `application(_:willContinueUserActivityWithType:)` (whose answer only says who tells the
    /// user), then `application(_:continue:restorationHandler:)` with the activity, whose handler
    /// restores the objects it is given. Not continued (false), it is told to the delegate's
    /// `application(_:didFailToContinueUserActivityWithType:error:)`.
    func deliver(_ incoming: IncomingActivity, to receiver: (any UIApplicationDelegate)?) {
        guard let receiver else { return }
        let activity = NSUserActivity(continuing: incoming)
        _ = receiver.application(self, willContinueUserActivityWithType: activity.activityType)
        let continued = receiver.application(self, continue: activity) { restoring in
            MainActor.assumeIsolated {
                for object in restoring ?? [] { object.restoreUserActivityState(activity) }
            }
        }
        if !continued {
            let error = NSError(domain: NSCocoaErrorDomain, code: 4608, userInfo: [NSLocalizedDescriptionKey: "the app did not continue \(activity.activityType)"])
            receiver.application(self, didFailToContinueUserActivityWithType: activity.activityType, error: error)
        }
    }

    private func open(_ url: URL, sender: String?, annotation: Any?, to receiver: (any UIApplicationDelegate)?) {
        var options: [OpenURLOptionsKey: Any] = [.openInPlace: false]
        if let sender { options[.sourceApplication] = sender }
        if let annotation { options[.annotation] = annotation }
        _ = receiver?.application(self, open: url, options: options)
    }

    /// From now on, the app's requests (URLs and documents) reach `receiver` as they arrive, as
    /// they reach a running iOS app; the app is marked as listening, so that openers hand URLs
    /// to this process instead of starting the app again.
    func listen(as app: InterchangeApp, for receiver: any UIApplicationDelegate) {
        listener?.cancel()
        listener = Task { @MainActor [weak self] in
            do {
                for try await request in app.requests() {
                    switch request {
                    case .url(let incoming): self?.deliver(incoming, to: receiver)
                    case .document(let document): self?.deliver(document, to: receiver)
                    case .activity(let activity): self?.deliver(activity, to: receiver)
                    }
                }
            } catch {
                self?.lastError = error
            }
        }
    }

    /// Starts the app as iOS does: `didFinishLaunchingWithOptions` with the URL it was started
    /// for, that URL to `application(_:open:options:)` when the delegate returned true, then
    /// the URLs already waiting.
    func launch(with delegate: any UIApplicationDelegate) {
        self.delegate = delegate
        var launchURL: IncomingURL?, launchActivity: IncomingActivity?
        switch try? CurrentApp.app.get().launchRequest() {
        case .url(let incoming)?: launchURL = incoming
        case .activity(let incoming)?: launchActivity = incoming
        default: break
        }
        var options: [LaunchOptionsKey: Any]?
        if let launchURL, let url = URL(string: launchURL.url.description) {
            options = [.url: url]
            if let sender = launchURL.sourceApplication { options?[.sourceApplication] = sender }
            if let annotation = launchURL.annotation { options?[.annotation] = FoundationValue.object(annotation) }
        }
        if let launchActivity {
            let type = launchActivity.offer.activityType
            options = [.userActivityDictionary: [LaunchOptionsKey.userActivityType.rawValue: type] as [String: Any], .userActivityType: type]
        }
        let proceed = delegate.application(self, didFinishLaunchingWithOptions: options)
        if proceed, let launchURL { deliver(launchURL) }
        // iOS continues the activity whatever didFinishLaunching returned.
        if let launchActivity { deliver(launchActivity, to: delegate) }
        deliverPendingURLs()
        deliverPendingActivities(to: delegate)
        if let app = try? CurrentApp.app.get() { listen(as: app, for: delegate) }
    }
}

/// Starts the app with `delegate` (UIKit's `UIApplicationMain`, which `@main` calls on iOS):
/// the launch options, the launch URL, then the URLs waiting; from then on, while the process
/// runs its main queue, each URL or document that arrives (``UIApplicationDelegate/application(_:open:options:)``).
/// Unlike UIKit's it returns, so that a command-line program can finish.
@preconcurrency @MainActor
public func UIApplicationMain(_ delegate: any UIApplicationDelegate) {
    UIApplication.shared.launch(with: delegate)
}
