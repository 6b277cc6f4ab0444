#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Number spellings shared by the writers.
enum NumberFormatting {
    /// C's `%.17g`: what CoreFoundation writes for `<real>`, enough digits to read back exactly.
    static func seventeenDigits(_ value: Double) -> String {
        var buffer = [CChar](repeating: 0, count: 40)
        let count = withVaList([value]) { args in
            buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, 40, "%.17g", args) }
        }
        return String(decoding: buffer[..<Int(count)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The `<real>` text CoreFoundation writes: `%.17g`, `nan`, `+infinity`, `-infinity`, and
    /// `0.0` for zero (we keep the sign of negative zero: `-0.0`).
    static func xmlReal(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-infinity" : "+infinity" }
        if value == 0 { return value.sign == .minus ? "-0.0" : "0.0" }
        return seventeenDigits(value)
    }

    /// The shortest text that reads back as the same double and as a real, for JSON: integral
    /// values keep a fraction (`2.0`, `-0.0`), large and small ones an exponent (`1e+21`).
    static func shortestReal(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e17 {
            return value == 0 && value.sign == .minus ? "-0.0" : String(Int64(value)) + ".0"
        }
        return value.description
    }
}
