#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whole files replaced atomically: a reader sees the old contents or the new, never a mix, and
/// after a crash the file is one or the other.
package enum AtomicFile {
    /// Writes `bytes` to `path`: a unique temporary file in the same folder, written, flushed,
    /// renamed over `path`, then the folder flushed (so the new name survives a power loss).
    /// With `durable` false nothing is flushed: still atomic for readers, but a power loss may
    /// lose the file (for messages that are worthless after a crash, and where `fsync` would be
    /// most of the cost).
    package static func write(_ bytes: [UInt8], to path: String, permissions: UInt32 = 0o644, durable: Bool = true) throws(SystemCallError) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let directory = try OwnedDescriptor.openFolder(folder, followLinks: true)
        let temporary = try TemporaryFile(in: directory, prefix: "." + name + ".tmp-")
        do {
            try temporary.file.writeAll(bytes)
            try temporary.file.setPermissions(permissions)
            if durable { try temporary.file.sync() }
            try directory.renameReplacing(temporary.name, to: directory, as: Array(name.utf8))
        } catch {
            try? directory.remove(temporary.name)
            throw error
        }
        if durable { try directory.sync() }
    }
}

extension AtomicFile {
    /// Replaces the file at `path` with `bytes` only if it still exists, atomically: a reader sees
    /// the old contents or the new, and a file someone removed meanwhile is not brought back (a
    /// consumer that took it is never given a second copy). Returns whether it was replaced.
    /// The exchange is `renameat2(RENAME_EXCHANGE)`; the old contents go with the temporary name.
    @discardableResult
    package static func replaceIfPresent(_ bytes: [UInt8], at path: String, permissions: UInt32 = 0o644) throws(SystemCallError) -> Bool {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = Array((slash.map { String(path[path.index(after: $0)...]) } ?? path).utf8)
        let directory = try OwnedDescriptor.openFolder(folder, followLinks: true)
        let temporary = try TemporaryFile(in: directory, prefix: "." + String(decoding: name, as: UTF8.self) + ".tmp-")
        defer { try? directory.remove(temporary.name) }
        try temporary.file.writeAll(bytes)
        try temporary.file.setPermissions(permissions)
        try temporary.file.sync()
        do {
            try directory.exchange(temporary.name, with: directory, name)
        } catch where error.errno == .noSuchFileOrDirectory {
            return false
        }
        try directory.sync()
        return true
    }
}

/// A new, uniquely named file in a folder, open for writing (created `O_EXCL`, so two processes
/// never share one). The caller renames it into place or removes it.
package struct TemporaryFile {
    /// Its name in the folder.
    package var name: [UInt8]
    /// The open file.
    package var file: OwnedDescriptor

    /// Creates `PREFIX` + random letters in `folder`.
    package init(in folder: OwnedDescriptor, prefix: String, permissions: UInt32 = 0o600) throws(SystemCallError) {
        var generator = SystemRandomNumberGenerator()
        var attempt = 0
        while true {
            let suffix = String(generator.next() & 0xFFFF_FFFF_FFFF, radix: 36)
            let candidate = Array((prefix + suffix).utf8)
            do {
                file = try folder.open(candidate, .readWrite, options: [.create, .exclusive, .noFollow], permissions: permissions)
                name = candidate
                return
            } catch where error.errno == .fileExists && attempt < 100 {
                attempt += 1
            }
        }
    }
}
