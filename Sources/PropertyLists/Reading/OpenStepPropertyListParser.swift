import OrderedCollections

/// Reads old-style (NeXT/OpenStep) property lists and `.strings` files such as
/// `InfoPlist.strings`, which localise type descriptions.
///
/// Grammar as CoreFoundation reads it: `{ key = value; … }`, `( a, b, )`, `<0fbd 77>` data,
/// quoted (`"…"`, `'…'`) and unquoted strings, `//` and `/* */` comments. A file whose top
/// level is `key = value;` pairs without braces is a `.strings` file and reads as a dictionary.
/// UTF-8 (with or without a BOM) and UTF-16 with a BOM are accepted.
struct OpenStepPropertyListParser {
    private let text: [UInt8]
    private var position = 0
    private let options: PropertyListReadOptions
    private var duplicates: [PropertyListDocument.DuplicateKey] = []

    static func parse(_ bytes: UnsafeRawBufferPointer, options: PropertyListReadOptions)
        throws(PropertyListError) -> PropertyListDocument
    {
        var parser = OpenStepPropertyListParser(text: try utf8Text(bytes), options: options)
        let value = try parser.document()
        var document = PropertyListDocument(value: value, format: .openStep)
        document.duplicateKeys = parser.duplicates
        return document
    }

    /// The input as UTF-8: a UTF-16 file (with its BOM) is transcoded, a UTF-8 BOM dropped,
    /// invalid UTF-8 refused.
    static func utf8Text(_ bytes: UnsafeRawBufferPointer) throws(PropertyListError) -> [UInt8] {
        if bytes.count >= 2, (bytes[0], bytes[1]) == (0xFF, 0xFE) || (bytes[0], bytes[1]) == (0xFE, 0xFF) {
            let bigEndian = bytes[0] == 0xFE
            let count = (bytes.count - 2) / 2
            var units: [UInt16] = []
            units.reserveCapacity(count)
            for i in 0..<count {
                let a = UInt16(bytes[2 + 2 * i]), b = UInt16(bytes[3 + 2 * i])
                units.append(bigEndian ? a << 8 | b : b << 8 | a)
            }
            var out: [UInt8] = []
            out.reserveCapacity(count)
            let failed = transcode(units.makeIterator(), from: UTF16.self, to: UTF8.self,
                                   stoppingOnError: true) { out.append($0) }
            if failed || bytes.count % 2 != 0 {
                throw PropertyListError("the UTF-16 text is malformed (odd length or unpaired surrogate)", format: .openStep)
            }
            return out
        }
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        let body = Array(bytes[start...])
        var offset = 0
        var iterator = body.makeIterator()
        var decoder = Unicode.UTF8()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let s): offset += Unicode.UTF8.width(s)
            case .emptyInput: break loop
            case .error:
                let (line, column) = lineAndColumn(body, offset)
                throw PropertyListError("the text is not valid UTF-8", at: .text(line: line, column: column), format: .openStep)
            }
        }
        return body
    }

    static func lineAndColumn(_ text: [UInt8], _ offset: Int) -> (Int, Int) {
        var line = 1, column = 1
        for b in text[..<min(offset, text.count)] {
            if b == 0x0A { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
        }
        return (line, column)
    }

    private init(text: [UInt8], options: PropertyListReadOptions) {
        self.text = text
        self.options = options
    }

    private func fail(_ message: String, at offset: Int? = nil) -> PropertyListError {
        let (line, column) = Self.lineAndColumn(text, offset ?? position)
        return PropertyListError(message, at: .text(line: line, column: column), format: .openStep)
    }

    private var current: UInt8? { position < text.count ? text[position] : nil }

    /// Skips white space and comments.
    private mutating func skipTrivia() throws(PropertyListError) {
        while let c = current {
            if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0C || c == 0x0B {
                position += 1
            } else if c == UInt8(ascii: "/"), position + 1 < text.count, text[position + 1] == UInt8(ascii: "/") {
                while let d = current, d != 0x0A { position += 1; _ = d }
            } else if c == UInt8(ascii: "/"), position + 1 < text.count, text[position + 1] == UInt8(ascii: "*") {
                let start = position
                position += 2
                while true {
                    guard position + 1 < text.count else { throw fail("unterminated /* comment", at: start) }
                    if text[position] == UInt8(ascii: "*"), text[position + 1] == UInt8(ascii: "/") { position += 2; break }
                    position += 1
                }
            } else {
                return
            }
        }
    }

    private mutating func document() throws(PropertyListError) -> PropertyList {
        try skipTrivia()
        guard current != nil else { throw fail("the file holds no property-list value") }
        let first = try value(depth: 0)
        try skipTrivia()
        if current == nil { return first }
        // `"key" = "value";` at the top level: a .strings file.
        guard case .string(let firstKey) = first, current == UInt8(ascii: "=") || current == UInt8(ascii: ";") else {
            throw fail("unexpected text after the property list")
        }
        var entries = OrderedDictionary<String, PropertyList>()
        try entry(key: firstKey, into: &entries, depth: 0)
        while true {
            try skipTrivia()
            if current == nil { return .dictionary(entries) }
            let keyStart = position
            guard case .string(let key) = try value(depth: 1) else { throw fail("a key must be a string", at: keyStart) }
            try skipTrivia()
            try entry(key: key, into: &entries, depth: 0)
        }
    }

    /// After a key: `= value;`, or (in .strings files) just `;`, meaning the key is its own value.
    private mutating func entry(key: String, into entries: inout OrderedDictionary<String, PropertyList>,
                                depth: Int) throws(PropertyListError) {
        let entryValue: PropertyList
        if current == UInt8(ascii: "=") {
            position += 1
            try skipTrivia()
            guard current != nil else { throw fail("missing value after '=' for key \"\(key)\"") }
            do { entryValue = try value(depth: depth + 1) } catch { throw error.prefixed(by: .key(key)) }
            try skipTrivia()
        } else if depth == 0, current == UInt8(ascii: ";") {
            entryValue = .string(key)
        } else {
            throw fail("expected '=' after key \"\(key)\"")
        }
        guard current == UInt8(ascii: ";") else { throw fail("expected ';' after the value of \"\(key)\"") }
        position += 1
        if entries.updateValue(entryValue, forKey: key) != nil {
            duplicates.append(.init(keyPath: PropertyListPath([.key(key)]), location: nil))
        }
    }

    private mutating func value(depth: Int) throws(PropertyListError) -> PropertyList {
        guard depth < options.maximumDepth else { throw fail("nesting deeper than \(options.maximumDepth) levels") }
        guard let c = current else { throw fail("unexpected end of file") }
        switch c {
        case UInt8(ascii: "{"):
            position += 1
            var entries = OrderedDictionary<String, PropertyList>()
            while true {
                try skipTrivia()
                guard let d = current else { throw fail("unterminated dictionary: missing '}'") }
                if d == UInt8(ascii: "}") { position += 1; return .dictionary(entries) }
                let keyStart = position
                guard case .string(let key) = try value(depth: depth + 1) else {
                    throw fail("a dictionary key must be a string", at: keyStart)
                }
                try skipTrivia()
                try entry(key: key, into: &entries, depth: depth + 1)
            }
        case UInt8(ascii: "("):
            position += 1
            var elements: [PropertyList] = []
            while true {
                try skipTrivia()
                guard let d = current else { throw fail("unterminated array: missing ')'") }
                if d == UInt8(ascii: ")") { position += 1; return .array(elements) }
                do { elements.append(try value(depth: depth + 1)) } catch { throw error.prefixed(by: .index(elements.count)) }
                try skipTrivia()
                if current == UInt8(ascii: ",") { position += 1 }
                else if current != UInt8(ascii: ")") { throw fail("expected ',' or ')' in array") }
            }
        case UInt8(ascii: "<"): return try data()
        case UInt8(ascii: "\""), UInt8(ascii: "'"): return .string(try quoted())
        default:
            let start = position
            while let d = current, Self.isUnquoted(d) { position += 1 }
            guard position > start else { throw fail("unexpected character '\(ScalarText.printable(c))'") }
            return .string(String(decoding: text[start..<position], as: UTF8.self))
        }
    }

    private static func isUnquoted(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "+"),
             UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"):
            true
        default: false
        }
    }

    private mutating func data() throws(PropertyListError) -> PropertyList {
        let start = position
        position += 1
        var bytes: [UInt8] = []
        var high: UInt8?
        while true {
            guard let c = current else { throw fail("unterminated <data>: missing '>'", at: start) }
            position += 1
            if c == UInt8(ascii: ">") { break }
            if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { continue }
            guard let nibble = Self.hexValue(c) else { throw fail("'\(ScalarText.printable(c))' is not a hexadecimal digit in <data>", at: position - 1) }
            if let h = high { bytes.append(h << 4 | nibble); high = nil } else { high = nibble }
        }
        guard high == nil else { throw fail("<data> has an odd number of hexadecimal digits", at: start) }
        return .data(bytes)
    }

    /// Up to four hexadecimal digits after `\U`; `start` is where the escape began, for errors.
    private mutating func hexEscape(start: Int) throws(PropertyListError) -> UInt32 {
        var code: UInt32 = 0
        var digits = 0
        while digits < 4, let d = current, let v = Self.hexValue(d) {
            code = code * 16 + UInt32(v)
            position += 1
            digits += 1
        }
        guard digits > 0 else { throw fail("\\U escape without hexadecimal digits", at: start) }
        return code
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - 48
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - 87
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - 55
        default: nil
        }
    }

    private mutating func quoted() throws(PropertyListError) -> String {
        let start = position
        let quote = text[position]
        position += 1
        var out: [UInt8] = []
        while true {
            guard let c = current else { throw fail("unterminated quoted string", at: start) }
            position += 1
            if c == quote { return String(decoding: out, as: UTF8.self) }
            guard c == UInt8(ascii: "\\") else { out.append(c); continue }
            guard let e = current else { throw fail("unterminated quoted string", at: start) }
            position += 1
            switch e {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "a"): out.append(0x07)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "v"): out.append(0x0B)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var code = UInt32(e - 48)
                for _ in 0..<2 {
                    guard let d = current, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(d) else { break }
                    code = code * 8 + UInt32(d - 48)
                    position += 1
                }
                out.append(contentsOf: Unicode.UTF8.encode(Unicode.Scalar(code)!)!)
            case UInt8(ascii: "U"), UInt8(ascii: "u"):
                var code = try hexEscape(start: position - 2)
                // A UTF-16 surrogate pair is written as two escapes: \UD83D\UDE00.
                if (0xD800..<0xDC00).contains(code), position + 1 < text.count, text[position] == UInt8(ascii: "\\"),
                   text[position + 1] | 0x20 == UInt8(ascii: "u") {
                    position += 2
                    let low = try hexEscape(start: position - 2)
                    guard (0xDC00..<0xE000).contains(low) else { throw fail("\\U escape pairs a high surrogate with \(String(low, radix: 16))", at: position - 6) }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else {
                    throw fail("\\U escape \(String(code, radix: 16)) is not a Unicode scalar (an unpaired surrogate?)", at: position - 6)
                }
                out.append(contentsOf: Unicode.UTF8.encode(scalar)!)
            default: out.append(e)
            }
        }
    }
}
