/// An `NSUUID`: 16 bytes (`NS.uuidbytes`).
public struct ArchivedUUID: Sendable, Hashable, CustomStringConvertible {
    /// The 16 bytes, most significant first.
    public let bytes: [UInt8]

    /// Creates a UUID from exactly 16 bytes; `nil` for any other count.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// Parses `E621E1F8-C36C-495A-93FC-0C247A3E6E5F` (either case); `nil` if malformed.
    public init?(uuidString: String) {
        let hex = Array(uuidString.utf8)
        guard hex.count == 36, [8, 13, 18, 23].allSatisfy({ hex[$0] == UInt8(ascii: "-") }) else { return nil }
        var out: [UInt8] = []
        var high: UInt8?
        for (i, c) in hex.enumerated() where ![8, 13, 18, 23].contains(i) {
            let v: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): v = c - UInt8(ascii: "A") + 10
            default: return nil
            }
            if let h = high { out.append(h << 4 | v); high = nil } else { high = v }
        }
        self.bytes = out
    }

    /// Upper-case hexadecimal with hyphens, as `NSUUID.uuidString` spells it.
    public var uuidString: String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for (i, b) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(i) { out.append(UInt8(ascii: "-")) }
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The same as ``uuidString``.
    public var description: String { uuidString }
}
