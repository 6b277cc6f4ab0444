import Foundation
import Handoff
import Synchronization

/// The input half of a continuation stream (Foundation's `InputStream`): what the other device's
/// app writes, read from a ``Handoff/ContinuationChannel`` by a thread of its own from `open()`,
/// one frame ahead. `read` waits until bytes come; it returns 0 once the other side closed its
/// output stream, and -1 with ``streamError`` set when the connection ended without that (the other
/// app or device died): never a hang on a dead peer.
///
/// Scheduled in a run loop (`schedule(in:forMode:)`, as the seed's code does), the delegate gets
/// `.openCompleted`, `.hasBytesAvailable` whenever a frame's bytes wait, then `.endEncountered` or
/// `.errorOccurred`, through that run loop.
final class ContinuationInputStream: InputStream {
    private let channel: ContinuationChannel
    private let shared: ContinuationStreamPair
    private let events = StreamEvents()
    /// The reader thread's state, shared with `read`: the bytes of the last frame not yet read,
    /// whether the other side finished, why it failed.
    private let condition = NSCondition()
    private var pending: [UInt8] = []
    private var finished = false
    private var failure: String?
    private var status: Stream.Status = .notOpen

    init(_ channel: ContinuationChannel, pair: ContinuationStreamPair) {
        self.channel = channel
        shared = pair
        super.init(data: Data())
    }

    override var delegate: (any StreamDelegate)? {
        get { events.delegate }
        set { events.delegate = newValue }
    }
    override func schedule(in aRunLoop: RunLoop, forMode mode: RunLoop.Mode) { events.schedule(aRunLoop, mode) }
    override func remove(from aRunLoop: RunLoop, forMode mode: RunLoop.Mode) { events.remove(aRunLoop, mode) }

    override func open() {
        condition.lock()
        guard status == .notOpen else { return condition.unlock() }
        status = .open
        condition.unlock()
        events.post(.openCompleted, from: self)
        // The stream is used from the reader thread and the app's; its shared state is behind
        // `condition`.
        nonisolated(unsafe) let stream = self
        Thread { stream.pump() }.start()
    }

    override func close() {
        condition.lock()
        status = .closed
        condition.broadcast()
        condition.unlock()
        shared.closed(input: true)
    }

    override var streamStatus: Stream.Status { condition.withLock { status } }
    override var streamError: (any Error)? {
        condition.withLock { failure }.map { NSError(domain: NSPOSIXErrorDomain, code: Int(ECONNRESET), userInfo: [NSLocalizedDescriptionKey: $0]) }
    }
    override var hasBytesAvailable: Bool { condition.withLock { !pending.isEmpty || (status == .open && !finished && failure == nil) } }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        condition.lock()
        while pending.isEmpty && !finished && failure == nil && status == .open { condition.wait() }
        guard len > 0, !pending.isEmpty else {
            defer { condition.unlock() }
            if failure != nil { status = .error; return -1 }
            if finished { status = .atEnd; return 0 }
            return -1
        }
        let count = min(len, pending.count)
        pending.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: count) }
        pending.removeFirst(count)
        let more = !pending.isEmpty
        // The reader thread waits for the frame to be read before it reads the next one.
        if !more { condition.broadcast() }
        condition.unlock()
        // Bytes left of this frame: told again, as Foundation tells while bytes wait.
        if more { events.post(.hasBytesAvailable, from: self) }
        return count
    }

    override func getBuffer(_ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length len: UnsafeMutablePointer<Int>) -> Bool { false }

    /// The reader thread: a frame at a time, each waiting until the one before was read.
    private func pump() {
        while true {
            let frame: ContinuationFrame?
            var reason: String?
            do { frame = try channel.read() } catch { frame = nil; reason = "\(error)" }
            condition.lock()
            switch frame {
            case .data(let bytes)?: pending = bytes
            case .finished?: finished = true
            case nil: failure = reason ?? "the other device's app or its connection ended without closing its stream"
            case let other?: failure = "the stream carried a \(other.kind) frame"
            }
            let ended = finished || failure != nil
            condition.broadcast()
            condition.unlock()
            if !ended { events.post(.hasBytesAvailable, from: self) }
            condition.lock()
            while !pending.isEmpty && status == .open { condition.wait() }
            let closed = status != .open
            condition.unlock()
            if ended {
                events.post(failure == nil ? .endEncountered : .errorOccurred, from: self)
                return
            }
            if closed { return }
        }
    }
}

/// The output half of a continuation stream (Foundation's `OutputStream`): each `write` goes to
/// the other device's app as it is made; `close()` tells it the stream ended (its `read` returns
/// 0). A write after the other side is gone returns -1 with ``streamError`` set. Scheduled in a
/// run loop, the delegate gets `.openCompleted` and `.hasSpaceAvailable` on opening and after
/// each write, and `.errorOccurred` when a write failed.
final class ContinuationOutputStream: OutputStream {
    private var channel: ContinuationChannel?
    private var shared: ContinuationStreamPair?
    private let events = StreamEvents()
    private var status: Stream.Status = .notOpen
    private var error: (any Error)?

    init(_ channel: ContinuationChannel, pair: ContinuationStreamPair) {
        self.channel = channel
        shared = pair
        super.init(toMemory: ())
    }

    required init(toMemory: ()) { super.init(toMemory: ()) }

    override var delegate: (any StreamDelegate)? {
        get { events.delegate }
        set { events.delegate = newValue }
    }
    override func schedule(in aRunLoop: RunLoop, forMode mode: RunLoop.Mode) { events.schedule(aRunLoop, mode) }
    override func remove(from aRunLoop: RunLoop, forMode mode: RunLoop.Mode) { events.remove(aRunLoop, mode) }

    override func open() {
        guard status == .notOpen else { return }
        status = .open
        events.post(.openCompleted, from: self)
        events.post(.hasSpaceAvailable, from: self)
    }
    override func close() {
        guard status != .closed else { return }
        if status == .open || status == .writing { try? channel?.write(.finished) }
        status = .closed
        shared?.closed(input: false)
    }
    override var streamStatus: Stream.Status { status }
    override var streamError: (any Error)? { error }
    override var hasSpaceAvailable: Bool { status == .open || status == .writing }

    override func write(_ buffer: UnsafePointer<UInt8>, maxLength len: Int) -> Int {
        guard let channel, status == .open || status == .writing else { return -1 }
        do { try channel.write(.data(Array(UnsafeBufferPointer(start: buffer, count: len)))) } catch {
            status = .error
            self.error = NSError(domain: NSPOSIXErrorDomain, code: Int(EPIPE), userInfo: [NSLocalizedDescriptionKey: "the other device's app or its connection is gone: \(error)"])
            events.post(.errorOccurred, from: self)
            return -1
        }
        events.post(.hasSpaceAvailable, from: self)
        return len
    }
}

/// Where a stream's events go: the run loops it is scheduled in, each in its modes, to its
/// delegate. A stream in no run loop posts nothing (it is used by blocking calls).
final class StreamEvents: @unchecked Sendable {
    private let lock = NSLock()
    private var loops: [(loop: RunLoop, mode: RunLoop.Mode)] = []
    private weak var storedDelegate: (any StreamDelegate)?

    var delegate: (any StreamDelegate)? {
        get { lock.withLock { storedDelegate } }
        set { lock.withLock { storedDelegate = newValue } }
    }

    func schedule(_ loop: RunLoop, _ mode: RunLoop.Mode) { lock.withLock { loops.append((loop, mode)) } }
    func remove(_ loop: RunLoop, _ mode: RunLoop.Mode) { lock.withLock { loops.removeAll { $0.loop === loop && $0.mode == mode } } }

    /// Hands `event` to the delegate on each run loop the stream is scheduled in (and wakes it).
    func post(_ event: Stream.Event, from stream: Stream) {
        let targets = lock.withLock { loops }
        nonisolated(unsafe) let stream = stream
        for target in targets {
            nonisolated(unsafe) let loop = target.loop
            let mode = target.mode
            loop.perform(inModes: [mode]) { [self] in
                // Removed from the run loop meanwhile: the event is not delivered.
                guard lock.withLock({ loops.contains { $0.loop === loop && $0.mode == mode } }) else { return }
                delegate?.stream(stream, handle: event)
            }
        }
    }
}

/// The two halves of one stream pair: the connection ends once both are closed.
final class ContinuationStreamPair: Sendable {
    let channel: ContinuationChannel
    /// Which halves are closed: input, output.
    private let state = Mutex<(input: Bool, output: Bool)>((false, false))
    /// Called once both are closed (the continuing side's helper is reaped there).
    private let ended: @Sendable () -> Void

    init(_ channel: ContinuationChannel, ended: @escaping @Sendable () -> Void = {}) {
        self.channel = channel
        self.ended = ended
    }

    /// The streams over the channel.
    func streams() -> (InputStream, OutputStream) {
        (ContinuationInputStream(channel, pair: self), ContinuationOutputStream(channel, pair: self))
    }

    func closed(input: Bool) {
        let both = state.withLock { state -> Bool in
            if input { state.input = true } else { state.output = true }
            return state.input && state.output
        }
        if both {
            channel.close()
            ended()
        }
    }
}
