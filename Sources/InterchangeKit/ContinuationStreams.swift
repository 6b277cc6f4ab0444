import Foundation
import Handoff
import Synchronization

/// The input half of a continuation stream (Foundation's `InputStream`): what the other device's
/// app writes, read from a ``Handoff/ContinuationChannel``. `read` blocks until bytes come; it
/// returns 0 once the other side closed its output stream, and -1 with ``streamError`` set when
/// the connection ended without that (the other app or device died): never a hang on a dead peer.
final class ContinuationInputStream: InputStream {
    private let channel: ContinuationChannel
    private let shared: ContinuationStreamPair
    private var pending: [UInt8] = []
    private var status: Stream.Status = .notOpen
    private var error: (any Error)?

    init(_ channel: ContinuationChannel, pair: ContinuationStreamPair) {
        self.channel = channel
        shared = pair
        super.init(data: Data())
    }

    override func open() { if status == .notOpen { status = .open } }
    override func close() {
        status = .closed
        shared.closed(input: true)
    }
    override var streamStatus: Stream.Status { status }
    override var streamError: (any Error)? { error }
    override var hasBytesAvailable: Bool { status == .open || status == .reading }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        guard status == .open || status == .reading, len > 0 else { return status == .atEnd ? 0 : -1 }
        while pending.isEmpty {
            do {
                switch try channel.read() {
                case .data(let bytes)?: pending = bytes
                case .finished?:
                    status = .atEnd
                    return 0
                case nil:
                    fail("the other device's app or its connection ended without closing its stream")
                    return -1
                case let other?:
                    fail("the stream carried a \(other.kind) frame")
                    return -1
                }
            } catch {
                fail("\(error)")
                return -1
            }
        }
        let count = min(len, pending.count)
        pending.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: count) }
        pending.removeFirst(count)
        return count
    }

    override func getBuffer(_ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length len: UnsafeMutablePointer<Int>) -> Bool { false }

    private func fail(_ reason: String) {
        status = .error
        error = NSError(domain: NSPOSIXErrorDomain, code: Int(ECONNRESET), userInfo: [NSLocalizedDescriptionKey: reason])
    }
}

/// The output half of a continuation stream (Foundation's `OutputStream`): each `write` goes to
/// the other device's app as it is made; `close()` tells it the stream ended (its `read` returns
/// 0). A write after the other side is gone returns -1 with ``streamError`` set.
final class ContinuationOutputStream: OutputStream {
    private var channel: ContinuationChannel?
    private var shared: ContinuationStreamPair?
    private var status: Stream.Status = .notOpen
    private var error: (any Error)?

    init(_ channel: ContinuationChannel, pair: ContinuationStreamPair) {
        self.channel = channel
        shared = pair
        super.init(toMemory: ())
    }

    required init(toMemory: ()) { super.init(toMemory: ()) }

    override func open() { if status == .notOpen { status = .open } }
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
            return -1
        }
        return len
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
