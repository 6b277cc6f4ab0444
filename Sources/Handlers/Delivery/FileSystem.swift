import CSystemShims
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The few file-system calls the handlers need beyond swift-system, as thin wrappers over the C
/// library (swift-system has no directory listing, `stat`, `fchmod` or `renameat2`).
enum FileSystem {
    /// File status, following links. The corresponding C function is `stat`.
    static func status(_ path: String) -> stat? {
        var info = stat()
        return stat(path, &info) == 0 ? info : nil
    }

    static func isDirectoryPath(_ path: String) -> Bool { status(path).map { $0.st_mode & S_IFMT == S_IFDIR } ?? false }

    static func isRegularFile(_ path: String) -> Bool { status(path).map { $0.st_mode & S_IFMT == S_IFREG } ?? false }

    /// The names in a directory, without `.` and `..`; empty when it cannot be read.
    static func names(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var result: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { result.append(name) }
        }
        return result
    }

    /// Creates `path` and its missing parents with `mode`.
    static func makeDirectories(_ path: String, mode: mode_t = 0o755) throws(HandlerError) {
        if isDirectoryPath(path) { return }
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex { try makeDirectories(String(path[..<slash]), mode: mode) }
        if mkdir(path, mode) != 0 && errno != EEXIST { throw .system("cannot create \(path)", errno) }
    }

    /// Renames without ever replacing: `false` when `newName` exists. The corresponding call is
    /// `renameat2(…, RENAME_NOREPLACE)`.
    static func renameWithoutReplacing(from oldDirectory: Int32, _ oldName: String, to newDirectory: Int32, _ newName: String) throws(HandlerError) -> Bool {
        if di_rename_noreplace(oldDirectory, oldName, newDirectory, newName) == 0 { return true }
        if errno == EEXIST { return false }
        throw .system("cannot rename \(oldName) to \(newName)", errno)
    }

    /// Whether an executable named `program` is on `PATH`.
    static func commandExists(_ program: String) -> Bool {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { access(String($0) + "/" + program, X_OK) == 0 }
    }
}
