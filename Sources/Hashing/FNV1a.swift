/// FNV-1a, 64 bits: the short, stable hash that names things by their bytes (cache files, hashed
/// pasteboard names, shared-memory slots, fingerprints). Not for security. One definition for
/// all of them, so that the same bytes name the same thing everywhere; hand-written because it
/// is three lines and its value is part of file names (no library's hash promises stability).
///
/// Not generic on purpose: a generic call from another module was left unspecialized and looked
/// up its types' metadata at run time, in every query process.
package struct FNV1a64: Sendable {
    /// The hash of the bytes combined so far.
    package private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// The hash of no bytes.
    package init() {}

    /// Adds one byte.
    package mutating func combine(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x100_0000_01b3
    }

    /// Adds `bytes`.
    package mutating func combine(_ bytes: UnsafeRawBufferPointer) {
        var hash = value
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        value = hash
    }

    /// Adds `bytes`.
    package mutating func combine(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { combine($0) }
    }

    /// The hash of `bytes`.
    package static func hash(_ bytes: [UInt8]) -> UInt64 {
        var hasher = FNV1a64()
        hasher.combine(bytes)
        return hasher.value
    }

    /// The hash of `text`'s UTF-8 bytes.
    package static func hash(_ text: String) -> UInt64 {
        var text = text
        var hasher = FNV1a64()
        text.withUTF8 { hasher.combine(UnsafeRawBufferPointer($0)) }
        return hasher.value
    }
}

/// FNV-1a, 32 bits: the hash of the compiled registries' lookup tables (tags, app records,
/// URL schemes), of the canOpenURL filter and of exported desktop-entry names. One definition of
/// its constants and step, so that every table is hashed the same way; the loops stay at their
/// call sites (a tag lookup folds case as it hashes), each calling ``step(_:_:)``, which inlines.
package enum FNV1a32 {
    /// The hash of no bytes.
    package static let offsetBasis: UInt32 = 2_166_136_261

    /// `hash` with one more byte.
    @inlinable @inline(__always)
    package static func step(_ hash: UInt32, _ byte: UInt8) -> UInt32 { (hash ^ UInt32(byte)) &* 16_777_619 }

    /// The hash of `text`'s UTF-8 bytes.
    package static func hash(_ text: String) -> UInt32 {
        var hash = offsetBasis
        for byte in text.utf8 { hash = step(hash, byte) }
        return hash
    }
}
