import SystemPackage

/// Whole-file reads and writes through swift-system, so tools need not load Foundation.
public enum FileContents {
    /// A file-system failure with the path and the system's reason.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// `PATH: reason`.
        public var message: String
        /// The same as ``message``.
        public var description: String { message }
    }

    /// Reads the whole file at `path`; `-` reads standard input.
    public static func read(_ path: FilePath) throws(Failure) -> [UInt8] {
        do {
            if path.string == "-" { return try readAll(.standardInput) }
            let fd = try FileDescriptor.open(path, .readOnly)
            return try fd.closeAfter { try readAll(fd) }
        } catch let errno as Errno {
            throw Failure(message: "\(path): \(errno)")
        } catch {
            throw Failure(message: "\(path): \(error)")
        }
    }

    private static func readAll(_ fd: FileDescriptor) throws -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try fd.read(into: $0) }
            if n == 0 { return result }
            result.append(contentsOf: chunk[..<n])
            if result.count > 64 << 10, chunk.count < 1 << 22 { chunk = [UInt8](repeating: 0, count: chunk.count * 4) }
        }
    }

    /// Writes `bytes` to `path` atomically: a unique temporary file in the same folder (`mkstemp`),
    /// written, flushed to disk, then renamed over `path`, so a reader never sees a half-written
    /// file and two writers at once each rename a complete one. `-` writes standard output.
    public static func write(_ bytes: [UInt8], to path: FilePath) throws(Failure) {
        if path.string == "-" {
            do { _ = try FileDescriptor.standardOutput.writeAll(bytes) } catch { throw Failure(message: "standard output: \(error)") }
            return
        }
        func failure(_ what: String, _ code: Int32) -> Failure { Failure(message: "\(what): \(Errno(rawValue: code))") }
        var template = Array((path.string + ".tmp-XXXXXX").utf8CString)
        let raw = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard raw >= 0 else { throw failure(path.string, errno) }
        let temporary = String(decoding: template.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let fd = FileDescriptor(rawValue: raw)
        do {
            _ = try fd.writeAll(bytes)
            fchmod(raw, 0o644)
            guard fsync(raw) == 0 else { throw Errno(rawValue: errno) }
            try fd.close()
        } catch {
            _ = try? fd.close()
            unlink(temporary)
            throw Failure(message: "\(temporary): \(error)")
        }
        guard rename(temporary, path.string) == 0 else {
            let code = errno
            unlink(temporary)
            throw failure(path.string, code)
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

