/// The data of a TXT record: character-strings, which DNS-SD reads as `key=value` pairs (RFC 6763
/// §6). A string without `=` is a key with no value (a boolean attribute); `key=` has an empty
/// value. Keys compare without regard to ASCII case, and only a key's first occurrence counts.
public struct TXTRecord: Sendable, Hashable, CustomStringConvertible {
    /// The character-strings in order, each at most 255 bytes: what goes on the wire.
    public let strings: [[UInt8]]

    /// A record of no strings. Written as one empty string, as RFC 6763 §6.1 requires.
    public static let empty = TXTRecord(unchecked: [])

    /// A record of `strings` as they are. Throws when one is longer than 255 bytes.
    public init(strings: [[UInt8]]) throws(MulticastDNSError) {
        for string in strings where string.count > 255 {
            throw .txtStringTooLong(key: String(decoding: string.prefix(32), as: UTF8.self), bytes: string.count)
        }
        self.strings = Self.normalized(strings)
    }

    /// A record of `key=value` pairs in the order given; a `nil` value writes the key alone.
    /// Throws for a key that is empty, holds `=` or a byte outside printable ASCII, and for a pair
    /// longer than 255 bytes.
    public init(_ pairs: [(key: String, value: String?)]) throws(MulticastDNSError) {
        var strings: [[UInt8]] = []
        for (key, value) in pairs {
            let keyBytes = Array(key.utf8)
            guard !keyBytes.isEmpty, keyBytes.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E && $0 != UInt8(ascii: "=") }) else {
                throw .invalidTXTKey(key)
            }
            strings.append(value.map { keyBytes + [UInt8(ascii: "=")] + Array($0.utf8) } ?? keyBytes)
        }
        try self.init(strings: strings)
    }

    /// A record of `values`, sorted by key so that the same dictionary always gives the same bytes.
    public init(_ values: [String: String]) throws(MulticastDNSError) {
        try self.init(values.sorted { $0.key < $1.key }.map { (key: $0.key, value: Optional($0.value)) })
    }

    /// Strings read from a message (each at most 255 bytes by construction).
    init(unchecked strings: [[UInt8]]) {
        self.strings = Self.normalized(strings)
    }

    /// The one empty string that stands for "no strings" on the wire is no strings here, so that
    /// a record read back equals the one written.
    private static func normalized(_ strings: [[UInt8]]) -> [[UInt8]] {
        strings.count == 1 && strings[0].isEmpty ? [] : strings
    }

    /// The pairs RFC 6763 §6 reads: in order, the first occurrence of each key only, strings
    /// with an empty key (`=x`) and empty strings skipped. A `nil` value is a key without `=`.
    public var pairs: [(key: String, value: [UInt8]?)] {
        var seen: Set<[UInt8]> = []
        var result: [(key: String, value: [UInt8]?)] = []
        for string in strings {
            let equals = string.firstIndex(of: UInt8(ascii: "="))
            let key = Array(string[..<(equals ?? string.endIndex)])
            guard !key.isEmpty, seen.insert(DNSName.lowered(key)).inserted else { continue }
            result.append((String(decoding: key, as: UTF8.self), equals.map { Array(string[($0 + 1)...]) }))
        }
        return result
    }

    /// The value of `key` (any case) as UTF-8 text: `""` for a key without a value, `nil` when
    /// the key is absent.
    public subscript(key: String) -> String? {
        let wanted = DNSName.lowered(Array(key.utf8))
        guard let pair = pairs.first(where: { DNSName.lowered(Array($0.key.utf8)) == wanted }) else { return nil }
        return pair.value.map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// Every pair as text (a key without a value maps to `""`).
    public var dictionary: [String: String] {
        var result: [String: String] = [:]
        for pair in pairs { result[pair.key] = pair.value.map { String(decoding: $0, as: UTF8.self) } ?? "" }
        return result
    }

    /// The strings, quoted and separated by spaces.
    public var description: String {
        strings.map { "\"" + String(decoding: $0, as: UTF8.self) + "\"" }.joined(separator: " ")
    }
}
