/// What a finished SPAKE2 exchange yields: the shared key, and the confirmation MACs that prove
/// each side derived the same one (RFC 9382 §4).
///
/// ``sharedKey`` must not be used until ``verify(peerConfirmation:)`` has accepted the peer's
/// confirmation: before that, nothing shows the peer knew the code (§3.1: neither side may
/// consider the protocol complete until it has checked the other's confirmation).
public struct SPAKE2Keys: Sendable {
    /// Ke, the first half of Hash(TT): 16 bytes, the key the exchange exists to agree on.
    public let sharedKey: [UInt8]
    /// Our confirmation MAC, to send to the peer: cA = MAC(KcA, TT) if we are A, cB = MAC(KcB, TT)
    /// if we are B.
    public let confirmation: [UInt8]
    /// The confirmation the peer must send: the other of cA and cB.
    let expectedPeerConfirmation: [UInt8]

    // The intermediate values, kept for the tests that check them against the RFC's vectors.

    /// TT, the transcript hashed into Ke || Ka and MACed for the confirmations.
    let transcript: [UInt8]
    /// Ka, the second half of Hash(TT): used only to derive the confirmation keys.
    let ka: [UInt8]
    /// KcA, A's confirmation key (the first half of the KDF's output).
    let kcA: [UInt8]
    /// KcB, B's confirmation key (the second half).
    let kcB: [UInt8]

    /// The key schedule of RFC 9382 §4 for `transcript`, seen from `role`:
    ///
    ///     TT  -> Hash(TT) = Ke || Ka
    ///     AAD -> KDF(Ka, nil, "ConfirmationKeys" || AAD) = KcA || KcB
    ///     cA = MAC(KcA, TT), cB = MAC(KcB, TT)
    ///
    /// The KDF's output length L is Hash's (32 bytes for SHA-256), halved into two 16-byte keys.
    init(role: SPAKE2.Role, transcript: [UInt8], aad: [UInt8]) throws(PAKEError) {
        let hash = try CipherSuite.hash(transcript)
        let half = CipherSuite.hashLength / 2
        sharedKey = Array(hash[..<half])
        ka = Array(hash[half...])
        let confirmationKeys = try CipherSuite.kdf(key: ka, info: Array("ConfirmationKeys".utf8) + aad,
                                                   length: CipherSuite.hashLength)
        kcA = Array(confirmationKeys[..<half])
        kcB = Array(confirmationKeys[half...])
        let confirmationA = try CipherSuite.mac(key: kcA, data: transcript)
        let confirmationB = try CipherSuite.mac(key: kcB, data: transcript)
        switch role {
        case .a: (confirmation, expectedPeerConfirmation) = (confirmationA, confirmationB)
        case .b: (confirmation, expectedPeerConfirmation) = (confirmationB, confirmationA)
        }
        self.transcript = transcript
    }

    /// Accepts the peer's confirmation MAC if it is the one its role must send, comparing in
    /// constant time so that a forger learns nothing from how long a rejection takes.
    ///
    /// - Throws: ``PAKEError/confirmationMismatch`` when the peer derived another key: it used
    ///   another code, other identities or other AAD, or a message was changed on the way.
    public func verify(peerConfirmation: [UInt8]) throws(PAKEError) {
        guard CipherSuite.constantTimeEqual(peerConfirmation, expectedPeerConfirmation) else {
            throw .confirmationMismatch
        }
    }
}
