#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The few file-system calls the type engine and the handlers need, as thin wrappers over the C
/// library. (swift-system has no directory listing or `stat`; these follow its style.) Shared
/// within the package, not part of the public API.
package enum FileSystem {
    /// File status, following links. The corresponding C function is `stat`.
    package static func status(_ path: String) -> stat? {
        var info = stat()
        return stat(path, &info) == 0 ? info : nil
    }

    package static func isRegularFile(_ path: String) -> Bool {
        guard let info = status(path) else { return false }
        return info.st_mode & S_IFMT == S_IFREG
    }

    package static func isDirectory(_ path: String) -> Bool {
        guard let info = status(path) else { return false }
        return info.st_mode & S_IFMT == S_IFDIR
    }

    package static func entries(of directory: String) -> [String] {
        var names: [String] = []
        forEachEntry(of: directory) { name, _ in
            if !(name.count == 1 && name[0] == 0x2E) && !(name.count == 2 && name[0] == 0x2E && name[1] == 0x2E) {
                names.append(String(decoding: name, as: UTF8.self))
            }
        }
        return names
    }

    /// Calls `body` with each entry's name bytes (without the NUL; `.` and `..` included) and
    /// inode number, straight from the directory buffer. The corresponding C calls are
    /// `opendir`/`readdir`; nothing happens for a folder that cannot be opened.
    package static func forEachEntry(of directory: String, _ body: (UnsafeRawBufferPointer, UInt64) -> Void) {
        guard let dir = opendir(directory) else { return }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let inode = UInt64(entry.pointee.d_ino)
            withUnsafeBytes(of: entry.pointee.d_name) { raw in
                body(UnsafeRawBufferPointer(rebasing: raw[..<(raw.firstIndex(of: 0) ?? raw.count)]), inode)
            }
        }
    }

    /// Creates a directory and its parents (relative to the working directory when `path` is
    /// relative). The corresponding C function is `mkdir`.
    package static func makeDirectories(_ path: String, mode: mode_t = 0o755) throws(FileSystemError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            current += "/" + component
            if mkdir(current, mode) != 0 && errno != EEXIST { throw FileSystemError(path: current, errno: errno) }
        }
    }
}

/// A failed file-system call.
public struct FileSystemError: Error, Sendable, CustomStringConvertible {
    /// The path involved.
    public var path: String
    /// What the system said.
    public var reason: String

    /// From a C `errno`.
    public init(path: String, errno: Int32) {
        self.path = path
        self.reason = String(cString: strerror(errno))
    }

    /// From a message that already names the path.
    public init(_ message: String) {
        self.path = ""
        self.reason = message
    }

    /// `PATH: reason`.
    public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
}
