#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import OrderedCollections

/// Reads JSON (RFC 8259, UTF-8) into a property list, mapping values as Apple's `plutil` does
/// when it falls back from the plist readers to Foundation's `JSONSerialization` (its
/// `readPropertyList`, which `-convert`, `-p`, `-extract`, `-type`, `-insert`, `-replace` and
/// `-remove` use; `-lint` never reads JSON):
///
/// | JSON | property list |
/// |---|---|
/// | object | dictionary, keys in source order; a repeated key keeps its last value |
/// | array | array |
/// | string | string |
/// | `true`, `false` | bool |
/// | number without fraction or exponent | integer: signed 64-bit, else unsigned 64-bit, else real |
/// | number with a fraction or exponent (`2.0`, `1e3`) | real |
/// | `null` | refused: a plist has no null (Apple's tool reads it and then fails to write it) |
///
/// Numbers beyond a double's range (`1e400`) are refused, as Foundation refuses them. As in
/// Foundation, one trailing comma in an object or array is tolerated. A UTF-8 byte-order mark is
/// skipped. Errors give the line and column (in bytes, 1-based) and the key path.
///
/// Written by hand: the JSON readers a Linux Swift program could use are Foundation's (15 ms to
/// load) or C libraries (json-c, jansson) that refuse integers above `Int64.max`, which Apple's
/// tool keeps as unsigned, and would add another static library to `plutil`.
enum JSONPropertyListParser {
    /// Parses a JSON document whose top level is an object or an array.
    static func parse(_ bytes: UnsafeRawBufferPointer, options: PropertyListReadOptions)
        throws(PropertyListError) -> PropertyListDocument
    {
        var parser = Parser(bytes: bytes, options: options)
        let value = try parser.document(allowingScalar: false)
        var document = PropertyListDocument(value: value, format: .json)
        document.duplicateKeys = parser.finishDuplicates()
        return document
    }

    /// Parses one JSON value of any kind (a "fragment": `3`, `"x"`, `[1]`).
    static func parseFragment(_ bytes: UnsafeRawBufferPointer, options: PropertyListReadOptions = .init())
        throws(PropertyListError) -> PropertyList
    {
        var parser = Parser(bytes: bytes, options: options)
        return try parser.document(allowingScalar: true)
    }

    /// Whether `bytes` is an empty JSON object (`{}` with white space around or inside), the one
    /// text that is both JSON and an OpenStep property list.
    static func isEmptyObject(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var braces: [UInt8] = []
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "{") || b == UInt8(ascii: "}") { braces.append(b) }
            else if !Parser.isSpace(b) { return false }
            i += 1
        }
        return braces == [UInt8(ascii: "{"), UInt8(ascii: "}")]
    }

    private struct Parser {
        let bytes: UnsafeRawBufferPointer
        let options: PropertyListReadOptions
        var position = 0
        /// Repeated keys: the path of each, and its byte offset until ``finishDuplicates()``
        /// turns the offsets into lines and columns in one pass.
        var duplicates: [(keyPath: PropertyListPath, offset: Int)] = []
        /// The steps from the root to the container being read, kept only for containers (a
        /// push and a pop each), so a repeated key's path is known where it is found.
        var containerPath: [PropertyListPath.Component] = []
        /// Decoded text of a string with escapes, reused between strings.
        var scratch: [UInt8] = []

        init(bytes: UnsafeRawBufferPointer, options: PropertyListReadOptions) {
            self.bytes = bytes
            self.options = options
        }

        static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }

        mutating func document(allowingScalar: Bool) throws(PropertyListError) -> PropertyList {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
            skipSpace()
            guard position < bytes.count else { throw fail("the JSON text holds no value") }
            if !allowingScalar, bytes[position] != UInt8(ascii: "{"), bytes[position] != UInt8(ascii: "[") {
                throw fail("a JSON property list must be an object or an array")
            }
            let value = try self.value(depth: 0)
            skipSpace()
            guard position == bytes.count else { throw fail("unexpected text after the JSON value") }
            return value
        }

        /// An error at the current position.
        func fail(_ message: String, at offset: Int? = nil) -> PropertyListError {
            PropertyListError(message, at: location(of: offset ?? position), format: .json)
        }

        /// Line and column of a byte offset; counted only when needed (errors, duplicate keys).
        func location(of offset: Int) -> SourceLocation {
            var line = 1, lineStart = 0
            for i in 0..<min(offset, bytes.count) where bytes[i] == 0x0A {
                line += 1
                lineStart = i + 1
            }
            return .text(line: line, column: offset - lineStart + 1)
        }

        mutating func skipSpace() {
            while position < bytes.count, Self.isSpace(bytes[position]) { position += 1 }
        }

        /// Consumes `literal` (`true`, `false`, `null`) or fails.
        mutating func expect(_ literal: StaticString) throws(PropertyListError) {
            let n = literal.utf8CodeUnitCount
            guard bytes.count - position >= n,
                  memcmp(bytes.baseAddress! + position, literal.utf8Start, n) == 0 else {
                throw fail("expected '\(literal)'")
            }
            position += n
        }

        mutating func value(depth: Int) throws(PropertyListError) -> PropertyList {
            guard position < bytes.count else { throw fail("the JSON text ends where a value should be") }
            switch bytes[position] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try expect("true"); return .bool(true)
            case UInt8(ascii: "f"): try expect("false"); return .bool(false)
            case UInt8(ascii: "n"):
                let start = position
                try expect("null")
                throw fail("null has no property-list equivalent", at: start)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw fail("unexpected character '\(ScalarText.printable(bytes[position]))' where a value should be")
            }
        }

        mutating func object(depth: Int) throws(PropertyListError) -> PropertyList {
            guard depth < options.maximumDepth else { throw fail("nesting deeper than \(options.maximumDepth) levels") }
            position += 1
            var entries = OrderedDictionary<String, PropertyList>()
            var repeated: [(key: String, offset: Int)] = []
            skipSpace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .dictionary(entries)
            }
            while true {
                skipSpace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                    throw fail(position < bytes.count ? "expected a string key in the object" : "the object is not closed")
                }
                let keyOffset = position
                let key = try string()
                skipSpace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                    throw fail("expected ':' after the key \"\(key)\"")
                }
                position += 1
                skipSpace()
                let element: PropertyList
                do { element = try child(.key(key), depth: depth) } catch { throw error.inside(.key(key)) }
                if entries.updateValue(element, forKey: key) != nil { repeated.append((key, keyOffset)) }
                skipSpace()
                guard position < bytes.count else { throw fail("the object is not closed") }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                    skipSpace()
                    // Foundation's reader accepts one trailing comma; so does Apple's plutil.
                    if position < bytes.count, bytes[position] == UInt8(ascii: "}") { position += 1; break }
                    continue
                }
                guard bytes[position] == UInt8(ascii: "}") else { throw fail("expected ',' or '}' in the object") }
                position += 1
                break
            }
            for (key, offset) in repeated {
                duplicates.append((PropertyListPath(containerPath + [.key(key)]), offset))
            }
            return .dictionary(entries)
        }

        /// The value of a container's child, with `step` on the container path while the child
        /// is itself a container.
        mutating func child(_ step: PropertyListPath.Component, depth: Int) throws(PropertyListError) -> PropertyList {
            guard position < bytes.count, bytes[position] == UInt8(ascii: "{") || bytes[position] == UInt8(ascii: "[") else {
                return try value(depth: depth + 1)
            }
            containerPath.append(step)
            defer { containerPath.removeLast() }
            return try value(depth: depth + 1)
        }

        /// The repeated keys with lines and columns, counted in one pass over the input however
        /// many there are.
        func finishDuplicates() -> [PropertyListDocument.DuplicateKey] {
            var line = 1, lineStart = 0, scanned = 0
            var result = duplicates.map { PropertyListDocument.DuplicateKey(keyPath: $0.keyPath, location: nil) }
            for i in duplicates.indices.sorted(by: { duplicates[$0].offset < duplicates[$1].offset }) {
                let offset = duplicates[i].offset
                while scanned < offset {
                    if bytes[scanned] == 0x0A { line += 1; lineStart = scanned + 1 }
                    scanned += 1
                }
                result[i].location = .text(line: line, column: offset - lineStart + 1)
            }
            return result
        }

        mutating func array(depth: Int) throws(PropertyListError) -> PropertyList {
            guard depth < options.maximumDepth else { throw fail("nesting deeper than \(options.maximumDepth) levels") }
            position += 1
            var elements: [PropertyList] = []
            skipSpace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            }
            while true {
                skipSpace()
                do { elements.append(try child(.index(elements.count), depth: depth)) } catch { throw error.inside(.index(elements.count)) }
                skipSpace()
                guard position < bytes.count else { throw fail("the array is not closed") }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                    skipSpace()
                    if position < bytes.count, bytes[position] == UInt8(ascii: "]") { position += 1; break }
                    continue
                }
                guard bytes[position] == UInt8(ascii: "]") else { throw fail("expected ',' or ']' in the array") }
                position += 1
                break
            }
            return .array(elements)
        }

        /// A number, by RFC 8259's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
        mutating func number() throws(PropertyListError) -> PropertyList {
            let start = position
            func digits() -> Int {
                let from = position
                while position < bytes.count, bytes[position] &- UInt8(ascii: "0") < 10 { position += 1 }
                return position - from
            }
            let negative = bytes[position] == UInt8(ascii: "-")
            if negative { position += 1 }
            let integerStart = position
            let integerDigits = digits()
            guard integerDigits > 0 else { throw fail("a number needs digits after '-'") }
            if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") {
                throw fail("a number may not start with 0 (octal-looking numbers are not JSON)", at: integerStart)
            }
            var isInteger = true
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                position += 1
                guard digits() > 0 else { throw fail("a number needs digits after '.'") }
                isInteger = false
            }
            if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
                guard digits() > 0 else { throw fail("a number needs digits in its exponent") }
                isInteger = false
            }
            if isInteger {
                var magnitude: UInt64 = 0
                var overflow = false
                for i in integerStart..<position where !overflow {
                    let (m, o1) = magnitude.multipliedReportingOverflow(by: 10)
                    let (s, o2) = m.addingReportingOverflow(UInt64(bytes[i] &- UInt8(ascii: "0")))
                    (magnitude, overflow) = (s, o1 || o2)
                }
                if !overflow {
                    if !negative {
                        return magnitude <= UInt64(Int64.max) ? .integer(Int64(magnitude)) : .unsignedInteger(magnitude)
                    }
                    if magnitude <= UInt64(Int64.max) { return .integer(-Int64(magnitude)) }
                    if magnitude == UInt64(Int64.max) + 1 { return .integer(.min) }
                }
                // Beyond 64 bits: a real, as Foundation makes it.
            }
            let text = UnsafeRawBufferPointer(rebasing: bytes[start..<position])
            let r = Self.double(text)
            guard r.isFinite else {
                throw fail("the number \(String(decoding: text.prefix(40), as: UTF8.self))\(text.count > 40 ? "…" : "") is beyond the range of a 64-bit real", at: start)
            }
            return .real(r)
        }

        /// `strtod` of text the grammar has checked, however long (`0.000…01` with a thousand
        /// zeros is a valid small double).
        static func double(_ text: UnsafeRawBufferPointer) -> Double {
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: text.count + 1) { buffer in
                let start = buffer.baseAddress!
                UnsafeMutableRawPointer(start).copyMemory(from: text.baseAddress!, byteCount: text.count)
                start[text.count] = 0
                return strtod(start, nil)
            }
        }

        /// A string; `position` is at its opening quote.
        mutating func string() throws(PropertyListError) -> String {
            let open = position
            position += 1
            let contentStart = position
            // Fast path: no escapes, so the bytes between the quotes are the string.
            while position < bytes.count {
                let b = bytes[position]
                if b == UInt8(ascii: "\"") {
                    let content = UnsafeRawBufferPointer(rebasing: bytes[contentStart..<position])
                    position += 1
                    guard let s = Self.validated(content) else { throw fail("the string is not valid UTF-8", at: open) }
                    return s
                }
                if b == UInt8(ascii: "\\") { break }
                if b < 0x20 { throw fail("a control character (\\x\(String(b, radix: 16))) must be escaped in a JSON string") }
                position += 1
            }
            scratch.removeAll(keepingCapacity: true)
            scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[contentStart..<position]))
            while true {
                guard position < bytes.count else { throw fail("the string is not closed", at: open) }
                let b = bytes[position]
                position += 1
                switch b {
                case UInt8(ascii: "\""):
                    guard let s = scratch.withUnsafeBytes({ Self.validated($0) }) else {
                        throw fail("the string is not valid UTF-8", at: open)
                    }
                    return s
                case UInt8(ascii: "\\"):
                    try escape()
                case 0..<0x20:
                    throw fail("a control character (\\x\(String(b, radix: 16))) must be escaped in a JSON string", at: position - 1)
                default:
                    scratch.append(b)
                }
            }
        }

        /// One escape after a backslash, appended to `scratch` as UTF-8.
        mutating func escape() throws(PropertyListError) {
            guard position < bytes.count else { throw fail("the string ends inside an escape") }
            let e = bytes[position]
            position += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(e)
            case UInt8(ascii: "n"): scratch.append(0x0A)
            case UInt8(ascii: "t"): scratch.append(0x09)
            case UInt8(ascii: "r"): scratch.append(0x0D)
            case UInt8(ascii: "b"): scratch.append(0x08)
            case UInt8(ascii: "f"): scratch.append(0x0C)
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xDC00..<0xE000).contains(code) { throw fail("\\u\(String(code, radix: 16)) is a low surrogate without a high one before it", at: position - 6) }
                if (0xD800..<0xDC00).contains(code) {
                    guard bytes.count - position >= 2, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                        throw fail("\\u\(String(code, radix: 16)) is a high surrogate without a low one after it", at: position - 6)
                    }
                    position += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else {
                        throw fail("\\u\(String(code, radix: 16)) is a high surrogate without a low one after it", at: position - 12)
                    }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                scratch.append(contentsOf: UTF8.encode(Unicode.Scalar(code)!)!)
            default:
                throw fail("\\\(ScalarText.printable(e)) is not a JSON escape", at: position - 2)
            }
        }

        mutating func hex4() throws(PropertyListError) -> UInt32 {
            guard bytes.count - position >= 4 else { throw fail("\\u needs four hexadecimal digits") }
            var code: UInt32 = 0
            for _ in 0..<4 {
                let b = bytes[position]
                let digit: UInt8
                switch b {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
                default: throw fail("\\u needs four hexadecimal digits")
                }
                code = code << 4 | UInt32(digit)
                position += 1
            }
            return code
        }

        /// The string these bytes spell, or `nil` when they are not valid UTF-8.
        static func validated(_ content: UnsafeRawBufferPointer) -> String? {
            String(validating: content, as: UTF8.self)
        }
    }
}

extension PropertyListError {
    /// This error, one level further from the root: `component` is prepended to its key path.
    func inside(_ component: PropertyListPath.Component) -> PropertyListError {
        var copy = self
        copy.keyPath = PropertyListPath([component] + (keyPath?.components ?? []))
        return copy
    }
}
