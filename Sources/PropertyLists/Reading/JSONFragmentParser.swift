/// Reads a JSON value into a property list, for `plutil -insert … -json FRAGMENT`.
///
/// Objects become dictionaries (in source order), numbers without a fraction or exponent become
/// integers, other numbers reals; `null` has no property-list equivalent and is refused.
public enum JSONFragmentParser {
    /// Parses `text` as one JSON value.
    /// - Throws: ``PropertyListError`` with the 1-based column of the problem.
    public static func parse(_ text: String) throws(PropertyListError) -> PropertyList {
        var parser = Parser(bytes: Array(text.utf8))
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.position == parser.bytes.count else { throw parser.fail("unexpected text after the JSON value") }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var position = 0

        func fail(_ message: String) -> PropertyListError {
            PropertyListError(message, at: .text(line: 1, column: position + 1), format: .json)
        }

        mutating func skipSpace() {
            while position < bytes.count, ScalarText.isSpace(bytes[position]) { position += 1 }
        }

        mutating func expect(_ literal: String) throws(PropertyListError) {
            let l = Array(literal.utf8)
            guard bytes.count - position >= l.count, Array(bytes[position..<(position + l.count)]) == l else {
                throw fail("expected \(literal)")
            }
            position += l.count
        }

        mutating func value(depth: Int) throws(PropertyListError) -> PropertyList {
            guard depth < 512 else { throw fail("nesting deeper than 512 levels") }
            guard position < bytes.count else { throw fail("unexpected end of JSON") }
            switch bytes[position] {
            case UInt8(ascii: "{"):
                position += 1
                var entries: [(String, PropertyList)] = []
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "}") { position += 1; return .dictionary(.init(entries, uniquingKeysWith: { $1 })) }
                while true {
                    skipSpace()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw fail("expected a string key") }
                    let key = try string()
                    skipSpace()
                    try expect(":")
                    skipSpace()
                    entries.append((key, try value(depth: depth + 1)))
                    skipSpace()
                    guard position < bytes.count else { throw fail("unterminated object") }
                    if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                    try expect("}")
                    return .dictionary(.init(entries, uniquingKeysWith: { $1 }))
                }
            case UInt8(ascii: "["):
                position += 1
                var elements: [PropertyList] = []
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "]") { position += 1; return .array(elements) }
                while true {
                    skipSpace()
                    elements.append(try value(depth: depth + 1))
                    skipSpace()
                    guard position < bytes.count else { throw fail("unterminated array") }
                    if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                    try expect("]")
                    return .array(elements)
                }
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try expect("true"); return .bool(true)
            case UInt8(ascii: "f"): try expect("false"); return .bool(false)
            case UInt8(ascii: "n"): throw fail("null has no property-list equivalent")
            default: return try number()
            }
        }

        mutating func number() throws(PropertyListError) -> PropertyList {
            let start = position
            var isInteger = true
            while position < bytes.count {
                let b = bytes[position]
                if b == UInt8(ascii: ".") || b | 0x20 == UInt8(ascii: "e") { isInteger = false }
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")
                        || b == UInt8(ascii: ".") || b | 0x20 == UInt8(ascii: "e") else { break }
                position += 1
            }
            guard position > start else { throw fail("unexpected character") }
            let text = bytes[start..<position]
            if isInteger, case .success(let v) = ScalarText.integer(text) { return v }
            guard case .success(let r) = ScalarText.real(text) else { throw fail("malformed number") }
            return .real(r)
        }

        mutating func string() throws(PropertyListError) -> String {
            position += 1
            var out: [UInt8] = []
            var pendingHigh: UInt32?
            while true {
                guard position < bytes.count else { throw fail("unterminated string") }
                let b = bytes[position]
                position += 1
                if b == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
                guard b == UInt8(ascii: "\\") else { out.append(b); continue }
                guard position < bytes.count else { throw fail("unterminated string") }
                let e = bytes[position]
                position += 1
                switch e {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "u"):
                    guard bytes.count - position >= 4, let code = UInt32(String(decoding: bytes[position..<(position + 4)], as: UTF8.self), radix: 16) else {
                        throw fail("malformed \\u escape")
                    }
                    position += 4
                    if (0xD800..<0xDC00).contains(code) { pendingHigh = code; continue }
                    var scalarValue = code
                    if (0xDC00..<0xE000).contains(code) {
                        guard let high = pendingHigh else { throw fail("unpaired surrogate in \\u escape") }
                        scalarValue = 0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)
                    }
                    pendingHigh = nil
                    guard let scalar = Unicode.Scalar(scalarValue) else { throw fail("invalid \\u escape") }
                    out.append(contentsOf: UTF8.encode(scalar)!)
                default: out.append(e)
                }
            }
        }
    }
}
