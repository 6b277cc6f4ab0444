import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Unbuffered writes to standard output and standard error through swift-system, shared by the
/// command-line tools.
package enum Output {
    /// Writes `s` to standard output.
    package static func text(_ s: String) { write(s, to: .standardOutput) }
    /// Writes `s` and a newline to standard output.
    package static func line(_ s: String) { text(s + "\n") }
    /// Writes `s` and a newline to standard error.
    package static func error(_ s: String) { write(s + "\n", to: .standardError) }
    /// Writes `s` to standard error as it is (progress lines).
    package static func errorText(_ s: String) { write(s, to: .standardError) }

    /// Writes every byte, retrying short writes. (The buffer form of `write`: the generic
    /// `writeAll(_:)` instantiates type metadata at run time, a measurable part of a query process.)
    private static func write(_ s: String, to descriptor: FileDescriptor) {
        var s = s
        s.withUTF8 { bytes in
            var rest = UnsafeRawBufferPointer(bytes)
            while !rest.isEmpty {
                guard let written = try? descriptor.write(rest), written > 0 else { return }
                rest = UnsafeRawBufferPointer(rebasing: rest[written...])
            }
        }
    }
}

/// Number text for tools.
package enum NumberText {
    /// C's `%f`, which Apple's plutil prints for reals.
    package static func fixed(_ value: Double) -> String {
        var buffer = [CChar](repeating: 0, count: 400)
        let count = withVaList([value]) { args in
            buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, 400, "%f", args) }
        }
        return String(decoding: buffer[..<Int(min(count, 399))].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}


/// The command-line arguments, read from `argv` directly.
package enum ProcessArguments {
    /// The arguments after the program name. (`CommandLine.arguments` builds its array through a
    /// generic path that instantiates type metadata at run time; a query process notices.)
    package static func afterProgramName() -> ArraySlice<String> {
        var result: [String] = []
        result.reserveCapacity(Int(CommandLine.argc))
        var index = 1
        while index < Int(CommandLine.argc) {
            if let pointer = CommandLine.unsafeArgv[index] { result.append(String(cString: pointer)) }
            index += 1
        }
        return result[...]
    }
}
