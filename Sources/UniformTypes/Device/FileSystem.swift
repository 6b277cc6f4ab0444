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
