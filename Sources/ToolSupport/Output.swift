import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Unbuffered writes to standard output and standard error through swift-system, shared by the
/// command-line tools.
public enum Output {
    /// Writes `s` to standard output.
    public static func text(_ s: String) { _ = try? FileDescriptor.standardOutput.writeAll(s.utf8) }
    /// Writes `s` and a newline to standard output.
    public static func line(_ s: String) { text(s + "\n") }
    /// Writes `s` and a newline to standard error.
    public static func error(_ s: String) { _ = try? FileDescriptor.standardError.writeAll((s + "\n").utf8) }
}

/// Number text for tools.
public enum NumberText {
    /// C's `%f`, which Apple's plutil prints for reals.
    public static func fixed(_ value: Double) -> String {
        var buffer = [CChar](repeating: 0, count: 400)
        let count = withVaList([value]) { args in
            buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, 400, "%f", args) }
        }
        return String(decoding: buffer[..<Int(min(count, 399))].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

