import AppRegistry
import Handoff
import NIOCore
import NIOSSL

/// Watches the activities a paired device offers for Handoff (``SessionMessage/watchActivities``):
/// connects with the device's pinned certificate, and hands over its offers, newest first, at once
/// and at each change, until the handler says it has seen enough or the connection ends.
public struct ActivityWatcher: Sendable {
    /// This device's root (identity, pins).
    public var root: DeviceRoot
    /// Seconds to wait for the connection.
    public var connectTimeout: Double = 10
    /// Seconds the device may stay silent: past its heartbeat (``ActivityWatch/heartbeat``), it is gone.
    public var idleTimeout: Double = 3 * ActivityWatch.heartbeat

    /// A watcher on `root`.
    public init(root: DeviceRoot) { self.root = root }

    /// Calls `offers` with the device's offers now and at each change, until it returns false or
    /// the connection ends (then this throws why). The device must be paired (`target`'s
    /// expected fingerprint, else any paired device's).
    public func watch(_ target: SendTarget, offers: @escaping @Sendable ([ActivityOffer]) async -> Bool) async throws {
        _ = try await session(target) { list -> Void? in await offers(list) ? nil : () }
    }

    /// The device's offers now: its first answer to a watch.
    public func offers(of target: SendTarget) async throws -> [ActivityOffer] {
        // Returned as the session's value, not through a box the handler fills.
        try await session(target) { $0 }
    }

    /// Watches `target` until `answer` returns a value for the offers it was given, and returns that.
    private func session<R: Sendable>(_ target: SendTarget, answer: @escaping @Sendable ([ActivityOffer]) async -> R?) async throws -> R {
        let (channel, check) = try await Connection.connect(from: root, to: target, timeout: connectTimeout, idle: idleTimeout)
        let expected = target.expected
        do {
            return try await channel.executeThenClose { inbound, outbound -> R in
                var frames = inbound.makeAsyncIterator()
                do { try await outbound.write(SessionMessage.watchActivities.frame) } catch {
                    // A handshake that failed closes the channel first; its reason (a refused
                    // certificate) waits on the inbound side.
                    _ = try await frames.next()
                    throw error
                }
                while let frame = try await frames.next() {
                    switch try NearbySender.message(frame) {
                    case .activities(let list):
                        var decoded: [ActivityOffer] = []
                        for (index, bytes) in list.enumerated() {
                            do { decoded.append(try ActivityOffer.decode(bytes)) } catch {
                                throw NearbyError.protocolViolation("offer \(index) from \(target.address): \(error)")
                            }
                        }
                        if let result = await answer(decoded) { return result }
                    case .refused(let why): throw NearbyError.declined(why)
                    default: throw NearbyError.protocolViolation("expected the activities \(target.address) offers")
                    }
                }
                throw NearbyError.connection("\(target.address) closed the connection")
            }
        } catch let error where error is NIOSSLError || error is BoringSSLError {
            if let seen = check.fingerprint, !check.accepts(seen) { throw NearbyError.pinMismatch(expected: expected, got: seen) }
            throw NearbyError.declined("\(target.address) refused this device in the TLS handshake: it is not paired there (nearby pair)")
        }
    }
}
