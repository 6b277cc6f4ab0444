import AppInterchange
import Foundation
import Handoff
import PropertyLists
import SystemCalls

/// Foundation's user activity, for Handoff. `becomeCurrent()` offers it on the app's device root
/// (``CurrentActivities``: one offer per app process, the newest current one the device's), with
/// its `userInfo` checked to be a property list and bounded (``UserInfoSize``); `resignCurrent()`,
/// `invalidate()` and the process's end withdraw it. The device's receiver (`nearby receive`)
/// shows the offer to paired devices; when one continues it, the delegate is told
/// (`userActivityWasContinued(_:)`), and when the continuing app opens streams
/// (`getContinuationStreams`), the delegate gets them (`userActivity(_:didReceive:outputStream:)`),
/// both on a thread of their own, through the process's ``ContinuationEndpoint`` (docs/handoff.md).
open class NSUserActivity: @unchecked Sendable {
    /// The activity's type (a reverse-DNS name the app declares in `NSUserActivityTypes`).
    public let activityType: String
    /// A title for the user.
    open var title: String?
    /// The state another device needs to continue.
    open var userInfo: [AnyHashable: Any]?
    /// A web page that shows the same thing, for devices without the app.
    open var webpageURL: URL?
    /// Whether the activity may be continued on another device: when false, `becomeCurrent()`
    /// offers nothing (and withdraws this app's previous offer).
    open var isEligibleForHandoff = true
    /// The keys of ``userInfo`` that are the least another device needs (Apple's; kept for code
    /// that sets it: the whole `userInfo` is offered, as Handoff sends it).
    open var requiredUserInfoKeys: Set<String>?
    /// Whether the continuing device may open streams back to this one.
    open var supportsContinuationStreams = false
    /// Whether ``userInfo`` should be refreshed through the delegate before it is sent; set while
    /// the activity is current, the offer is brought up to date at once.
    open var needsSave = false {
        didSet { if needsSave, isCurrent { offer() } }
    }
    /// Told when the activity is continued or needs saving.
    open weak var delegate: (any NSUserActivityDelegate)?
    /// Whether it is the current activity (offered).
    public var isCurrent: Bool { handle.map(ProcessOffers.isCurrent) ?? false }
    /// Why the last `becomeCurrent()` offered nothing (not Apple's): `userInfo` not a property
    /// list or over ``UserInfoSize/limit``, no app identity, the device root not writable.
    public private(set) var lastError: (any Error)?
    private var invalidated = false
    /// Its last offer (``ProcessOffers``: one current activity per app, shared with AppInterchange's).
    private var handle: ProcessOffers.Handle?
    /// For an activity continued here: where it came from (the streams go back there).
    let continuation: IncomingActivity?

    /// An activity of `activityType`.
    public init(activityType: String) {
        self.activityType = activityType
        continuation = nil
    }

    /// The activity a paired device offered, as the continuing app gets it: its type, title,
    /// `userInfo` (Foundation values), web page and whether it supports continuation streams.
    init(continuing incoming: IncomingActivity) {
        let offer = incoming.offer
        activityType = offer.activityType
        title = offer.title
        userInfo = FoundationValue.object(offer.userInfo) as? [AnyHashable: Any]
        webpageURL = offer.webpageURL.flatMap(URL.init(string:))
        supportsContinuationStreams = offer.supportsContinuationStreams
        continuation = incoming
    }

    /// An activity of the first type the app declares in `NSUserActivityTypes` (deprecated by
    /// Apple, kept for old code); an empty type when it declares none.
    public convenience init() {
        self.init(activityType: (try? CurrentApp.app.get())?.bundle.activityTypes.first ?? "")
    }

    /// Adds entries to ``userInfo``.
    open func addUserInfoEntries(from otherDictionary: [AnyHashable: Any]) {
        var info = userInfo ?? [:]
        for (key, value) in otherDictionary { info[key] = value }
        userInfo = info
    }

    /// Makes it the current activity, in place of this app's previous one, and offers it.
    open func becomeCurrent() {
        guard !invalidated else { return }
        offer()
    }

    /// Stops it being the current activity and withdraws its offer.
    open func resignCurrent() {
        if let handle { ProcessOffers.resign(handle) }
    }

    /// Ends it: withdrawn, and never current again.
    open func invalidate() {
        resignCurrent()
        invalidated = true
    }

    /// Streams to the app that offered this activity on the device it came from (for an
    /// activity continued here whose ``supportsContinuationStreams`` is true): the handler gets
    /// them once that app took them (its delegate's `userActivity(_:didReceive:outputStream:)`),
    /// or an error saying why not, on a thread of its own (`@Sendable`, as Apple's SDK declares it). The streams travel through a helper,
    /// `nearby streams`, over the pinned connection to the paired device.
    open func getContinuationStreams(completionHandler: @escaping @Sendable (InputStream?, OutputStream?, (any Error)?) -> Void) {
        func fail(_ reason: String) {
            completionHandler(nil, nil, NSError(domain: NSCocoaErrorDomain, code: 4609, userInfo: [NSLocalizedDescriptionKey: reason]))
        }
        guard let continuation else { return fail("\(activityType) was not continued from another device: there is nothing to stream to") }
        guard supportsContinuationStreams else { return fail("\(activityType) does not support continuation streams") }
        let started: ContinuationHelper.Started
        do { started = try ContinuationHelper.start(for: continuation, root: try CurrentApp.app.get().root.path) } catch { return fail("\(error)") }
        let handler = completionHandler
        do {
            try BackgroundThread.start {
                do {
                    try started.awaitOpened()
                    let (input, output) = ContinuationStreamPair(started.channel) { started.end() }.streams()
                    handler(input, output, nil)
                } catch {
                    started.end()
                    handler(nil, nil, NSError(domain: NSCocoaErrorDomain, code: 4609, userInfo: [NSLocalizedDescriptionKey: "\(error)"]))
                }
            }
        } catch { fail("\(error)") }
    }

    /// ``getContinuationStreams(completionHandler:)`` for Swift concurrency, as Apple's SDK names it.
    open func continuationStreams() async throws -> (InputStream, OutputStream) {
        /// The streams, handed from the handler's thread to the awaiting task as the
        /// continuation's value (Foundation's streams are not Sendable; each is used by one side
        /// at a time), not through a box the handler fills.
        struct Handed: @unchecked Sendable { let input: InputStream, output: OutputStream }
        let handed = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Handed, any Error>) in
            getContinuationStreams { input, output, error in
                guard let input, let output else {
                    return continuation.resume(throwing: error ?? NSError(domain: NSCocoaErrorDomain, code: 4609))
                }
                continuation.resume(returning: Handed(input: input, output: output))
            }
        }
        return (handed.input, handed.output)
    }

    /// What reached this process for this activity while current (``ProcessOffers``), told to
    /// the delegate; streams nobody takes are closed, so the other side reads the end at once.
    private func receive(_ request: ContinuationEndpoint.Request) {
        switch request {
        case .continued:
            delegate?.userActivityWasContinued(self)
        case .streams(_, let channel):
            guard supportsContinuationStreams, let delegate else { return channel.close() }
            let (input, output) = ContinuationStreamPair(channel).streams()
            delegate.userActivity(self, didReceive: input, outputStream: output)
        }
    }

    private func offer() {
        let app: InterchangeApp
        do { app = try CurrentApp.app.get() } catch {
            lastError = error
            return Self.warn("\(activityType) was not made current: \(error)")
        }
        let board = CurrentActivities(root: app.root.path)
        guard isEligibleForHandoff else { return ProcessOffers.resignAll(app.bundleIdentifier, on: board) }
        if needsSave {
            delegate?.userActivityWillSave(self)
            needsSave = false
        }
        do {
            let info: PropertyList
            switch FoundationValue.exactPropertyList(userInfo ?? [:], path: "userInfo") {
            case .success(let value): info = value
            case .failure(let error): throw HandoffError.notAPropertyList(error.description)
            }
            let offer = ActivityOffer(activityType: activityType, bundleIdentifier: app.bundleIdentifier, title: title, userInfo: info,
                                      webpageURL: webpageURL?.absoluteString, supportsContinuationStreams: supportsContinuationStreams,
                                      processIdentifier: ProcessInfo.processInfo.processIdentifier)
            let (handle, warnings) = try ProcessOffers.makeCurrent(offer, on: board, declaredTypes: app.bundle.activityTypes) { [self] in receive($0) }
            self.handle = handle
            warnings.forEach(Self.warn)
            lastError = nil
        } catch {
            lastError = error
            Self.warn("\(activityType) was not made current: \(error)")
        }
    }

    /// What Apple logs to the console, on standard error.
    private static func warn(_ message: String) {
        FileHandle.standardError.write(Data("NSUserActivity: \(message)\n".utf8))
    }
}

/// Told about a user activity's life (Foundation's protocol).
public protocol NSUserActivityDelegate: AnyObject {
    /// ``NSUserActivity/userInfo`` is about to be sent: bring it up to date.
    func userActivityWillSave(_ userActivity: NSUserActivity)
    /// The activity was continued on another device.
    func userActivityWasContinued(_ userActivity: NSUserActivity)
    /// The continuing device opened streams back to this one.
    func userActivity(_ userActivity: NSUserActivity, didReceive inputStream: InputStream, outputStream: OutputStream)
}

extension NSUserActivityDelegate {
    /// Foundation's default: nothing to save.
    public func userActivityWillSave(_ userActivity: NSUserActivity) {}
    /// Foundation's default: nothing to do.
    public func userActivityWasContinued(_ userActivity: NSUserActivity) {}
    /// Foundation's default: the streams are not used.
    public func userActivity(_ userActivity: NSUserActivity, didReceive inputStream: InputStream, outputStream: OutputStream) {}
}
