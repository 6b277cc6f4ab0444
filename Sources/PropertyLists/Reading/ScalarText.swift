import ExtrasBase64
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Conversions from the text of XML scalar elements to values, shared by the readers and by
/// `plutil -insert`. Each returns a message on failure; callers add the location.
enum ScalarText {
    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var s = bytes
        while let f = s.first, isSpace(f) { s.removeFirst() }
        while let l = s.last, isSpace(l) { s.removeLast() }
        return s
    }

    /// `<integer>`: optional sign, decimal or `0x` hexadecimal, within Int64 or (positive) UInt64,
    /// as CoreFoundation accepts.
    static func integer(_ raw: ArraySlice<UInt8>) -> Result<PropertyList, ScalarError> {
        var s = trimmed(raw)
        guard !s.isEmpty else { return .failure(.init("empty <integer>")) }
        var negative = false
        if s.first == UInt8(ascii: "-") || s.first == UInt8(ascii: "+") {
            negative = s.first == UInt8(ascii: "-")
            s.removeFirst()
        }
        var radix: UInt64 = 10
        if s.count > 2, s.first == UInt8(ascii: "0"), s[s.startIndex + 1] | 0x20 == UInt8(ascii: "x") {
            radix = 16
            s.removeFirst(2)
        }
        guard !s.isEmpty else { return .failure(.init("<integer> has no digits")) }
        var magnitude: UInt64 = 0
        for b in s {
            let digit: UInt64
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(b - 48)
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt64(b - 87)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = UInt64(b - 55)
            default: return .failure(.init("<integer> contains '\(printable(b))', which is not a digit"))
            }
            let (m1, o1) = magnitude.multipliedReportingOverflow(by: radix)
            let (m2, o2) = m1.addingReportingOverflow(digit)
            if o1 || o2 { return .failure(.init("<integer> \(String(decoding: raw, as: UTF8.self)) does not fit in 64 bits")) }
            magnitude = m2
        }
        if negative {
            if magnitude > UInt64(Int64.max) + 1 {
                return .failure(.init("<integer> \(String(decoding: raw, as: UTF8.self)) is below the 64-bit minimum"))
            }
            return .success(.integer(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)))
        }
        return .success(magnitude <= UInt64(Int64.max) ? .integer(Int64(magnitude)) : .unsignedInteger(magnitude))
    }

    /// `<real>`: what C's `strtod` reads (so `nan`, `inf`, `+infinity`, `-inf`, hex floats), the
    /// whole text and nothing else, as CoreFoundation does.
    static func real(_ raw: ArraySlice<UInt8>) -> Result<Double, ScalarError> {
        let s = trimmed(raw)
        guard !s.isEmpty else { return .failure(.init("empty <real>")) }
        guard s.count < 512 else { return .failure(.init("<real> is too long to be a number")) }
        var text = Array(s)
        text.append(0)
        return text.withUnsafeBufferPointer { buffer -> Result<Double, ScalarError> in
            let start = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            var end: UnsafeMutablePointer<CChar>? = nil
            let value = strtod(start, &end)
            guard let end, end - UnsafeMutablePointer(mutating: start) == s.count else {
                return .failure(.init("<real> \(String(decoding: s, as: UTF8.self)) is not a number"))
            }
            return .success(value)
        }
    }

    /// `<date>`: exactly `YYYY-MM-DDTHH:MM:SSZ` with every field in range.
    static func date(_ raw: ArraySlice<UInt8>) -> Result<PropertyListDate, ScalarError> {
        let s = trimmed(raw)
        guard let date = PropertyListDate(iso8601: String(decoding: s, as: UTF8.self)) else {
            return .failure(.init("<date> \(String(decoding: s, as: UTF8.self)) is not a valid YYYY-MM-DDTHH:MM:SSZ date"))
        }
        return .success(date)
    }

    /// `<data>`: base64 with any white space between characters (Xcode and plistlib wrap lines
    /// and indent them with tabs); padding is required.
    static func data(_ raw: ArraySlice<UInt8>) -> Result<[UInt8], ScalarError> {
        var compact: [UInt8] = []
        compact.reserveCapacity(raw.count)
        for b in raw where !isSpace(b) { compact.append(b) }
        if let bad = compact.firstIndex(where: { !isBase64($0) }) {
            return .failure(.init("<data> holds '\(printable(compact[bad]))', which is not a base64 character"))
        }
        guard let decoded = try? Base64.decode(bytes: compact) else {
            return .failure(.init("<data> has \(compact.count) base64 characters, not a multiple of 4 with correct padding"))
        }
        return .success(decoded)
    }

    static func isBase64(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="): true
        default: false
        }
    }

    static func printable(_ b: UInt8) -> String {
        (0x20..<0x7F).contains(b) ? String(UnicodeScalar(b)) : "\\x" + String(b, radix: 16)
    }
}

/// A scalar's text that does not convert; the reader adds where it was.
struct ScalarError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
