import CSystemShims
import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// Calls on names inside an open folder. Names are bytes: a hostile name need not be valid UTF-8
// and must reach the system unchanged.
extension OwnedDescriptor {
    /// Opens the folder at `path` for the calls below (no link followed at its last component).
    package static func openFolder(_ path: String, followLinks: Bool = false) throws(SystemCallError) -> OwnedDescriptor {
        try open(path, .readOnly, options: followLinks ? [.directory] : [.directory, .noFollow])
    }

    /// The status of `name` in this folder, not following a link; `nil` when there is no such
    /// name. The corresponding C function is `fstatat`.
    package func status(of name: [UInt8]) throws(SystemCallError) -> FileStatus? {
        var info = stat()
        do {
            _ = try withCString(name) { (cName) throws(SystemCallError) -> Int32 in
                try invoke(.lstat, path: child(name)) { fstatat(raw, cName, &info, AT_SYMLINK_NOFOLLOW) }
            }
        } catch where error.errno == .noSuchFileOrDirectory {
            return nil
        }
        return FileStatus(info)
    }

    /// Renames `name` here to `newName` in `folder`, never replacing: fails with `EEXIST` when
    /// the new name is taken. The corresponding call is `renameat2(RENAME_NOREPLACE)`.
    package func rename(_ name: [UInt8], to folder: OwnedDescriptor, as newName: [UInt8]) throws(SystemCallError) {
        _ = try withCString(name) { (old) throws(SystemCallError) -> Int32 in
            try withCString(newName) { (new) throws(SystemCallError) -> Int32 in
                try invoke(.renameat2, path: child(name)) { di_rename_noreplace(raw, old, folder.raw, new) }
            }
        }
    }

    /// Swaps `name` here and `newName` in `folder` atomically: each name then holds what the other
    /// held. Fails with `ENOENT` when either name is gone. The corresponding call is
    /// `renameat2(RENAME_EXCHANGE)`.
    package func exchange(_ name: [UInt8], with folder: OwnedDescriptor, _ newName: [UInt8]) throws(SystemCallError) {
        _ = try withCString(name) { (old) throws(SystemCallError) -> Int32 in
            try withCString(newName) { (new) throws(SystemCallError) -> Int32 in
                try invoke(.renameat2, path: child(name)) { di_rename_exchange(raw, old, folder.raw, new) }
            }
        }
    }

    /// Renames `name` here to `newName` in `folder`, replacing what is there. The corresponding C
    /// function is `renameat`.
    package func renameReplacing(_ name: [UInt8], to folder: OwnedDescriptor, as newName: [UInt8]) throws(SystemCallError) {
        _ = try withCString(name) { (old) throws(SystemCallError) -> Int32 in
            try withCString(newName) { (new) throws(SystemCallError) -> Int32 in
                try invoke(.renameat, path: child(name)) { renameat(raw, old, folder.raw, new) }
            }
        }
    }

    /// Gives the file `name` here a second name `newName` in `folder` (`link` never replaces).
    /// The corresponding C function is `linkat`.
    package func link(_ name: [UInt8], to folder: OwnedDescriptor, as newName: [UInt8]) throws(SystemCallError) {
        _ = try withCString(name) { (old) throws(SystemCallError) -> Int32 in
            try withCString(newName) { (new) throws(SystemCallError) -> Int32 in
                try invoke(.linkat, path: folder.child(newName)) { linkat(raw, old, folder.raw, new, 0) }
            }
        }
    }

    /// Removes the name `name` (a folder with `folder: true`). The corresponding C function is `unlinkat`.
    package func remove(_ name: [UInt8], folder: Bool = false) throws(SystemCallError) {
        _ = try withCString(name) { (cName) throws(SystemCallError) -> Int32 in
            try invoke(.unlinkat, path: child(name)) { unlinkat(raw, cName, folder ? AT_REMOVEDIR : 0) }
        }
    }

    /// Creates the folder `name` here; `false` when it exists already. The corresponding C
    /// function is `mkdirat`.
    @discardableResult
    package func makeFolder(_ name: [UInt8], permissions: UInt32 = 0o755) throws(SystemCallError) -> Bool {
        do {
            _ = try withCString(name) { (cName) throws(SystemCallError) -> Int32 in
                try invoke(.mkdir, path: child(name)) { mkdirat(raw, cName, mode_t(permissions)) }
            }
            return true
        } catch where error.errno == .fileExists {
            return false
        }
    }

    /// The names in this folder (without `.` and `..`), as the directory lists them. A duplicate
    /// descriptor is read from the start, so the listing can be repeated. The corresponding C
    /// functions are `fdopendir` and `readdir`.
    package func entryNames() throws(SystemCallError) -> [[UInt8]] {
        var names: [[UInt8]] = []
        try forEachEntry { name, _ in
            if !(name.count == 1 && name[0] == 0x2E) && !(name.count == 2 && name[0] == 0x2E && name[1] == 0x2E) {
                names.append(Array(name))
            }
        }
        return names
    }

    /// Calls `body` with each entry's name bytes (`.` and `..` included) and inode number,
    /// straight from the directory buffer.
    package func forEachEntry(_ body: (UnsafeRawBufferPointer, UInt64) -> Void) throws(SystemCallError) {
        let copy = try invoke(.getdents, path: path) { fcntl(raw, F_DUPFD_CLOEXEC, 0) }
        guard let dir = fdopendir(copy) else {
            let code = errno
            _ = Glibc.close(copy)
            throw SystemCallError(.getdents, path: path, errno: Errno(rawValue: code))
        }
        defer { closedir(dir) }
        // A duplicate shares the original's offset: an earlier listing left it at the end.
        rewinddir(dir)
        while let entry = readdir(dir) {
            let inode = UInt64(entry.pointee.d_ino)
            withUnsafeBytes(of: entry.pointee.d_name) { raw in
                body(UnsafeRawBufferPointer(rebasing: raw[..<(raw.firstIndex(of: 0) ?? raw.count)]), inode)
            }
        }
    }
}

/// Printable names for messages.
package enum DisplayName {
    /// Valid UTF-8 as it is, other bytes as `\xNN`.
    package static func of(_ name: [UInt8]) -> String {
        if let text = String(validating: name, as: UTF8.self) { return text }
        var out = ""
        for byte in name {
            if byte >= 0x20 && byte < 0x80 { out.unicodeScalars.append(Unicode.Scalar(byte)) } else {
                out += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16)
            }
        }
        return out
    }
}
