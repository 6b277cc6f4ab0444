import AppRegistry
import SystemCalls
import URLSchemes

/// The requests that reach a running app, as an `AsyncSequence` (``InterchangeApp/requests(senders:)``):
///
/// ```swift
/// for try await request in app.requests() {
///     switch request {
///     case .url(let incoming): handle(incoming.url, from: incoming.sourceApplication)
///     case .document(let document): open(document.path)
///     case .activity(let activity): resume(activity.offer.userInfo)
///     }
/// }
/// ```
///
/// URL requests and activities to continue (Handoff) are claimed from `Library/OpenRequests/` (another instance of the app never gets
/// the same one); documents are moved out of the Inbox by the app's receiver. inotify on both
/// folders says when to look: between looks the iterator waits for it on a thread of its own
/// (1 ms after activity, doubling to 100 ms when idle, so cancellation is seen within 100 ms),
/// and looks at both folders every second whatever inotify said. It ends when its task is
/// cancelled.
///
/// From its first `next()` until it is released, the iterator marks the app as listening
/// (``URLSchemes/RequestListener``): `openurl` and ``InterchangeApp/open(_:)`` then hand URLs to
/// this running instance instead of starting the app again, as iOS does.
public struct IncomingRequests: AsyncSequence, Sendable {
    public typealias Element = IncomingRequest
    public typealias Failure = InterchangeError

    let app: InterchangeApp
    let senders: SenderAllowList

    /// An iterator that watches the app's folders from its first `next()`.
    public func makeAsyncIterator() -> Iterator { Iterator(app: app, senders: senders) }

    /// Reads the requests one at a time.
    public struct Iterator: AsyncIteratorProtocol {
        public typealias Element = IncomingRequest
        public typealias Failure = InterchangeError

        let app: InterchangeApp
        let senders: SenderAllowList
        var buffer: [IncomingRequest] = []
        var inotify: Inotify?
        /// The listening mark, held while the iterator lives.
        var listening: OwnedDescriptor?
        var requestWatch: Int32 = -1, inboxWatch: Int32 = -1
        var lastLook = -Double.infinity
        var pause = 1

        init(app: InterchangeApp, senders: SenderAllowList) {
            self.app = app
            self.senders = senders
        }

        /// The next request; `nil` once the task is cancelled.
        public mutating func next() async throws(InterchangeError) -> IncomingRequest? {
            if inotify == nil, let watcher = try? Inotify() {
                // A folder that cannot be watched is still looked at every second.
                requestWatch = (try? watcher.watch(app.container.openRequests, for: [.movedIn, .closedAfterWriting])) ?? -1
                inboxWatch = (try? watcher.watch(app.container.inbox, for: [.movedIn, .closedAfterWriting])) ?? -1
                inotify = watcher
                // Marked after the watches exist, so every request an opener did not launch for
                // wakes this iterator; the first look below finds any written before.
                listening = try? RequestListener.listen(in: app.container)
            }
            while true {
                if !buffer.isEmpty { return buffer.removeFirst() }
                if Task.isCancelled { return nil }
                let events = (try? inotify?.pendingEvents()) ?? []
                let now = Clock.monotonic()
                let everything = now - lastLook >= 1
                if everything { lastLook = now }
                if everything || events.contains(where: { $0.watch == requestWatch }) {
                    buffer += try app.pendingRequests()
                }
                if everything || events.contains(where: { $0.watch == inboxWatch }) {
                    buffer += try app.receiveDocuments(senders: senders).map { .document($0) }
                }
                if !buffer.isEmpty || !events.isEmpty {
                    pause = 1
                    continue
                }
                if let inotify {
                    await Self.waitForEvents(on: inotify, seconds: Double(pause) / 1000)
                } else {
                    try? await Task.sleep(for: .milliseconds(pause))
                }
                pause = Swift.min(pause * 2, 100)
            }
        }

        /// Waits until `inotify` has events or `seconds` pass, on a thread of its own: a wait
        /// that returns when a request arrives (sleeping for the pause instead left a running
        /// app up to 100 ms behind the request), without holding one of Swift concurrency's few
        /// shared threads in `poll`.
        static func waitForEvents(on inotify: Inotify, seconds: Double) async {
            let waited = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                do {
                    try BackgroundThread.start {
                        _ = try? Poll.readable([inotify.descriptor], timeout: seconds)
                        continuation.resume(returning: true)
                    }
                } catch {
                    continuation.resume(returning: false)
                }
            }
            if !waited { try? await Task.sleep(for: .seconds(seconds)) }
        }
    }
}
