import Handoff
import PropertyLists
import SystemCalls

/// What the user is doing in the app, as it offers it for Handoff (`NSUserActivity`'s fields).
public struct UserActivity: Sendable, Equatable {
    /// The activity's type, one the app declares in `NSUserActivityTypes`.
    public var activityType: String
    /// A title for the user.
    public var title: String?
    /// The state another device needs: a property-list dictionary of at most 64 KiB as a binary
    /// property list (`UserInfoSize.limit`; Apple advises 3 KB).
    public var userInfo: [String: PropertyList]
    /// A web page showing the same, for a device without the app (`http` or `https`).
    public var webpageURL: String?
    /// Whether the continuing app may open streams back to this one.
    public var supportsContinuationStreams: Bool

    /// An activity of `activityType`.
    public init(activityType: String, title: String? = nil, userInfo: [String: PropertyList] = [:], webpageURL: String? = nil,
                supportsContinuationStreams: Bool = false) {
        self.activityType = activityType
        self.title = title
        self.userInfo = userInfo
        self.webpageURL = webpageURL
        self.supportsContinuationStreams = supportsContinuationStreams
    }
}

/// What reaches the app about its current activity.
public enum ActivityEvent: Sendable {
    /// A paired device continued it (`userActivityWasContinued(_:)` on iOS).
    case continued
    /// The continuing app opened streams to this one (`userActivity(_:didReceive:outputStream:)`):
    /// read ``ContinuationStreams/incoming``, write, ``ContinuationStreams/finish()``, then
    /// ``ContinuationStreams/close()``.
    case streams(ContinuationStreams)
}

/// An activity the app made current (``InterchangeApp/becomeCurrent(_:)``): offered to the
/// device's paired devices until ``resignCurrent()``, until the app makes another current, or
/// until the process ends. What reaches it comes as ``events``.
///
/// ```swift
/// let current = try app.becomeCurrent(UserActivity(activityType: "com.example.contacts.list",
///                                                   supportsContinuationStreams: true))
/// for await event in current.events {
///     if case .streams(let streams) = event { try await streams.write(list); try await streams.finish() … }
/// }
/// ```
public final class CurrentActivity: Sendable {
    /// The offer as paired devices see it.
    public let offer: ActivityOffer
    /// What was offered with a warning: `userInfo` over Apple's 3 KB guidance, a type the app
    /// does not declare (no device can continue it).
    public let warnings: [String]
    /// Continued, and streams opened, in the order they came. Streams come only when the
    /// activity supports them; while nobody iterates, they wait here.
    public let events: AsyncStream<ActivityEvent>
    let handle: ProcessOffers.Handle

    init(offer: ActivityOffer, warnings: [String], events: AsyncStream<ActivityEvent>, handle: ProcessOffers.Handle) {
        self.offer = offer
        self.warnings = warnings
        self.events = events
        self.handle = handle
    }

    /// Whether it is still the app's current activity.
    public var isCurrent: Bool { ProcessOffers.isCurrent(handle) }

    /// Withdraws it (nothing when the app made another current since).
    public func resignCurrent() { ProcessOffers.resign(handle) }
}

extension InterchangeApp {
    /// Makes `activity` the app's current one, in place of its previous one (whether made here
    /// or with InterchangeKit's `NSUserActivity`: one per app, as on iOS), and offers it to the
    /// device's paired devices (through `nearby receive`).
    /// - Throws: ``InterchangeError/activity(_:)``: `userInfo` over the limit (with its size), or
    ///   the offer could not be kept or listened for.
    public func becomeCurrent(_ activity: UserActivity) throws(InterchangeError) -> CurrentActivity {
        let offer = ActivityOffer(activityType: activity.activityType, bundleIdentifier: bundleIdentifier, title: activity.title,
                                  userInfo: .dictionary(.init(uniqueKeysWithValues: activity.userInfo.sorted { $0.key < $1.key })),
                                  webpageURL: activity.webpageURL, supportsContinuationStreams: activity.supportsContinuationStreams,
                                  processIdentifier: CurrentProcess.id)
        let (events, sink) = AsyncStream<ActivityEvent>.makeStream()
        let streams = activity.supportsContinuationStreams
        do {
            let (handle, warnings) = try ProcessOffers.makeCurrent(offer, on: CurrentActivities(root: root.path), declaredTypes: bundle.activityTypes) { request in
                switch request {
                case .continued:
                    sink.yield(.continued)
                case .streams(_, let channel):
                    // Streams the app never asked to support, or that arrive after it stopped
                    // listening, end at once on the other side.
                    guard streams, case .enqueued = sink.yield(.streams(ContinuationStreams(channel))) else { return channel.close() }
                }
            }
            return CurrentActivity(offer: offer, warnings: warnings, events: events, handle: handle)
        } catch { throw .activity(error) }
    }
}
