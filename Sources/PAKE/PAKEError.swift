/// Why a SPAKE2 exchange could not go on.
///
/// Every case ends the exchange: none of them is worth retrying with the same state, and a
/// pairing user interface should start over with a new code.
public enum PAKEError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A scalar handed to ``SPAKE2`` (`w`, or the ephemeral one a test supplies) is not 32
    /// big-endian bytes below the group order: the RFC's transcript carries `w` padded to exactly
    /// that length, so anything else cannot be the scalar the peer holds.
    case invalidScalar(reason: String)
    /// The peer's message is not a usable group element (wrong length or encoding, not on P-256,
    /// the point at infinity), or it cancels the password's mask. RFC 9382 §7: an endpoint MUST
    /// abort if a received value is not a member of the group.
    case invalidPeerMessage(reason: String)
    /// The peer's confirmation MAC is not ours for its role: the two sides used different codes
    /// (or different identities or AAD), or someone in between changed a message.
    case confirmationMismatch
    /// ``SPAKE2/finish(peerMessage:)`` was already called: the ephemeral scalar answers one peer
    /// message only, since every further answer would give an active attacker another guess at
    /// the code (RFC 9382 §7: x and y MUST NOT be reused).
    case alreadyFinished
    /// A libcrypto call failed (out of memory, or a broken installation); the payload names it.
    case libcrypto(function: String)

    /// One line saying what went wrong, for logs and error messages.
    public var description: String {
        switch self {
        case .invalidScalar(let reason): "invalid SPAKE2 scalar: \(reason)"
        case .invalidPeerMessage(let reason): "invalid SPAKE2 peer message: \(reason)"
        case .confirmationMismatch: "SPAKE2 key confirmation failed: the peer used another code, or a message was changed"
        case .alreadyFinished: "this SPAKE2 exchange has already finished"
        case .libcrypto(let function): "libcrypto's \(function) failed"
        }
    }
}
