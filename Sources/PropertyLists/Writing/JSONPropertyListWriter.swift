import ExtrasBase64

/// Writes a property list as JSON, in the spelling `plutil -convert json` uses: compact by
/// default, or indented by two spaces with `"key" : value`; keys sorted; `/` escaped.
///
/// Reals are written so that they read back as reals: `2.0`, not `2` (Foundation writes `2`, and
/// then reads it back as an integer), and `-0.0`. JSON has no date, data or UID type; what
/// happens to those is ``nonJSONValues``. NaN and the infinities cannot be written.
public struct JSONPropertyListWriter: Sendable {
    /// What to do with values JSON has no type for.
    public enum NonJSONValues: Sendable, Hashable {
        /// Refuse them with ``PropertyListWriteError``, as Apple's `plutil -convert json` does
        /// ("Invalid object in plist for JSON format"): the output could not be read back as the
        /// same property list.
        case refuse
        /// Export them as text: dates as ISO 8601 strings (`2020-01-02T03:04:05Z`), data as
        /// base64 strings, a UID as `{"CF$UID": n}`. Lossy: they read back as strings and a dictionary.
        case asStrings
    }

    /// Whether to indent (plutil's `-r`).
    public var prettyPrinted: Bool

    /// What happens to dates, data and UIDs.
    public var nonJSONValues: NonJSONValues

    /// Creates a writer.
    /// - Parameters:
    ///   - prettyPrinted: indent by two spaces, one entry a line.
    ///   - nonJSONValues: refuse dates, data and UIDs, or write them as strings (the default,
    ///     for reports and exports that are read by people and scripts, not back as plists).
    public init(prettyPrinted: Bool = false, nonJSONValues: NonJSONValues = .asStrings) {
        self.prettyPrinted = prettyPrinted
        self.nonJSONValues = nonJSONValues
    }

    /// The JSON text for `value`, without a trailing newline.
    /// - Throws: ``PropertyListWriteError`` for a real that is NaN or infinite, and with
    ///   ``NonJSONValues/refuse`` for a date, data or a UID, naming its key path.
    public func write(_ value: PropertyList) throws(PropertyListWriteError) -> [UInt8] {
        var out: [UInt8] = []
        var lastKeys = SortedKeys()
        try append(value, indent: 0, keys: &lastKeys, to: &out)
        return out
    }

    /// Appends `value`. An error is thrown with the path from `value` down; each container on the
    /// way up puts its key or index in front, so no path is built for the values that succeed
    /// (building one per value was a tenth of `openin --list --json`).
    /// The keys of the last dictionary written, as given and sorted: a report repeats one set of
    /// keys in every row (89 apps, a dozen keys each), and sorting them was a twentieth of writing it.
    private struct SortedKeys {
        var given: [String] = []
        /// The places in `given` of the keys, in sorted order (values are read by place, not
        /// looked up by key again).
        var order: [Int] = []
    }

    private func append(_ value: PropertyList, indent: Int, keys lastKeys: inout SortedKeys, to out: inout [UInt8]) throws(PropertyListWriteError) {
        let path = PropertyListPath.root
        func newline(_ level: Int) {
            guard prettyPrinted else { return }
            out.append(0x0A)
            for _ in 0..<(2 * level) { out.append(0x20) }
        }
        switch value {
        case .string(let s): Self.appendString(s, to: &out)
        case .integer(let i): out.append(contentsOf: String(i).utf8)
        case .unsignedInteger(let u): out.append(contentsOf: String(u).utf8)
        case .real(let r):
            guard r.isFinite else { throw PropertyListWriteError("\(r) cannot be written in JSON", at: path) }
            out.append(contentsOf: NumberFormatting.shortestReal(r).utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .date where nonJSONValues == .refuse, .data where nonJSONValues == .refuse, .uid where nonJSONValues == .refuse:
            let what = if case .data = value { "data" } else { value.typeNameWithArticle }
            throw PropertyListWriteError("\(what) cannot be written as JSON, which has no \(value.typeName) type", at: path)
        case .date(let d):
            guard let year = d.components?.year, (0...9999).contains(year) else {
                throw PropertyListWriteError("a date outside the years 0000–9999 cannot be written as ISO 8601", at: path)
            }
            Self.appendString(d.iso8601, to: &out)
        case .data(let bytes): Self.appendString(Base64.encodeToString(bytes: bytes), to: &out)
        case .uid(let u): out.append(contentsOf: (prettyPrinted ? "{\n\(String(repeating: " ", count: 2 * indent + 2))\"CF$UID\" : \(u)\n\(String(repeating: " ", count: 2 * indent))}" : "{\"CF$UID\":\(u)}").utf8)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            if elements.isEmpty, prettyPrinted { out.append(0x0A) }
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                do { try append(element, indent: indent + 1, keys: &lastKeys, to: &out) } catch {
                    throw PropertyListWriteError(error.message, at: PropertyListPath([.index(i)] + error.keyPath.components))
                }
            }
            newline(indent)
            out.append(UInt8(ascii: "]"))
        case .dictionary(let entries):
            out.append(UInt8(ascii: "{"))
            if entries.isEmpty, prettyPrinted { out.append(0x0A) }
            // Byte for byte: canonically equivalent keys are equal as Strings but are written as given.
            if !entries.keys.elementsEqual(lastKeys.given, by: Self.sameBytes) {
                let given = Array(entries.keys)
                lastKeys = SortedKeys(given: given, order: given.indices.sorted { FoundationKeyOrder.precedes(given[$0], given[$1]) })
            }
            let order = lastKeys.order
            for (i, place) in order.enumerated() {
                let key = entries.keys[place]
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                Self.appendString(key, to: &out)
                if prettyPrinted { out.append(0x20) }
                out.append(UInt8(ascii: ":"))
                if prettyPrinted { out.append(0x20) }
                do { try append(entries.values[place], indent: indent + 1, keys: &lastKeys, to: &out) } catch {
                    throw PropertyListWriteError(error.message, at: PropertyListPath([.key(key)] + error.keyPath.components))
                }
            }
            newline(indent)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Whether `a` and `b` have the same UTF-8 bytes (canonically equivalent strings that differ
    /// in their bytes are different keys here). Compared as contiguous buffers: comparing the two
    /// `utf8` views element by element was 98,000 of the 429,000 instructions of writing `openin
    /// --list --json`'s report at 400 desktop files, this 39,000 (callgrind).
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        var a = a, b = b
        return a.withUTF8 { x in b.withUTF8 { y in x.elementsEqual(y) } }
    }

    static func appendString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { bytes in
            // Runs of bytes that need no escape are copied at once (most of a report is paths and names).
            var start = 0
            for (i, b) in bytes.enumerated() where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b == UInt8(ascii: "/") {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
                appendEscape(b, to: &out)
                start = i + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func appendEscape(_ b: UInt8, to out: inout [UInt8]) {
        switch b {
        case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
        case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
        case UInt8(ascii: "/"): out.append(contentsOf: "\\/".utf8)
        case 0x0A: out.append(contentsOf: "\\n".utf8)
        case 0x0D: out.append(contentsOf: "\\r".utf8)
        case 0x09: out.append(contentsOf: "\\t".utf8)
        case 0x08: out.append(contentsOf: "\\b".utf8)
        case 0x0C: out.append(contentsOf: "\\f".utf8)
        default:
            let hex = String(b, radix: 16)
            out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
        }
    }
}

/// The key order Foundation sorts by for `plutil -convert json` and `plutil -p`: case-insensitive,
/// digit runs compared as numbers, exact order as the tie-break.
enum FoundationKeyOrder {
    static func precedes(_ a: String, _ b: String) -> Bool {
        asciiPrecedes(a, b) ?? unicodePrecedes(a, b)
    }

    /// The order on Unicode scalars and their properties.
    static func unicodePrecedes(_ a: String, _ b: String) -> Bool {
        var i = a.unicodeScalars.makeIterator(), j = b.unicodeScalars.makeIterator()
        var x = i.next(), y = j.next()
        while let cx = x, let cy = y {
            if cx.properties.numericType != nil, cy.properties.numericType != nil,
               let dx = cx.properties.numericValue, let dy = cy.properties.numericValue {
                // Compare whole digit runs by value.
                var nx = dx, ny = dy
                x = i.next(); y = j.next()
                while let c = x, let d = c.properties.numericValue, c.properties.numericType != nil { nx = nx * 10 + d; x = i.next() }
                while let c = y, let d = c.properties.numericValue, c.properties.numericType != nil { ny = ny * 10 + d; y = j.next() }
                if nx != ny { return nx < ny }
                continue
            }
            let lx = cx.properties.lowercaseMapping, ly = cy.properties.lowercaseMapping
            if lx != ly { return lx.unicodeScalars.lexicographicallyPrecedes(ly.unicodeScalars) { $0.value < $1.value } }
            x = i.next(); y = j.next()
        }
        if (x == nil) != (y == nil) { return x == nil }
        return PropertyListKeyOrder.precedes(a, b)
    }

    /// The same order for two ASCII keys, on bytes (`nil` when either is not ASCII): the Unicode
    /// properties above cost a lookup each, and report keys are ASCII. In ASCII only `0`–`9` have
    /// a numeric value and only `A`–`Z` a different lowercase mapping.
    static func asciiPrecedes(_ a: String, _ b: String) -> Bool? {
        var first = a, second = b
        return first.withUTF8 { x in
            second.withUTF8 { y -> Bool? in
                guard x.allSatisfy({ $0 < 0x80 }), y.allSatisfy({ $0 < 0x80 }) else { return nil }
                func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
                func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c + 0x20 : c }
                var i = 0, j = 0
                while i < x.count, j < y.count {
                    if isDigit(x[i]), isDigit(y[j]) {
                        // Whole digit runs by value, as doubles like the general path.
                        var nx = 0.0, ny = 0.0
                        while i < x.count, isDigit(x[i]) { nx = nx * 10 + Double(x[i] - 0x30); i += 1 }
                        while j < y.count, isDigit(y[j]) { ny = ny * 10 + Double(y[j] - 0x30); j += 1 }
                        if nx != ny { return nx < ny }
                        continue
                    }
                    let lx = lower(x[i]), ly = lower(y[j])
                    if lx != ly { return lx < ly }
                    i += 1; j += 1
                }
                if (i < x.count) != (j < y.count) { return i >= x.count }
                return PropertyListKeyOrder.precedes(a, b)
            }
        }
    }
}
