import Dispatch
import Handoff
import Synchronization

/// Continuation streams as Swift concurrency sees them: the other app's bytes as an
/// `AsyncSequence` of chunks (``incoming``), and this side's as ``write(_:)`` and ``finish()``.
/// The sequence ends when the other side finished its stream and throws when the connection ended
/// without that (the other app or device died): never a wait on a dead peer. The blocking socket
/// work runs on two serial dispatch queues, one per direction, never on the cooperative pool.
/// The continuing app gets them from ``InterchangeApp/openStreams(for:)``, the offering one as an
/// ``ActivityEvent/streams(_:)`` of its ``CurrentActivity``.
public final class ContinuationStreams: Sendable {
    let channel: ContinuationChannel
    /// Called once by ``close()`` (the continuing side's helper is reaped there).
    private let ending: @Sendable () -> Void
    private let closed = Mutex(false)
    let reading = DispatchQueue(label: "continuation-streams.read")
    let writing = DispatchQueue(label: "continuation-streams.write")

    /// Streams over `channel`; ``close()`` closes it and calls `ending`.
    init(_ channel: ContinuationChannel, ending: @escaping @Sendable () -> Void = {}) {
        self.channel = channel
        self.ending = ending
    }

    /// What the other app writes, chunk by chunk, until it finishes.
    public var incoming: Incoming { Incoming(streams: self) }

    /// Sends `bytes` to the other app.
    public func write(_ bytes: [UInt8]) async throws(InterchangeError) {
        try await run(on: writing) { () throws(HandoffError) in try self.channel.write(.data(bytes)) }
    }

    /// Ends this side's stream: the other app's reading ends there.
    public func finish() async throws(InterchangeError) {
        try await run(on: writing) { () throws(HandoffError) in try self.channel.write(.finished) }
    }

    /// Closes both directions (after ``finish()`` and the end of ``incoming``, or to give up);
    /// once, however often it is called.
    public func close() {
        guard !closed.withLock({ was in defer { was = true }; return was }) else { return }
        channel.close()
        ending()
    }

    func run<T: Sendable>(on queue: DispatchQueue, _ body: @escaping @Sendable () throws(HandoffError) -> T) async throws(InterchangeError) -> T {
        let result: Result<T, HandoffError> = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: Result { () throws(HandoffError) -> T in try body() }) }
        }
        do { return try result.get() } catch { throw .activity(error) }
    }

    /// The other app's bytes.
    public struct Incoming: AsyncSequence, Sendable {
        public typealias Element = [UInt8]
        public typealias Failure = InterchangeError
        let streams: ContinuationStreams

        /// Reads chunk by chunk.
        public func makeAsyncIterator() -> Iterator { Iterator(streams: streams) }

        /// Reads the next chunk when asked.
        public struct Iterator: AsyncIteratorProtocol {
            public typealias Element = [UInt8]
            public typealias Failure = InterchangeError
            let streams: ContinuationStreams
            var ended = false

            /// The next chunk; `nil` once the other side finished.
            public mutating func next() async throws(InterchangeError) -> [UInt8]? {
                guard !ended else { return nil }
                let channel = streams.channel
                let frame = try await streams.run(on: streams.reading) { () throws(HandoffError) -> ContinuationFrame? in try channel.read() }
                switch frame {
                case .data(let bytes)?: return bytes
                case .finished?:
                    ended = true
                    return nil
                case nil:
                    ended = true
                    throw .activity(.streams("the other device's app or its connection ended without finishing its stream"))
                case let other?:
                    ended = true
                    throw .activity(.streams("the stream carried a \(other.kind) frame"))
                }
            }
        }
    }
}

extension InterchangeApp {
    /// Opens continuation streams to the app that offered `activity` on its device (the activity
    /// must support them), through the `nearby streams` helper. Returns once that app took them
    /// (its delegate's `userActivity(_:didReceive:outputStream:)` on iOS).
    public func openStreams(for activity: IncomingActivity) async throws(InterchangeError) -> ContinuationStreams {
        guard activity.offer.supportsContinuationStreams else {
            throw .activity(.streams("\(activity.offer.activityType) does not support continuation streams"))
        }
        let started: ContinuationHelper.Started
        do { started = try ContinuationHelper.start(for: activity, root: root.path) } catch { throw .activity(error) }
        let streams = ContinuationStreams(started.channel) { started.end() }
        do {
            try await streams.run(on: streams.reading) { () throws(HandoffError) in try started.awaitOpened() }
        } catch {
            streams.close()
            throw error
        }
        return streams
    }
}
