/// One side of a SPAKE2 exchange (RFC 9382), ciphersuite SPAKE2-P256-SHA256-HKDF-HMAC.
///
/// Both sides hold the same scalar w, derived from a code only they know. Each sends one
/// ``message``; each then calls ``finish(peerMessage:)`` with the other's message and gets
/// ``SPAKE2Keys``: a shared key, and a confirmation MAC to send. Each side checks the other's
/// confirmation with ``SPAKE2Keys/verify(peerConfirmation:)`` before using the key. Someone who
/// watches or even takes part in the exchange without the code learns nothing that lets them
/// test guesses offline: each guess costs a whole exchange.
///
/// ```swift
/// var device = try SPAKE2(role: .a, w: SPAKE2.passwordScalar(code), identityA: a, identityB: b)
/// send(device.message)
/// let keys = try device.finish(peerMessage: receive())
/// send(keys.confirmation)
/// try keys.verify(peerConfirmation: receive())
/// use(keys.sharedKey)
/// ```
///
/// A value holds only bytes (libcrypto objects live for the length of one call), so it is
/// `Sendable` and can move between tasks. Its ephemeral scalar is secret and single-use: finish
/// one exchange per value, and do not finish a copy too.
public struct SPAKE2: Sendable {
    /// Which side of the exchange this is. The roles are asymmetric: A masks its share with the
    /// RFC's element M and B with N, and the transcript names A first, so the two devices must
    /// agree beforehand on who is who.
    public enum Role: Sendable, Hashable {
        /// The initiator, which sends pA = x*P + w*M.
        case a
        /// The responder, which sends pB = y*P + w*N.
        case b
    }

    /// This side's role.
    public let role: Role
    /// The message to send to the peer: pA for A, pB for B, as 65 bytes of SEC1 uncompressed
    /// P-256 point (0x04 || X || Y), the encoding of the RFC's P-256 vectors.
    public let message: [UInt8]

    /// w, 32 big-endian bytes below the group order.
    private let w: [UInt8]
    /// x (A) or y (B); nil once ``finish(peerMessage:)`` has been called.
    private var ephemeralScalar: [UInt8]?
    private let identityA: [UInt8]
    private let identityB: [UInt8]
    private let aad: [UInt8]

    /// Starts an exchange with a fresh random ephemeral scalar.
    ///
    /// - Parameters:
    ///   - role: Which side this is (A sends first in the RFC's flow, though the messages do not
    ///     depend on each other and may cross).
    ///   - w: The shared scalar: 32 big-endian bytes, already reduced modulo the group order, as
    ///     ``passwordScalar(_:)`` makes them.
    ///   - identityA: A's identity as both sides know it; may be empty only where identities are
    ///     implicit (RFC 9382 §3.3), since otherwise the sides could disagree on who paired.
    ///   - identityB: B's identity, likewise.
    ///   - aad: Additional data both sides must agree on, mixed into the confirmation keys (§4):
    ///     a mismatch makes confirmation fail. Empty by default.
    /// - Throws: ``PAKEError/invalidScalar(reason:)`` if `w` is not 32 bytes below the order;
    ///   ``PAKEError/libcrypto(function:)`` if libcrypto fails.
    public init(role: Role, w: [UInt8], identityA: [UInt8], identityB: [UInt8], aad: [UInt8] = []) throws(PAKEError) {
        try self.init(role: role, w: w, ephemeralScalar: P256.randomScalar(),
                      identityA: identityA, identityB: identityB, aad: aad)
    }

    /// Starts an exchange with a given ephemeral scalar (x for A, y for B), so that the RFC's
    /// test vectors can be reproduced. Never for real exchanges: a known or repeated scalar
    /// gives the code away.
    init(role: Role, w: [UInt8], ephemeralScalar: [UInt8], identityA: [UInt8], identityB: [UInt8], aad: [UInt8] = []) throws(PAKEError) {
        guard try P256.isReducedScalar(w) else {
            throw .invalidScalar(reason: "w must be \(P256.scalarLength) big-endian bytes below the P-256 group order")
        }
        guard try P256.isReducedScalar(ephemeralScalar), ephemeralScalar.contains(where: { $0 != 0 }) else {
            throw .invalidScalar(reason: "the ephemeral scalar must be \(P256.scalarLength) big-endian bytes in [1, p)")
        }
        self.role = role
        self.w = w
        self.ephemeralScalar = ephemeralScalar
        self.identityA = identityA
        self.identityB = identityB
        self.aad = aad
        message = try P256.share(scalar: ephemeralScalar, w: w, mask: role == .a ? .m : .n)
    }

    /// w for `password`: HKDF-SHA256 (empty salt, info "document-interchange nearby SPAKE2 w")
    /// to 40 bytes, reduced modulo the P-256 group order p.
    ///
    /// RFC 9382 §3.2 suggests w = MHF(pw) mod p with a memory-hard function, to slow an attacker
    /// who tries passwords offline. SPAKE2 gives such an attacker nothing to try them against:
    /// each guess needs a live exchange with the device, and our pairing codes are one-time,
    /// with one attempt each. A memory-hard function would only make pairing slower on small
    /// devices. The 40 bytes are 64 bits more than p needs, the margin NIST SP 800-56A (which
    /// the RFC cites) takes to make the bias of the reduction negligible.
    ///
    /// The result is 32 big-endian bytes, ready for ``init(role:w:identityA:identityB:aad:)``.
    /// libcrypto failing here (out of memory, or a broken installation) stops the process, as an
    /// allocation failure does in Swift: there is no w to go on with.
    public static func passwordScalar(_ password: [UInt8]) -> [UInt8] {
        do {
            let derived = try CipherSuite.kdf(key: password, info: Array("document-interchange nearby SPAKE2 w".utf8),
                                              length: P256.scalarLength + 8)
            return try P256.reduce(derived)
        } catch {
            fatalError("SPAKE2.passwordScalar: \(error)")
        }
    }

    /// Computes the shared key from the peer's message (RFC 9382 §3.3 and §4).
    ///
    /// K = h*x*(pB - w*N) for A and h*y*(pA - w*M) for B (the cofactor h is 1 on P-256), then
    /// the transcript TT (A, B, pA, pB, K and w, each after its eight-byte little-endian length),
    /// Ke || Ka = Hash(TT), KcA || KcB = KDF(Ka, nil, "ConfirmationKeys" || AAD), and the
    /// confirmations MAC(KcA, TT) and MAC(KcB, TT).
    ///
    /// An exchange answers one peer message: the ephemeral scalar is dropped whatever the
    /// outcome, since answering more would give an active attacker a guess at the code each.
    ///
    /// - Throws: ``PAKEError/invalidPeerMessage(reason:)`` if `peerMessage` is not a 65-byte
    ///   uncompressed point on P-256, is the point at infinity, or makes K the identity;
    ///   ``PAKEError/alreadyFinished`` on a second call; ``PAKEError/libcrypto(function:)``.
    public mutating func finish(peerMessage: [UInt8]) throws(PAKEError) -> SPAKE2Keys {
        guard let scalar = ephemeralScalar else { throw .alreadyFinished }
        ephemeralScalar = nil
        let k = try P256.sharedElement(peer: peerMessage, scalar: scalar, w: w, peerMask: role == .a ? .n : .m)
        let (pA, pB) = role == .a ? (message, peerMessage) : (peerMessage, message)
        let transcript = Transcript(identityA: identityA, identityB: identityB, pA: pA, pB: pB, k: k, w: w)
        return try SPAKE2Keys(role: role, transcript: transcript.bytes, aad: aad)
    }
}
