import AppRegistry
import MulticastDNS
import NIOCore
import PAKE
import SystemCalls

/// Pairing two devices with a one-time code (``PairingCode``): SPAKE2 (RFC 9382) over a TLS
/// connection whose two certificates are the exchange's identities. Each side pins the other's
/// fingerprint only when the other's confirmation proves it knew the code and saw the same two
/// certificates. The device showing the code takes one attempt, then forgets the code.
public enum Pairing {
    /// Mixed into the confirmation keys: a pairing key is good for nothing else.
    static let associatedData = Array("document-interchange nearby pairing 1".utf8)

    /// This device as either side sees it.
    public struct Side: Sendable {
        /// The device root (identity and pins).
        public var root: DeviceRoot
        /// The name it gives itself.
        public var name: String
        /// The port its receiver listens on (told to the other side, which sends there).
        public var receivePort: Int

        /// A side.
        public init(root: DeviceRoot, name: String, receivePort: Int) {
            self.root = root
            self.name = name
            self.receivePort = receivePort
        }
    }

    /// B: listens on `host`:`port` for one device to pair with `code`, within `timeout` seconds.
    /// - Parameters:
    ///   - discoverable: announce this device by its name over DNS-SD while waiting (on
    ///     `interfaces`, else every multicast interface), so the other finds it by name.
    ///   - listening: told the port once it listens.
    /// - Returns: the device pinned.
    public static func showCode(_ side: Side, code: PairingCode, host: String = "::", port: Int, timeout: Double = 300,
                                discoverable: Bool = false, interfaces: [String]? = nil,
                                listening: @escaping @Sendable (Int) -> Void = { _ in }) async throws -> PairedDevice {
        try await waitForOne(side, host: host, port: port, timeout: timeout, idle: 60, discoverable: discoverable, interfaces: interfaces,
                             listening: listening) { connection, check, identity in
            try await answer(connection, check: check, side: side, identity: identity, code: code)
        }
    }

    /// Listens for one device and hands its connection to `handle`: one attempt, whatever it
    /// does (a code is spent, a comparison is over); `nil` after `timeout` seconds is an error.
    static func waitForOne(_ side: Side, host: String, port: Int, timeout: Double, idle: Double, discoverable: Bool, interfaces: [String]?,
                           listening: @escaping @Sendable (Int) -> Void,
                           handle: @escaping @Sendable (NIOAsyncChannel<Frame, Frame>, PeerCheck, DeviceIdentity) async throws -> PairedDevice)
        async throws -> PairedDevice {
        let folder = NearbyFolder(root: side.root)
        let identity = try DeviceIdentity.loadOrCreate(in: folder)
        let connections = Connection.acceptLoop()
        let listener = try await Connection.listen(host: host, port: port, identity: identity, idle: idle, connections: connections) { PeerCheck(.anyoneRecorded) }
        // A second device that connected meanwhile is closed, not dropped (AcceptLoop says why).
        defer { connections.discardAdopted() }
        let bound = listener.channel.localAddress?.port ?? port
        // Only while waiting is this device findable by its name (docs/nearby.md, Discovery).
        let responder = discoverable
            ? try MulticastResponder(instances: [Announcement.pairing(deviceName: side.name, port: bound)], interfaces: interfaces)
            : nil
        defer { responder?.stop() }
        listening(bound)
        return try await withThrowingTaskGroup(of: PairedDevice?.self) { group in
            group.addTask {
                try await listener.executeThenClose { inbound in
                    for try await (connection, check) in inbound {
                        connections.take((connection, check))
                        do { return try await handle(connection, check, identity) } catch let error as NearbyError { throw error } catch {
                            // The connection closed under us (the other device stopped or declined).
                            throw NearbyError.pairing("the other device ended the connection: \(Connection.describe(error))")
                        }
                    }
                    throw NearbyError.pairing("the listener closed")
                }
            }
            group.addTask {
                try await Task.sleep(for: .seconds(timeout))
                return nil
            }
            defer { group.cancelAll() }
            guard let result = try await group.next() ?? nil else { throw NearbyError.pairing("no device paired within \(Int(timeout)) s") }
            try? await listener.channel.close()
            return result
        }
    }

    /// The address a peer connected from, as stored: an IPv4 peer reached through an IPv6
    /// socket shows as ::ffff:a.b.c.d and is stored as a.b.c.d.
    static func peerAddress(_ connection: NIOAsyncChannel<Frame, Frame>) -> String? {
        connection.channel.remoteAddress?.ipAddress.map { $0.hasPrefix("::ffff:") && $0.contains(".") ? String($0.dropFirst(7)) : $0 }
    }

    static func answer(_ connection: NIOAsyncChannel<Frame, Frame>, check: PeerCheck, side: Side, identity: DeviceIdentity,
                       code: PairingCode) async throws -> PairedDevice {
        let address = peerAddress(connection)
        return try await connection.executeThenClose { inbound, outbound in
            var frames = inbound.makeAsyncIterator()
            guard let first = try await frames.next(), case .hello(let name, let receivePort) = try PairingMessage.decode(first),
                  let peer = check.fingerprint else { throw NearbyError.pairing("the other device did not say hello") }
            var spake = try SPAKE2(role: .b, w: code.scalar, identityA: peer.bytes, identityB: identity.fingerprint.bytes, aad: associatedData)
            try await outbound.write(PairingMessage.reply(name: side.name, share: spake.message, receivePort: side.receivePort).frame)
            guard let second = try await frames.next(), case .confirm(let share, let confirmation) = try PairingMessage.decode(second) else {
                throw NearbyError.pairing("the other device did not confirm")
            }
            let keys: SPAKE2Keys
            do {
                keys = try spake.finish(peerMessage: share)
                try keys.verify(peerConfirmation: confirmation)
            } catch {
                try? await outbound.write(PairingMessage.done(paired: false, confirmation: [], reason: "wrong code").frame)
                throw NearbyError.pairing("the other device did not know the code (\(error)); the code is spent")
            }
            let device = try pin(name: name, fingerprint: peer, address: address.map { SendTarget(host: $0, port: receivePort, expected: nil).address },
                                 key: keys.sharedKey, in: side.root)
            try await outbound.write(PairingMessage.done(paired: true, confirmation: keys.confirmation, reason: nil).frame)
            return device
        }
    }

    /// A: pairs with the device showing `code` at `host`:`port`; pins it as `name` (else the
    /// name it gives itself).
    public static func pair(_ side: Side, code: PairingCode, host: String, port: Int, name: String? = nil,
                            timeout: Double = 10) async throws -> PairedDevice {
        let folder = NearbyFolder(root: side.root)
        let identity = try DeviceIdentity.loadOrCreate(in: folder)
        let check = PeerCheck(.anyoneRecorded)
        let connection = try await Connection.connect(host: host, port: port, identity: identity, check: check, timeout: timeout, idle: 60)
        do {
            return try await exchange(connection, check: check, side: side, identity: identity, code: code, host: host, name: name)
        } catch let error as NearbyError {
            throw error
        } catch {
            // The connection closed under us (the device showing the code stopped, or spent it).
            throw NearbyError.pairing("the other device ended the connection: \(Connection.describe(error))")
        }
    }

    static func exchange(_ connection: NIOAsyncChannel<Frame, Frame>, check: PeerCheck, side: Side, identity: DeviceIdentity,
                         code: PairingCode, host: String, name: String?) async throws -> PairedDevice {
        try await connection.executeThenClose { inbound, outbound in
            var frames = inbound.makeAsyncIterator()
            try await outbound.write(PairingMessage.hello(name: side.name, receivePort: side.receivePort).frame)
            guard let first = try await frames.next() else { throw NearbyError.pairing("the other device closed the connection") }
            guard case .reply(let theirName, let theirShare, let receivePort) = try PairingMessage.decode(first), let peer = check.fingerprint else {
                throw NearbyError.pairing("the other device did not answer")
            }
            var spake = try SPAKE2(role: .a, w: code.scalar, identityA: identity.fingerprint.bytes, identityB: peer.bytes, aad: associatedData)
            let keys = try spake.finish(peerMessage: theirShare)
            try await outbound.write(PairingMessage.confirm(share: spake.message, confirmation: keys.confirmation).frame)
            guard let second = try await frames.next(), case .done(let paired, let confirmation, let reason) = try PairingMessage.decode(second) else {
                throw NearbyError.pairing("the other device did not finish")
            }
            guard paired else { throw NearbyError.pairing(reason ?? "refused") }
            do { try keys.verify(peerConfirmation: confirmation) } catch {
                throw NearbyError.pairing("the other device's confirmation is wrong: not paired")
            }
            return try pin(name: name ?? theirName, fingerprint: peer, address: SendTarget(host: host, port: receivePort, expected: nil).address,
                           key: keys.sharedKey, in: side.root)
        }
    }

    /// Pins `fingerprint` as `name` (made safe; a name already taken by another device gets a number).
    static func pin(name: String, fingerprint: Fingerprint, address: String?, key: [UInt8], in root: DeviceRoot) throws(NearbyError) -> PairedDevice {
        let folder = NearbyFolder(root: root)
        var paired = try PairedDevices.load(from: folder)
        var chosen = ItemName.safe(name)
        var n = 2
        while let other = paired.device(named: chosen), other.fingerprint != fingerprint {
            chosen = ItemName.safe(name) + "-\(n)"
            n += 1
        }
        let device = PairedDevice(name: chosen, fingerprint: fingerprint, pairedAt: Clock.system.now(), lastAddress: address, discoveryKey: key)
        paired.pin(device)
        try paired.save(to: folder)
        return device
    }
}
