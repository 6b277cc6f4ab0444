/// Percent-encoding (RFC 3986 2.1): `%` and two hexadecimal digits stand for one byte.
public enum PercentEncoding {
    /// The bytes `text` stands for, `%XX` decoded. A `%` not followed by two hexadecimal digits is
    /// kept as it is (the parser refuses such URLs before anything is decoded). `+` stays `+`:
    /// it means a space only in HTML form encoding, not in URLs.
    public static func decodedBytes<S: StringProtocol>(_ text: S) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var bytes = text.utf8.makeIterator()
        var pending: [UInt8] = []
        while let b = pending.isEmpty ? bytes.next() : pending.removeFirst() {
            guard b == 0x25 else { out.append(b); continue }
            guard let h = bytes.next() else { out.append(b); break }
            guard let high = hexValue(h) else { out.append(b); pending.append(h); continue }
            guard let l = bytes.next() else { out += [b, h]; break }
            guard let low = hexValue(l) else { out += [b, h]; pending.append(l); continue }
            out.append(high << 4 | low)
        }
        return out
    }

    /// The text `text` stands for, `%XX` decoded; bytes that are not UTF-8 become U+FFFD (use
    /// ``decodedBytes(_:)`` for binary values).
    public static func decoded<S: StringProtocol>(_ text: S) -> String {
        guard text.utf8.contains(0x25) else { return String(text) }
        return String(decoding: decodedBytes(text), as: UTF8.self)
    }

    /// `bytes` with everything but the unreserved characters (letters, digits, `-`, `.`, `_`,
    /// `~`) and `keeping` percent-encoded, as uppercase `%XX`.
    public static func encoded<Bytes: Sequence>(_ bytes: Bytes, keeping: String = "") -> String where Bytes.Element == UInt8 {
        let kept = Array(keeping.utf8)
        var out: [UInt8] = []
        for b in bytes {
            if isUnreserved(b) || kept.contains(b) {
                out.append(b)
            } else {
                out += [0x25, hexDigit(b >> 4), hexDigit(b & 0xF)]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` as a query name or value: everything but unreserved characters encoded (so `&`,
    /// `=`, `+`, `#`, `/`, `:` and `?` in a value never change the URL's structure).
    public static func encodedComponent(_ text: String) -> String { encoded(text.utf8) }

    static func isUnreserved(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x2E || b == 0x5F || b == 0x7E
    }

    static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: b - 0x30
        case 0x41...0x46: b - 0x41 + 10
        case 0x61...0x66: b - 0x61 + 10
        default: nil
        }
    }

    static func hexDigit(_ n: UInt8) -> UInt8 { n < 10 ? 0x30 + n : 0x41 + n - 10 }
}
