/// SPAKE2's transcript TT (RFC 9382 §3.3): every field prefixed with its length, so that no two
/// different sets of fields make the same bytes (an identity ending where a share begins could
/// otherwise be shifted between them).
///
///     TT = len(A)  || A  || len(B) || B || len(pA) || pA
///       || len(pB) || pB || len(K) || K || len(w)  || w
///
/// len is an eight-byte little-endian count of bytes (§3.2); an absent identity is the empty
/// string, so its field is eight zero bytes. w is the 32-byte big-endian scalar, the length of
/// the group order, as the RFC requires so that its length reveals nothing.
struct Transcript {
    /// The bytes so far.
    private(set) var bytes: [UInt8] = []

    /// The transcript of one exchange, in the RFC's order.
    init(identityA: [UInt8], identityB: [UInt8], pA: [UInt8], pB: [UInt8], k: [UInt8], w: [UInt8]) {
        for field in [identityA, identityB, pA, pB, k, w] { append(field) }
    }

    /// Appends `field` after its eight-byte little-endian length.
    private mutating func append(_ field: [UInt8]) {
        withUnsafeBytes(of: UInt64(field.count).littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: field)
    }
}
