import CSystemShims
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Calls on paths (for the ones relative to an open folder, see ``OwnedDescriptor``).
package enum FileSystem {
    /// The status of `path`, following links; `nil` when it cannot be looked at. The
    /// corresponding C function is `stat`.
    package static func status(_ path: String) -> FileStatus? {
        var info = stat()
        return stat(path, &info) == 0 ? FileStatus(info) : nil
    }

    /// The status of `path`, following links, or why it cannot be looked at. The corresponding C
    /// function is `stat`.
    package static func statusOrError(_ path: String) throws(SystemCallError) -> FileStatus {
        var info = stat()
        _ = try invoke(.stat, path: path) { stat(path, &info) }
        return FileStatus(info)
    }

    /// The status of `path` itself, a link not followed. The corresponding C function is `lstat`.
    package static func linkStatus(_ path: String) -> FileStatus? {
        var info = stat()
        return lstat(path, &info) == 0 ? FileStatus(info) : nil
    }

    /// The raw `stat` of `path` (for fingerprints that hash it).
    package static func rawStatus(_ path: String) -> stat? {
        var info = stat()
        return stat(path, &info) == 0 ? info : nil
    }

    /// The bytes an unprivileged process can still write on the file system holding `path`. The
    /// corresponding C function is `statvfs`.
    package static func availableBytes(_ path: String) throws(SystemCallError) -> Int64 {
        var info = Glibc.statvfs()
        _ = try invoke(.statvfs, path: path) { di_statvfs(path, &info) }
        return Int64(clamping: UInt64(info.f_bavail).multipliedReportingOverflow(by: UInt64(info.f_frsize)).partialValue)
    }

    /// Whether `path` is a regular file (following links).
    package static func isRegularFile(_ path: String) -> Bool { status(path)?.kind == .regular }

    /// Whether `path` is a folder (following links).
    package static func isDirectory(_ path: String) -> Bool { status(path)?.kind == .directory }

    /// Whether something exists at `path` (a dangling link counts).
    package static func exists(_ path: String) -> Bool { linkStatus(path) != nil }

    /// Whether `path` is a file this process may execute. The corresponding C function is `access`.
    package static func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 && isRegularFile(path) }

    /// The names in the folder at `path` (without `.` and `..`), as strings; none when it cannot be read.
    package static func entries(of directory: String) -> [String] {
        var names: [String] = []
        forEachEntry(of: directory) { name, _ in
            if !(name.count == 1 && name[0] == 0x2E) && !(name.count == 2 && name[0] == 0x2E && name[1] == 0x2E) {
                names.append(String(decoding: name, as: UTF8.self))
            }
        }
        return names
    }

    /// Calls `body` with each entry's name bytes (`.` and `..` included) and inode number;
    /// nothing happens for a folder that cannot be opened. The corresponding C functions are
    /// `opendir` and `readdir`.
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

    /// Creates `path` and its missing parents (relative to the working folder when `path` is
    /// relative). The corresponding C function is `mkdir`.
    package static func makeDirectories(_ path: String, permissions: UInt32 = 0o755) throws(SystemCallError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            current += "/" + component
            do {
                _ = try invoke(.mkdir, path: current) { mkdir(current, mode_t(permissions)) }
            } catch where error.errno == .fileExists {
                guard isDirectory(current) else { throw SystemCallError(.mkdir, path: current, errno: .notDirectory) }
            }
        }
    }

    /// Removes the file or empty folder at `path`. The corresponding C functions are `unlink` and `rmdir`.
    package static func remove(_ path: String) throws(SystemCallError) {
        _ = try invoke(.unlinkat, path: path) { unlinkat(AT_FDCWD, path, linkStatus(path)?.kind == .directory ? AT_REMOVEDIR : 0) }
    }

    /// Removes `path` and everything below it, not following links.
    package static func removeTree(_ path: String) throws(SystemCallError) {
        if linkStatus(path)?.kind == .directory {
            for name in entries(of: path) { try removeTree(path + "/" + name) }
        }
        guard exists(path) else { return }
        try remove(path)
    }

    /// Renames `from` to `to`, replacing it. The corresponding C function is `rename`.
    package static func rename(_ from: String, to: String) throws(SystemCallError) {
        _ = try invoke(.renameat, path: from) { Glibc.rename(from, to) }
    }

    /// Creates a symbolic link at `path` pointing to `target`. The corresponding C function is `symlink`.
    package static func makeSymbolicLink(at path: String, pointingTo target: String) throws(SystemCallError) {
        _ = try invoke(.symlink, path: path) { symlink(target, path) }
    }

    /// What the link at `path` points to. The corresponding C function is `readlink`.
    package static func linkTarget(_ path: String) throws(SystemCallError) -> String {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4096) { (buffer) throws(SystemCallError) -> String in
            let n = try invoke(.readlink, path: path) { readlink(path, buffer.baseAddress!, 4095) }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<n]), as: UTF8.self)
        }
    }

    /// Flushes the folder at `path` (its entries). The corresponding C function is `fsync`.
    package static func syncFolder(_ path: String) throws(SystemCallError) {
        try OwnedDescriptor.openFolder(path, followLinks: true).sync()
    }

    /// Reads the whole file at `path`.
    package static func read(_ path: String) throws(SystemCallError) -> [UInt8] {
        let file = try OwnedDescriptor.open(path, .readOnly)
        return try file.readAll(sizeHint: Int((try? file.status().size) ?? 0))
    }
}
