/// The text forms of a `<match>`'s attributes, turned into bytes as `update-mime-database` does.
///
/// - `string` values are text with escapes: `\n \r \t \b \f \v \\`, `\xHH` (one or two hex
///   digits), `\NNN` (one to three octal digits); any other escaped character stands for itself.
///   A string mask is a hexadecimal number (`0xFFFF00FF`) with one byte per value byte.
/// - `byte`, `big16`, `big32`, `little16`, `little32`, `host16`, `host32` values and masks are C
///   integers (decimal, `0x` hex or `0` octal) written in that width and byte order; host order is
///   this machine's (little-endian on every Linux port the project builds for).
enum MIMEMagicValue {
    enum Kind: Sendable {
        case string, byte, big16, big32, little16, little32, host16, host32

        init(_ text: String) throws(MIMEMagicValueError) {
            switch text {
            case "string": self = .string
            case "byte": self = .byte
            case "big16": self = .big16
            case "big32": self = .big32
            case "little16": self = .little16
            case "little32": self = .little32
            case "host16": self = .host16
            case "host32": self = .host32
            default: throw MIMEMagicValueError("unknown match type '\(text)'")
            }
        }

        /// Bytes per number (nil for strings).
        var width: Int? {
            switch self {
            case .string: nil
            case .byte: 1
            case .big16, .little16, .host16: 2
            case .big32, .little32, .host32: 4
            }
        }

        var isBigEndian: Bool {
            switch self {
            case .big16, .big32: true
            case .host16, .host32: UInt16(1).bigEndian == 1
            default: false
            }
        }
    }

    static func bytes(_ text: String, kind: Kind) throws(MIMEMagicValueError) -> [UInt8] {
        guard let width = kind.width else { return try unescaped(text) }
        return try number(text, width: width, bigEndian: kind.isBigEndian, what: "value")
    }

    static func mask(_ text: String, kind: Kind, length: Int) throws(MIMEMagicValueError) -> [UInt8] {
        if let width = kind.width { return try number(text, width: width, bigEndian: kind.isBigEndian, what: "mask") }
        var digits = Substring(text)
        guard digits.hasPrefix("0x") || digits.hasPrefix("0X") else { throw MIMEMagicValueError("string mask '\(text)' is not hexadecimal (0x…)") }
        digits = digits.dropFirst(2)
        guard digits.count == 2 * length else {
            throw MIMEMagicValueError("string mask '\(text)' has \(digits.count / 2) bytes for a \(length)-byte value")
        }
        var out: [UInt8] = []
        var i = digits.startIndex
        while i < digits.endIndex {
            let next = digits.index(i, offsetBy: 2)
            guard let byte = UInt8(digits[i..<next], radix: 16) else { throw MIMEMagicValueError("string mask '\(text)' is not hexadecimal") }
            out.append(byte)
            i = next
        }
        return out
    }

    /// `N` or `N:M` (inclusive): the first offset and how many offsets are tried.
    static func offsets(_ text: String) throws(MIMEMagicValueError) -> (start: Int, length: Int) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, let start = Int(parts[0]), start >= 0, start <= 1 << 30 else {
            throw MIMEMagicValueError("offset '\(text)' is not N or N:M")
        }
        guard parts.count == 2 else { return (start, 1) }
        guard let end = Int(parts[1]), end >= start, end <= 1 << 30 else { throw MIMEMagicValueError("offset range '\(text)' ends before it starts") }
        return (start, end - start + 1)
    }

    private static func number(_ text: String, width: Int, bigEndian: Bool, what: String) throws(MIMEMagicValueError) -> [UInt8] {
        var digits = Substring(text)
        var radix = 10
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { radix = 16; digits = digits.dropFirst(2) }
        else if digits.count > 1, digits.hasPrefix("0") { radix = 8; digits = digits.dropFirst() }
        guard let value = UInt64(digits, radix: radix) else { throw MIMEMagicValueError("\(what) '\(text)' is not a number") }
        guard width == 8 || value >> UInt64(8 * width) == 0 else {
            throw MIMEMagicValueError("\(what) '\(text)' does not fit in \(width) byte\(width == 1 ? "" : "s")")
        }
        let little = (0..<width).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * $0)) }
        return bigEndian ? little.reversed() : little
    }

    private static func unescaped(_ text: String) throws(MIMEMagicValueError) -> [UInt8] {
        let input = Array(text.utf8)
        var out: [UInt8] = []
        var i = 0
        func isOctal(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x37 }
        func hex(_ b: UInt8) -> UInt8? {
            switch b {
            case 0x30...0x39: b - 0x30
            case 0x41...0x46: b - 0x41 + 10
            case 0x61...0x66: b - 0x61 + 10
            default: nil
            }
        }
        while i < input.count {
            let b = input[i]
            guard b == 0x5C else { out.append(b); i += 1; continue }   // backslash
            i += 1
            guard i < input.count else { throw MIMEMagicValueError("string value '\(text)' ends with a lone backslash") }
            let c = input[i]
            switch c {
            case UInt8(ascii: "n"): out.append(0x0A); i += 1
            case UInt8(ascii: "r"): out.append(0x0D); i += 1
            case UInt8(ascii: "t"): out.append(0x09); i += 1
            case UInt8(ascii: "b"): out.append(0x08); i += 1
            case UInt8(ascii: "f"): out.append(0x0C); i += 1
            case UInt8(ascii: "v"): out.append(0x0B); i += 1
            case UInt8(ascii: "x"):
                i += 1
                guard i < input.count, let high = hex(input[i]) else { throw MIMEMagicValueError("string value '\(text)' has \\x without hex digits") }
                var value = high
                i += 1
                if i < input.count, let low = hex(input[i]) { value = value << 4 | low; i += 1 }
                out.append(value)
            case _ where isOctal(c):
                var value = 0, n = 0
                while n < 3, i < input.count, isOctal(input[i]) { value = value * 8 + Int(input[i] - 0x30); i += 1; n += 1 }
                guard value <= 0xFF else { throw MIMEMagicValueError("string value '\(text)' has an octal escape above \\377") }
                out.append(UInt8(value))
            default: out.append(c); i += 1
            }
        }
        return out
    }
}

/// Why a magic attribute could not be read.
struct MIMEMagicValueError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
