#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Makes dictionary keys from their bytes, sharing one `String` among repeats.
///
/// Plists repeat a few keys thousands of times (`UTTypeIdentifier`, `UTTypeConformsTo`,
/// `public.filename-extension`), and a key over 15 bytes is a heap allocation plus a UTF-8
/// check, about 350 instructions, each time it is made. A direct-mapped table of recent keys
/// turns a repeat into a hash and a `memcmp`, and the tree holds one copy instead of thousands.
/// The hash also serves as the key's fingerprint, so checking a dictionary for repeated keys
/// compares integers, not strings.
///
/// Keys up to 15 bytes are Swift small strings (no allocation), so only their hash is worth
/// having. (An earlier attempt kept keys in a `Dictionary<[UInt8], String>`, whose lookup cost
/// what the allocation saved.)
struct KeyInterner {
    /// Slots of recent long keys, by hash; made at the first long key.
    private var slots: [String?] = []

    /// The key spelt by `bytes` (valid UTF-8, as libxml2 delivers it) and its fingerprint.
    mutating func key(_ bytes: UnsafeBufferPointer<UInt8>) -> (key: String, hash: UInt64) {
        let hash = Self.hash(bytes)
        guard bytes.count > 15 else { return (String(decoding: bytes, as: UTF8.self), hash) }
        if slots.isEmpty { slots = Array(repeating: nil, count: 512) }
        let slot = Int(truncatingIfNeeded: hash) & (slots.count - 1)
        if let cached = slots[slot], Self.spells(cached, bytes) { return (cached, hash) }
        let key = String(decoding: bytes, as: UTF8.self)
        slots[slot] = key
        return (key, hash)
    }

    /// FNV-1a over the bytes (64-bit).
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return h
    }

    private static func spells(_ string: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        string.utf8.count == bytes.count && string.utf8.withContiguousStorageIfAvailable {
            memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0
        } == true
    }
}
