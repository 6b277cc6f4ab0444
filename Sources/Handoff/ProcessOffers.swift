import Synchronization

/// This process's current activities: one per app and device root, as iOS keeps one current
/// activity per app, whichever API made it current (InterchangeKit's `NSUserActivity`,
/// AppInterchange's `becomeCurrent`). Each is published on its device's ``CurrentActivities``, and
/// the process listens on one ``ContinuationEndpoint`` per device root, made with its first offer
/// there, which hands each request to the handler of the offer it names.
///
/// One place for the rule, so that the two APIs of one app cannot both be current, and a request
/// for an activity no longer current is refused the same way for both.
public enum ProcessOffers {
    /// One activity made current: which device, which app, and when (``ActivityOffer/madeCurrent``).
    public struct Handle: Sendable, Hashable {
        /// The device's offers folder (``CurrentActivities/folder``).
        public var folder: String
        /// The offering app.
        public var bundleIdentifier: String
        /// When it was made current.
        public var madeCurrent: Double
    }

    /// A current activity of this process: its publication and who takes its requests.
    struct Current {
        var publication: Publication
        var madeCurrent: Double
        var handler: @Sendable (ContinuationEndpoint.Request) -> Void
    }

    /// Keyed by folder, then bundle identifier.
    private static let current = Mutex<[String: [String: Current]]>([:])
    /// One per folder, made with the first offer there; kept for the process's life.
    private static let endpoints = Mutex<[String: ContinuationEndpoint]>([:])

    /// Makes `offer` its app's current activity on `board`'s device, in place of that app's
    /// previous one, after checking its `userInfo` (``UserInfoSize``). Requests for it (continued,
    /// streams) go to `handler`, on a thread of their own.
    /// - Returns: its handle, and the warnings (over Apple's size guidance; a type `declaredTypes`
    ///   does not hold, which no device can continue).
    /// - Throws: ``HandoffError/tooLarge(_:)``; ``HandoffError/system(_:)`` when it cannot be
    ///   published or listened for.
    public static func makeCurrent(_ offer: ActivityOffer, on board: CurrentActivities, declaredTypes: [String],
                                   handler: @escaping @Sendable (ContinuationEndpoint.Request) -> Void) throws(HandoffError) -> (Handle, warnings: [String]) {
        var warnings: [String] = []
        let size = UserInfoSize.size(of: offer.userInfo)
        switch UserInfoSize.verdict(size) {
        case .refused: throw .tooLarge(size)
        case .large: warnings.append("the userInfo of \(offer.activityType) is \(size) bytes; Apple advises at most \(UserInfoSize.advised) (send more over continuation streams)")
        case .fine: break
        }
        if !declaredTypes.contains(offer.activityType) {
            warnings.append("\(offer.activityType) is not in \(offer.bundleIdentifier)'s NSUserActivityTypes: no device can continue it")
        }
        // Reachable before it is offered: a device may continue it as soon as it sees it.
        try endpoints.withLock { endpoints throws(HandoffError) in
            if endpoints[board.folder] == nil {
                endpoints[board.folder] = try ContinuationEndpoint(board: board, processIdentifier: offer.processIdentifier) { request in
                    dispatch(request, folder: board.folder)
                }
            }
        }
        try current.withLock { current throws(HandoffError) in
            let previous = current[board.folder]?[offer.bundleIdentifier]
            let publication = try board.publish(offer, replacing: previous?.publication)
            current[board.folder, default: [:]][offer.bundleIdentifier] = Current(publication: publication, madeCurrent: offer.madeCurrent, handler: handler)
        }
        return (Handle(folder: board.folder, bundleIdentifier: offer.bundleIdentifier, madeCurrent: offer.madeCurrent), warnings)
    }

    /// Whether the activity of `handle` is still its app's current one.
    public static func isCurrent(_ handle: Handle) -> Bool {
        current.withLock { $0[handle.folder]?[handle.bundleIdentifier]?.madeCurrent == handle.madeCurrent }
    }

    /// Withdraws the activity of `handle`, if it is still current (a newer one of its app stays).
    public static func resign(_ handle: Handle) {
        current.withLock { current in
            guard let standing = current[handle.folder]?[handle.bundleIdentifier], standing.madeCurrent == handle.madeCurrent else { return }
            standing.publication.withdraw()
            current[handle.folder]?[handle.bundleIdentifier] = nil
        }
    }

    /// Withdraws whatever `bundleIdentifier` offers on `board`'s device from this process (an
    /// activity not eligible for Handoff made current: nothing of the app is offered).
    public static func resignAll(_ bundleIdentifier: String, on board: CurrentActivities) {
        current.withLock { current in
            current[board.folder]?[bundleIdentifier]?.publication.withdraw()
            current[board.folder]?[bundleIdentifier] = nil
        }
    }

    /// Hands `request` to the current activity it names; one no longer current is refused (its
    /// streams closed, so the other side reads the end at once).
    static func dispatch(_ request: ContinuationEndpoint.Request, folder: String) {
        let time: Double
        switch request {
        case .continued(let made): time = made
        case .streams(let made, _): time = made
        }
        let handler = current.withLock { current in current[folder]?.values.first { $0.madeCurrent == time }?.handler }
        guard let handler else {
            if case .streams(_, let channel) = request { channel.close() }
            return
        }
        handler(request)
    }
}
