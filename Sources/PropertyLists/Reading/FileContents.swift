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

    /// Writes `bytes` to `path` through a temporary file renamed over it, so a reader never sees
    /// a half-written file; `-` writes standard output.
    public static func write(_ bytes: [UInt8], to path: FilePath) throws(Failure) {
        do {
            if path.string == "-" {
                _ = try FileDescriptor.standardOutput.writeAll(bytes)
                return
            }
            let temporary = FilePath(path.string + ".tmp-\(getpidValue())")
            let fd = try FileDescriptor.open(temporary, .writeOnly, options: [.create, .truncate, .exclusiveCreate],
                                             permissions: [.ownerReadWrite, .groupRead, .otherRead])
            do {
                try fd.closeAfter { _ = try fd.writeAll(bytes) }
                try renameFile(temporary, path)
            } catch {
                _ = try? unlinkFile(temporary)
                throw error
            }
        } catch let errno as Errno {
            throw Failure(message: "\(path): \(errno)")
        } catch {
            throw Failure(message: "\(path): \(error)")
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

private func getpidValue() -> Int32 { getpid() }

/// Renames `from` over `to`. The corresponding C function is `rename`.
private func renameFile(_ from: FilePath, _ to: FilePath) throws(Errno) {
    let result = from.withPlatformString { f in to.withPlatformString { t in rename(f, t) } }
    if result != 0 { throw Errno(rawValue: errno) }
}

/// Removes a file. The corresponding C function is `unlink`.
private func unlinkFile(_ path: FilePath) throws(Errno) {
    if path.withPlatformString({ unlink($0) }) != 0 { throw Errno(rawValue: errno) }
}
