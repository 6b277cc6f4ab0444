/// The SHA-256 of a device's certificate (its DER bytes): what pairing pins, what the transport
/// checks before any request, and what `nearby identity` shows.
public struct Fingerprint: Sendable, Hashable, CustomStringConvertible {
    /// The 32 bytes of the digest.
    public let bytes: [UInt8]

    /// A fingerprint from its 32 bytes; `nil` for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        self.bytes = bytes
    }

    /// A fingerprint from 64 hex digits; colons and spaces between them are ignored (as people
    /// copy them from `nearby identity`).
    public init?(hex: String) {
        var digits: [UInt8] = []
        for scalar in hex.unicodeScalars where scalar != ":" && scalar != " " {
            guard let value = Self.hexValue(scalar) else { return nil }
            digits.append(value)
        }
        guard digits.count == 64 else { return nil }
        self.bytes = stride(from: 0, to: 64, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }

    /// The 64 lowercase hex digits.
    public var hex: String { Self.hex(bytes) }

    /// Groups of four hex digits separated by spaces: easier to read aloud and compare.
    public var description: String {
        stride(from: 0, to: 64, by: 4).map { start in
            let h = hex
            return String(h[h.index(h.startIndex, offsetBy: start)..<h.index(h.startIndex, offsetBy: start + 4)])
        }.joined(separator: " ")
    }

    /// Lowercase hex of any bytes (also names spool folders and transfers).
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes { out.append(digits[Int(byte >> 4)]); out.append(digits[Int(byte & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }

    static func hexValue(_ scalar: Unicode.Scalar) -> UInt8? {
        switch scalar.value {
        case 0x30...0x39: UInt8(scalar.value - 0x30)
        case 0x61...0x66: UInt8(scalar.value - 0x61 + 10)
        case 0x41...0x46: UInt8(scalar.value - 0x41 + 10)
        default: nil
        }
    }
}
