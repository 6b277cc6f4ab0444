import AppRegistry
import Handoff
import NIOCore
import NIOSSL

/// The continuing device's side of Handoff after the activity reached an app here: telling the
/// offering device that its activity was continued, and carrying the continuing app's streams to
/// the offering app (`nearby streams`, which `NSUserActivity.getContinuationStreams` starts).
/// Both over the pinned connection to a paired device, as ``ActivityWatcher``'s watch.
public struct ContinuationClient: Sendable {
    /// This device's root (identity, pins).
    public var root: DeviceRoot
    /// Seconds to wait for the connection.
    public var connectTimeout: Double = 10
    /// Seconds the other device may stay silent before the connection is taken for dead (a
    /// stream's heartbeats keep a quiet one open; its own silence limit ends it sooner).
    public var idleTimeout: Double = 300
    /// Seconds between the heartbeats that keep a quiet stream open (the protocol's 10 s, the
    /// same on both devices; other values are for tests).
    public var streamHeartbeat: Double = StreamRelay.heartbeat

    /// A client on `root`.
    public init(root: DeviceRoot) { self.root = root }

    /// Tells `target` that the offer `offer` names was continued here; throws why not (the
    /// activity is no longer offered, the app cannot be reached).
    public func tellContinued(_ offer: ActivityOffer.Identity, on target: SendTarget) async throws {
        try await exchange(.continued(offer), with: target) { _, _, _ in }
    }

    /// The offers `target` makes now (the first answer to a watch).
    public func offers(of target: SendTarget) async throws -> [ActivityOffer] {
        try await ActivityWatcher(root: root).offers(of: target)
    }

    /// Opens streams to the app whose offer `offer` names on `target` and relays them to and from the
    /// local socket `local` (the continuing app's end; taken and closed) until both directions
    /// finished. `opened` runs once the offering app took the streams, before any byte is relayed.
    public func relayStreams(of offer: ActivityOffer.Identity, on target: SendTarget, local: ContinuationChannel,
                             opened: @escaping @Sendable () throws -> Void) async throws {
        // However it ends, the app's end sees it: its descriptor may live on elsewhere (a dup).
        defer { local.close() }
        try await exchange(.openStreams(offer), with: target) { frames, outbound, channel in
            try opened()
            let descriptor: CInt
            do { descriptor = try local.handOffDescriptor() } catch { throw NearbyError.connection("\(error)") }
            let localChannel = try await StreamRelay.local(descriptor)
            try await StreamRelay.run(.continuing, remote: &frames, remoteOutbound: outbound, remoteChannel: channel, local: localChannel, heartbeat: streamHeartbeat)
        }
    }

    /// Sends `message`, waits for ``SessionMessage/acknowledged``, then runs `then`.
    private func exchange(_ message: SessionMessage, with target: SendTarget,
                          then: (inout NIOAsyncChannelInboundStream<Frame>.AsyncIterator, NIOAsyncChannelOutboundWriter<Frame>, any Channel) async throws -> Void) async throws {
        let (channel, check) = try await Connection.connect(from: root, to: target, timeout: connectTimeout, idle: idleTimeout)
        let expected = target.expected
        do {
            try await channel.executeThenClose { inbound, outbound in
                var frames = inbound.makeAsyncIterator()
                do { try await outbound.write(message.frame) } catch {
                    _ = try await frames.next()
                    throw error
                }
                guard let frame = try await frames.next() else { throw NearbyError.connection("\(target.address) closed the connection") }
                switch try NearbySender.message(frame) {
                case .acknowledged: try await then(&frames, outbound, channel.channel)
                case .refused(let why): throw NearbyError.declined(why)
                default: throw NearbyError.protocolViolation("expected \(target.address) to acknowledge")
                }
            }
        } catch let error where error is NIOSSLError || error is BoringSSLError {
            if let seen = check.fingerprint, !check.accepts(seen) { throw NearbyError.pinMismatch(expected: expected, got: seen) }
            throw NearbyError.declined("\(target.address) refused this device in the TLS handshake: it is not paired there (nearby pair)")
        }
    }
}
