import NIOCore

extension Pairing {
    /// What a person is shown during numeric comparison: the digits, and who the other device
    /// says it is.
    public struct Comparison: Sendable {
        /// Six digits, `123 456`; the other device shows the same ones unless someone is in between.
        public var digits: String
        /// The name the other device gives itself.
        public var peerName: String
        /// The other device's certificate fingerprint.
        public var peerFingerprint: Fingerprint
    }

    /// B, pairing by numeric comparison (``ComparisonDigits``): listens on `host`:`port` for one
    /// device, shows the person the digits through `confirm`, and pins the device when both
    /// people said the digits agree. One attempt, like a code.
    public static func waitToCompare(_ side: Side, host: String = "::", port: Int, timeout: Double = 300, discoverable: Bool = false,
                                     interfaces: [String]? = nil, listening: @escaping @Sendable (Int) -> Void = { _ in },
                                     confirm: @escaping @Sendable (Comparison) async -> Bool) async throws -> PairedDevice {
        // A person reads and compares: the connection may stay quiet for minutes.
        try await waitForOne(side, host: host, port: port, timeout: timeout, idle: timeout, discoverable: discoverable, interfaces: interfaces,
                             listening: listening) { connection, check, identity in
            let address = peerAddress(connection)
            return try await connection.executeThenClose { inbound, outbound in
                var frames = inbound.makeAsyncIterator()
                guard let first = try await frames.next() else { throw NearbyError.pairing("the other device closed the connection") }
                guard case .compareHello(let name, let receivePort, let commitment) = try PairingMessage.decode(first), let peer = check.fingerprint else {
                    try? await outbound.write(PairingMessage.compareVerdict(confirmed: false, reason: "this device pairs by comparing digits").frame)
                    throw NearbyError.pairing("the other device did not ask to compare digits (it may have typed a code)")
                }
                let nonceB = ComparisonDigits.nonce()
                try await outbound.write(PairingMessage.compareReply(name: side.name, nonce: nonceB, receivePort: side.receivePort).frame)
                guard let second = try await frames.next(), case .compareReveal(let nonceA) = try PairingMessage.decode(second) else {
                    throw NearbyError.pairing("the other device did not reveal its nonce")
                }
                guard ComparisonDigits.commitment(nonce: nonceA, a: peer, b: identity.fingerprint) == commitment else {
                    try? await outbound.write(PairingMessage.compareVerdict(confirmed: false, reason: "the nonce does not match its commitment").frame)
                    throw NearbyError.pairing("the other device's nonce does not match its commitment: not paired")
                }
                let comparison = Comparison(digits: ComparisonDigits.digits(a: peer, b: identity.fingerprint, nonceA: nonceA, nonceB: nonceB),
                                            peerName: name, peerFingerprint: peer)
                try await verdicts(confirm: confirm, comparison, side: side, frames: &frames, outbound: outbound)
                return try pin(name: name, fingerprint: peer, address: address.map { SendTarget(host: $0, port: receivePort, expected: nil).address },
                               key: ComparisonDigits.sharedKey(a: peer, b: identity.fingerprint, nonceA: nonceA, nonceB: nonceB), in: side.root)
            }
        }
    }

    /// A, pairing by numeric comparison with the device waiting at `host`:`port`; pins it as
    /// `name` (else the name it gives itself) when both people said the digits agree.
    public static func compare(_ side: Side, host: String, port: Int, name: String? = nil, timeout: Double = 10, patience: Double = 300,
                               confirm: @escaping @Sendable (Comparison) async -> Bool) async throws -> PairedDevice {
        let identity = try DeviceIdentity.loadOrCreate(in: NearbyFolder(root: side.root))
        let check = PeerCheck(.anyoneRecorded)
        let connection = try await Connection.connect(host: host, port: port, identity: identity, check: check, timeout: timeout, idle: patience,
                                                     awaitingHandshake: true)
        do {
            return try await connection.executeThenClose { inbound, outbound in
                var frames = inbound.makeAsyncIterator()
                guard let peer = check.fingerprint else { throw NearbyError.pairing("the other device showed no certificate") }
                let nonceA = ComparisonDigits.nonce()
                let commitment = ComparisonDigits.commitment(nonce: nonceA, a: identity.fingerprint, b: peer)
                try await outbound.write(PairingMessage.compareHello(name: side.name, receivePort: side.receivePort, commitment: commitment).frame)
                guard let first = try await frames.next() else { throw NearbyError.pairing("the other device closed the connection") }
                switch try PairingMessage.decode(first) {
                case .compareReply(let theirName, let nonceB, let receivePort):
                    try await outbound.write(PairingMessage.compareReveal(nonce: nonceA).frame)
                    let comparison = Comparison(digits: ComparisonDigits.digits(a: identity.fingerprint, b: peer, nonceA: nonceA, nonceB: nonceB),
                                                peerName: theirName, peerFingerprint: peer)
                    try await verdicts(confirm: confirm, comparison, side: side, frames: &frames, outbound: outbound)
                    return try pin(name: name ?? theirName, fingerprint: peer, address: SendTarget(host: host, port: receivePort, expected: nil).address,
                                   key: ComparisonDigits.sharedKey(a: identity.fingerprint, b: peer, nonceA: nonceA, nonceB: nonceB), in: side.root)
                case .compareVerdict(_, let reason), .done(_, _, let reason):
                    throw NearbyError.pairing(reason ?? "refused")
                default:
                    throw NearbyError.pairing("the other device did not answer the comparison")
                }
            }
        } catch let error as NearbyError {
            throw error
        } catch {
            throw NearbyError.pairing("the other device ended the connection: \(Connection.describe(error))")
        }
    }

    /// Asks this side's person, tells the other side, hears its verdict; throws unless both agree.
    static func verdicts(confirm: @Sendable (Comparison) async -> Bool, _ comparison: Comparison, side: Side,
                         frames: inout NIOAsyncChannelInboundStream<Frame>.AsyncIterator,
                         outbound: NIOAsyncChannelOutboundWriter<Frame>) async throws {
        let mine = await confirm(comparison)
        try await outbound.write(PairingMessage.compareVerdict(confirmed: mine, reason: mine ? nil : "the digits did not match on \(side.name)").frame)
        guard mine else { throw NearbyError.pairing("the digits did not match here: not paired") }
        guard let frame = try await frames.next(), case .compareVerdict(let theirs, let reason) = try PairingMessage.decode(frame) else {
            throw NearbyError.pairing("the other device did not say whether the digits matched")
        }
        guard theirs else { throw NearbyError.pairing("\(reason ?? "the other device said the digits did not match"): not paired") }
    }
}
