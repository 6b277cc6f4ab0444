import PropertyLists
import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Unbuffered writes to standard output and standard error through swift-system.
enum Output {
    static func text(_ s: String) { _ = try? FileDescriptor.standardOutput.writeAll(s.utf8) }
    static func line(_ s: String) { text(s + "\n") }
    static func error(_ s: String) { _ = try? FileDescriptor.standardError.writeAll((s + "\n").utf8) }
}

/// Number text for `-extract … raw`.
enum NumberText {
    /// C's `%f`, which Apple's plutil prints for reals.
    static func fixed(_ value: Double) -> String {
        var buffer = [CChar](repeating: 0, count: 400)
        let count = withVaList([value]) { args in
            buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, 400, "%f", args) }
        }
        return String(decoding: buffer[..<Int(min(count, 399))].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

