/// FNV-1a, 64 bits: the short, stable hash that names things by their bytes (cache files, hashed
/// pasteboard names, shared-memory slots, fingerprints). Not for security. One definition for
/// all of them, so that the same bytes name the same thing everywhere; hand-written because it
/// is three lines and its value is part of file names (no library's hash promises stability).
package struct FNV1a64: Sendable {
    /// The hash of the bytes combined so far.
    package var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// The hash of no bytes.
    package init() {}

    /// Adds one byte.
    @inlinable @inline(__always)
    package mutating func combine(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x100_0000_01b3
    }

    /// Adds `bytes`.
    @inlinable
    package mutating func combine<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        for byte in bytes { combine(byte) }
    }

    /// The hash of `bytes`.
    @inlinable
    package static func hash<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
        var hasher = FNV1a64()
        hasher.combine(bytes)
        return hasher.value
    }
}
