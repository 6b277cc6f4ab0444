import AppRegistry
import Crypto
import NIOCore
import NIOPosix
import NIOSSL
import SystemCalls

/// Sends items to one receiver: connects, checks the receiver's certificate against the pin in
/// the handshake, asks, then uploads each item from where the receiver says it holds it.
///
/// An interrupted send leaves a note in `ROOT/Nearby/Outbox/` with its transfer identifier, so
/// the same files sent again to the same place continue that transfer (the receiver resumes and
/// delivers each item once); a send that completed removes its note, so sending the same files
/// later is a new transfer, delivered again.
public struct NearbySender: Sendable {
    /// This device's root (identity, pins, outbox).
    public var root: DeviceRoot
    /// The name this device gives itself in asks.
    public var deviceName: String
    /// The sending app's bundle identifier.
    public var senderApp: String
    /// Seconds to wait for the connection.
    public var connectTimeout: Double = 10
    /// Seconds the receiver may stay silent (its ``SessionMessage/asking`` counts as speaking).
    public var idleTimeout: Double = 60
    /// Seconds to wait while the receiver says a person is deciding (``SessionMessage/asking``):
    /// a receiver that keeps saying so cannot hold the sender for longer.
    public var answerPatience: Double = 300

    /// A sender on `root`.
    public init(root: DeviceRoot, deviceName: String, senderApp: String) {
        self.root = root
        self.deviceName = deviceName
        self.senderApp = senderApp
    }

    /// Sends `items` to `target`, for `targetApp` if given.
    public func send(_ items: [OutgoingItem], to target: SendTarget, targetApp: String? = nil,
                     progress: @escaping @Sendable (SendProgress) -> Void = { _ in }) async throws -> SendReport {
        let folder = NearbyFolder(root: root)
        let expected = target.expected
        let (channel, check) = try await Connection.connect(from: root, to: target, timeout: connectTimeout, idle: idleTimeout)
        let outbox = Outbox(folder: folder)
        let key = outbox.key(target: target, items: items)
        let transfer = try outbox.transfer(for: key)
        var report = SendReport(destinations: Array(repeating: nil, count: items.count), bytesSent: 0, bytesResumed: 0)
        do {
            try await channel.executeThenClose { inbound, outbound in
                var frames = inbound.makeAsyncIterator()
                let ask = SessionMessage.ask(senderName: deviceName, senderApp: senderApp, targetApp: targetApp, transfer: transfer,
                                             items: items.map(\.offer))
                do { try await outbound.write(ask.frame) } catch {
                    // A handshake that failed closes the channel, maybe before the ask went out;
                    // its reason (a refused certificate) waits on the inbound side.
                    _ = try await frames.next()
                    throw error
                }
                // The handshake is over once anything comes back; a pin mismatch fails it.
                guard var reply = try await frames.next() else { throw NearbyError.connection("\(target.address) closed the connection") }
                guard let peer = check.fingerprint else { throw NearbyError.connection("no certificate from \(target.address)") }
                progress(.connected(peer))
                // A person there is deciding: wait for them, but not for ever.
                let patience = Clock.monotonic() + answerPatience
                while case .asking = try Self.message(reply) {
                    progress(.waiting)
                    guard Clock.monotonic() < patience else {
                        throw NearbyError.timedOut("nobody at \(target.address) answered within \(Int(answerPatience)) s")
                    }
                    guard let next = try await frames.next() else { throw NearbyError.connection("\(target.address) closed the connection") }
                    reply = next
                }
                guard case .answer(let accepted, let reason, let token, let held) = try Self.message(reply) else {
                    if case .refused(let why) = try Self.message(reply) { throw NearbyError.declined(why) }
                    throw NearbyError.protocolViolation("the receiver did not answer the ask")
                }
                progress(.answered(accepted: accepted, held: held))
                guard accepted else { throw NearbyError.declined(reason ?? "no reason given") }
                guard held.count == items.count else { throw NearbyError.protocolViolation("the answer holds \(held.count) counts for \(items.count) items") }
                for (index, item) in items.enumerated() {
                    guard held[index] <= item.size else { throw NearbyError.protocolViolation("the receiver holds more of item \(index) than its size") }
                    report.bytesResumed += held[index]
                    if held[index] == item.size && item.size > 0 {
                        report.destinations[index] = "delivered before"
                        continue
                    }
                    try await outbound.write(SessionMessage.upload(token: token, item: index, offset: held[index]).frame)
                    report.bytesSent += try await Self.upload(item, index: index, from: held[index], to: outbound, progress: progress)
                    guard let answer = try await frames.next() else { throw NearbyError.connection("\(target.address) closed before confirming item \(index)") }
                    switch try Self.message(answer) {
                    case .delivered(let item, let destination) where item == index:
                        report.destinations[index] = destination
                        progress(.delivered(item: index, destination: destination))
                    case .refused(let why): throw NearbyError.declined(why)
                    default: throw NearbyError.protocolViolation("expected item \(index)'s delivery")
                    }
                }
            }
        } catch let error where error is NIOSSLError || error is BoringSSLError {
            if let seen = check.fingerprint, !check.accepts(seen) {
                throw expected == nil ? NearbyError.unpairedAt(address: target.address, got: seen) : NearbyError.pinMismatch(expected: expected, got: seen)
            }
            // A TLS alert in the handshake: the receiver refused this device's certificate. An
            // unclean shutdown later is a connection that was lost (the receiver stopped or died).
            if let tls = error as? NIOSSLError, case .uncleanShutdown = tls {
                throw NearbyError.connection("\(target.address) ended the connection (the receiver stopped)")
            }
            throw NearbyError.declined("\(target.address) refused this device in the TLS handshake: it is not paired there (nearby pair)")
        }
        if report.complete { outbox.finish(key) }
        return report
    }

    /// Writes item `index` from `offset` in data frames; returns the bytes written.
    static func upload(_ item: OutgoingItem, index: Int, from offset: Int64, to outbound: NIOAsyncChannelOutboundWriter<Frame>,
                       progress: @Sendable (SendProgress) -> Void) async throws -> Int64 {
        let file: OwnedDescriptor
        do { file = try OwnedDescriptor.open(item.path, .readOnly, options: [.noControllingTerminal]) } catch { throw NearbyError.system(error) }
        // The SHA-256 covers the whole item: the bytes the receiver held from before too.
        var hasher = SHA256()
        if offset > 0 { try FileHash.update(&hasher, from: file, length: offset) }
        var position = offset
        let allocator = ByteBufferAllocator()
        var lastReport = position
        while position < item.size {
            let want = Int(min(Int64(Frame.maximumData), item.size - position))
            var buffer = Frame.dataPayload(capacity: want, allocator: allocator)
            let n = try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: want) { bytes in
                do { return try file.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[..<want]), at: position) } catch let error as SystemCallError {
                    throw NearbyError.system(error)
                }
            }
            guard n > 0 else { throw NearbyError.connection("\(item.path) became shorter while it was sent") }
            buffer.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
            try await outbound.write(Frame.data(consume buffer))
            position += Int64(n)
            if position - lastReport >= 4 << 20 || position == item.size {
                progress(.bytes(item: index, sent: position, of: item.size))
                lastReport = position
            }
        }
        try await outbound.write(SessionMessage.uploaded(item: index, sha256: Array(hasher.finalize())).frame)
        return position - offset
    }

    static func message(_ frame: Frame) throws(NearbyError) -> SessionMessage {
        guard frame.kind == .message else { throw .protocolViolation("data from the receiver") }
        return try SessionMessage.decode(Array(frame.payload.readableBytesView))
    }
}
