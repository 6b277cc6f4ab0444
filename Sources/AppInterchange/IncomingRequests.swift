import AppRegistry
import SystemCalls

/// The requests that reach a running app, as an `AsyncSequence` (``InterchangeApp/requests(senders:)``):
///
/// ```swift
/// for try await request in app.requests() {
///     switch request {
///     case .url(let incoming): handle(incoming.url, from: incoming.sourceApplication)
///     case .document(let document): open(document.path)
///     }
/// }
/// ```
///
/// URL requests are claimed from `Library/OpenRequests/` (another instance of the app never gets
/// the same one); documents are moved out of the Inbox by the app's receiver. inotify on both
/// folders says when to look; the iterator sleeps between looks (1 ms after activity, doubling
/// to 100 ms when idle), and looks at both folders every second whatever inotify said. It ends
/// when its task is cancelled.
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
            }
            while true {
                if !buffer.isEmpty { return buffer.removeFirst() }
                if Task.isCancelled { return nil }
                let events = (try? inotify?.pendingEvents()) ?? []
                let now = Clock.monotonic()
                let everything = now - lastLook >= 1
                if everything { lastLook = now }
                if everything || events.contains(where: { $0.watch == requestWatch }) {
                    buffer += try app.pendingURLs().map { .url($0) }
                }
                if everything || events.contains(where: { $0.watch == inboxWatch }) {
                    buffer += try app.receiveDocuments(senders: senders).map { .document($0) }
                }
                if !buffer.isEmpty || !events.isEmpty {
                    pause = 1
                    continue
                }
                try? await Task.sleep(for: .milliseconds(pause))
                pause = Swift.min(pause * 2, 100)
            }
        }
    }
}
