import Hashing
import SystemCalls
import UniformTypes

/// What a query checks to know that a compiled registry is current: the catalog folder (its
/// status, and each `.plist` entry's name and inode from the listing), the `Apps/` folder (its
/// modification time changes whenever an app is registered, unregistered or registered again)
/// and, for each `mime` folder of the shared MIME database, its `packages/` folder (a package
/// added, removed or replaced) and its `mime.cache` (which `update-mime-database` replaces after
/// every package change, so a package rewritten in place is seen once the database is updated, as
/// every package manager does): eight `stat` calls and one directory read with the default XDG
/// folders, whatever the number of catalog files, apps and packages.
///
/// A catalog file replaced by a rename (package managers, most editors) or added or removed is
/// seen; one rewritten in place keeps its inode and the folder's time, and is picked up by
/// `uti rebuild`. Likewise, as with `lsregister` on macOS, an edit to the Info.plist of an app
/// that is already registered is picked up when it is registered again or by `uti rebuild`.
/// (Checking every catalog file and every registered Info.plist cost 58 and 3,000 `stat` calls;
/// the latter 7.8 ms per query with 1,000 apps here.)
enum RegistryFingerprint {
    /// The fingerprint of the sources of `root`'s registry with `catalog` and the shared MIME
    /// database's `mime` folders (`nil`: the machine's, ``SharedMIMEDatabase/mimeDirectories()``;
    /// `[]`: none).
    static func of(root: DeviceRoot, catalog: String?, mimeDirectories: [String]? = nil) -> [UInt8] {
        var out: [UInt8] = []
        if let catalog {
            // The folder's own status changes whenever a file is added, removed or replaced by a
            // rename; each file's inode comes from the listing itself. One `stat` and one
            // `getdents` instead of a `stat` per file.
            append(catalog, FileSystem.status(catalog), to: &out)
            // Each `.plist` entry's name and inode hashed (FNV-1a) and combined in an order-free
            // way (count, sum, xor), straight from the directory buffer: no strings, no sort.
            var count: UInt64 = 0, sum: UInt64 = 0, mixed: UInt64 = 0
            FileSystem.forEachEntry(of: catalog) { name, inode in
                let length = name.count
                guard length > 6, name[length - 6] == 0x2E, name[length - 5] == 0x70, name[length - 4] == 0x6C,
                      name[length - 3] == 0x69, name[length - 2] == 0x73, name[length - 1] == 0x74 else { return }   // ".plist"
                var hasher = FNV1a64()
                hasher.combine(name)
                for k in 0..<8 { hasher.combine(UInt8(truncatingIfNeeded: inode >> (8 * UInt64(k)))) }
                let hash = hasher.value
                count &+= 1
                sum &+= hash
                mixed ^= hash &* 0x9E37_79B9_7F4A_7C15
            }
            for value in [count, sum, mixed] { withUnsafeBytes(of: value.littleEndian) { out += $0 } }
            out.append(0x0A)
        }
        append(root.appsDirectory, FileSystem.status(root.appsDirectory), to: &out)
        for directory in mimeDirectories ?? SharedMIMEDatabase.mimeDirectories() {
            let packages = directory + "/packages", cache = directory + "/mime.cache"
            append(packages, FileSystem.status(packages), to: &out)
            append(cache, FileSystem.status(cache), to: &out)
        }
        return out
    }

    private static func append(_ path: String, _ info: FileStatus?, to out: inout [UInt8]) {
        out += path.utf8
        out.append(0)
        if let info {
            for value in [UInt64(info.size), UInt64(bitPattern: info.modified.seconds), UInt64(bitPattern: info.modified.nanoseconds), info.inode] {
                withUnsafeBytes(of: value.littleEndian) { out += $0 }
            }
        }
        out.append(0x0A)
    }
}
