import Hashing
import SystemCalls
import UniformTypes

/// `canOpenURL` for one app, prepared (``SchemeDirectory/question(from:)``). Only the app's
/// counted queried schemes (at most 50) can ever be answered yes, so their answers are taken from
/// the registry's index once and kept in a small open-addressing table of scheme hashes, behind a
/// 1,024-bit filter of each scheme's length, first and last byte. A check finds the URL's colon
/// (no allocation, no record decoded); most schemes the app may not ask about stop at the filter,
/// and only those that pass it are validated, hashed and compared byte by byte. The answers
/// are those of the registry the question was prepared from; prepare a new one when the registry
/// is rebuilt (``AppRegistry/RegistryStore/isCurrent(_:root:catalog:mimeDirectories:)``).
public struct CanOpenQuestion: Sendable {
    /// Slots of (hash, index into `schemes` + 1); 0 is empty.
    let slots: [(hash: UInt32, entry: Int32)]
    /// The schemes answered yes, lowercased, as bytes.
    let schemes: [[UInt8]]
    let mask: Int
    /// Bit ``filterBit(length:first:last:)`` is set for every scheme answered yes. A miss is
    /// mostly decided here: hashing a scheme byte by byte (FNV-1a, one multiply per byte in a
    /// chain) was most of the 18 ns a miss took among 1,000 apps.
    let filter: [UInt64]

    init(registry: TypeRegistry, queried: Set<String>) {
        let yes = queried.filter { registry.hasApp(handlingScheme: $0) }.sorted().map { Array($0.utf8) }
        var size = 16
        while size < yes.count * 4 { size *= 2 }
        var slots = [(hash: UInt32, entry: Int32)](repeating: (0, 0), count: size)
        var filter = [UInt64](repeating: 0, count: 16)
        for (i, scheme) in yes.enumerated() {
            let h = Self.hash(scheme)
            var k = Int(h) & (size - 1)
            while slots[k].entry != 0 { k = (k + 1) & (size - 1) }
            slots[k] = (h, Int32(i + 1))
            let bit = Self.filterBit(length: scheme.count, first: scheme[0], last: scheme[scheme.count - 1])
            filter[bit >> 6] |= 1 << UInt64(bit & 63)
        }
        self.slots = slots
        schemes = yes
        mask = size - 1
        self.filter = filter
    }

    static func hash<Bytes: Sequence>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        var h = FNV1a32.offsetBasis
        for b in bytes { h = FNV1a32.step(h, b) }
        return h
    }

    /// The filter's bit for a lowercased scheme of `length` bytes: one multiply mixes the three
    /// (Fibonacci hashing), the top 10 bits choose the bit.
    @inline(__always)
    static func filterBit(length: Int, first: UInt8, last: UInt8) -> Int {
        let key = UInt32(truncatingIfNeeded: length) | UInt32(first) << 8 | UInt32(last) << 16
        return Int((key &* 0x9E37_79B1) >> 22)
    }

    /// Whether `b` may follow a scheme's first letter: a letter, a digit, `+`, `-` or `.`
    /// (RFC 3986). Digits and the three signs are the bits of 0x7FED from 0x2B (`+`) on.
    @inline(__always)
    static func isSchemeByte(_ b: UInt8) -> Bool {
        let offset = b &- 0x2B
        return (b | 0x20) &- 0x61 < 26 || (offset < 16 && (0x7FED as UInt16) >> UInt16(offset) & 1 != 0)
    }

    /// Whether the app may ask about `url`'s scheme and a registered app handles it; `false` for
    /// text without a valid scheme.
    public func canOpen(_ url: String) -> Bool {
        // A native string lends its bytes without a copy; only a foreign one is made contiguous.
        if let answer = url.utf8.withContiguousStorageIfAvailable({ canOpen(bytes: $0) }) { return answer }
        var contiguous = url
        return contiguous.withUTF8 { canOpen(bytes: $0) }
    }

    @inline(__always)
    func canOpen(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // The filter needs only where the scheme ends and its first and last byte, so the colon
        // is found first and the scheme validated only when the filter lets it through: an
        // invalid scheme is answered no either way. Every scheme byte is lowercased by setting
        // bit 5 (digits and + - . already have it).
        guard let length = Self.firstColon(in: bytes), length > 0 else { return false }
        let bit = Self.filterBit(length: length, first: bytes[0] | 0x20, last: bytes[length - 1] | 0x20)
        guard filter[bit >> 6] & (1 << UInt64(bit & 63)) != 0 else { return false }
        guard (bytes[0] | 0x20) &- 0x61 < 26 else { return false }
        var h = FNV1a32.step(FNV1a32.offsetBasis, bytes[0] | 0x20)
        for i in 1..<length {
            guard Self.isSchemeByte(bytes[i]) else { return false }
            h = FNV1a32.step(h, bytes[i] | 0x20)
        }
        var k = Int(h) & mask
        while slots[k].entry != 0 {
            if slots[k].hash == h {
                let scheme = schemes[Int(slots[k].entry) - 1]
                if scheme.count == length && (0..<length).allSatisfy({ bytes[$0] | 0x20 == scheme[$0] }) { return true }
            }
            k = (k + 1) & mask
        }
        return false
    }

    /// Where the first colon of `bytes` is; `nil` when there is none, or when a byte that cannot
    /// be in a scheme comes first past the eighth (the scheme is then invalid, and a long text
    /// without a colon is not read to its end). The first eight bytes are searched at once: the
    /// loop that looked at one byte at a time was most of what a miss then cost. (A second
    /// overlapping word was slower: a small string's bytes are a copy on the stack, and a load
    /// across its two halves waits for both stores.)
    @inline(__always)
    static func firstColon(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        if bytes.count >= 8, let base = bytes.baseAddress {
            if let colon = colonByte(in: UnsafeRawPointer(base).loadUnaligned(as: UInt64.self)) { return colon }
            i = 8
        }
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x3A { return i }
            guard i == 0 ? (b | 0x20) &- 0x61 < 26 : isSchemeByte(b) else { return nil }
            i += 1
        }
        return nil
    }

    /// The index of the first colon among the eight bytes of `word` (in memory order), if any:
    /// the bytes equal to `:` become zero, and the lowest zero byte is found by the borrow trick
    /// (exact for the lowest one; only bytes above it can be flagged falsely).
    @inline(__always)
    static func colonByte(in word: UInt64) -> Int? {
        let x = UInt64(littleEndian: word) ^ 0x3A3A_3A3A_3A3A_3A3A
        let zero = (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
        return zero == 0 ? nil : zero.trailingZeroBitCount >> 3
    }

    /// The scheme of `url`, lowercased, when it has a valid one (RFC 3986: a letter, then
    /// letters, digits, `+`, `-`, `.`, up to the first `:`).
    static func scheme(of url: String) -> String? {
        var bytes: [UInt8] = []
        for b in url.utf8 {
            if b == 0x3A { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            let lower = b >= 0x41 && b <= 0x5A ? b | 0x20 : b
            let valid = (lower >= 0x61 && lower <= 0x7A) || (!bytes.isEmpty && ((b >= 0x30 && b <= 0x39) || b == 0x2B || b == 0x2D || b == 0x2E))
            guard valid else { return nil }
            bytes.append(lower)
        }
        return nil
    }
}
