#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The few file-system calls the type engine needs, as thin wrappers over the C library.
/// (swift-system has no directory listing or `stat`; these follow its style.)
enum FileSystem {
    /// File status, following links. The corresponding C function is `stat`.
    static func status(_ path: String) -> stat? {
        var info = stat()
        return stat(path, &info) == 0 ? info : nil
    }

    static func isRegularFile(_ path: String) -> Bool {
        guard let info = status(path) else { return false }
        return info.st_mode & S_IFMT == S_IFREG
    }

    static func isDirectory(_ path: String) -> Bool {
        guard let info = status(path) else { return false }
        return info.st_mode & S_IFMT == S_IFDIR
    }

    /// The names in a directory, without `.` and `..`; empty when it cannot be read.
    /// The corresponding C functions are `opendir` and `readdir`.
    static func entries(of directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Creates a directory and its parents. The corresponding C function is `mkdir`.
    static func makeDirectories(_ path: String) throws(FileSystemError) {
        var current = ""
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            current += "/" + component
            if mkdir(current, 0o755) != 0 && errno != EEXIST { throw FileSystemError(path: current, errno: errno) }
        }
    }

    /// Writes `bytes` to `path` atomically: a unique temporary file in the same folder, flushed,
    /// then renamed over `path`. Two writers at once each rename a complete file; one wins.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(FileSystemError) {
        var template = Array((path + ".tmp-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw FileSystemError(path: path, errno: errno) }
        let temporary = String(decoding: template.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, bytes.count - written) }
            if n < 0 { if errno == EINTR { continue }; let e = errno; close(fd); unlink(temporary); throw FileSystemError(path: temporary, errno: e) }
            written += n
        }
        fchmod(fd, 0o644)
        guard fsync(fd) == 0, close(fd) == 0 else { let e = errno; unlink(temporary); throw FileSystemError(path: temporary, errno: e) }
        guard rename(temporary, path) == 0 else { let e = errno; unlink(temporary); throw FileSystemError(path: path, errno: e) }
    }
}

/// A failed file-system call.
public struct FileSystemError: Error, Sendable, CustomStringConvertible {
    /// The path involved.
    public var path: String
    /// The C `errno`.
    public var errno: Int32
    /// `PATH: reason`.
    public var description: String { "\(path): \(String(cString: strerror(errno)))" }
}
