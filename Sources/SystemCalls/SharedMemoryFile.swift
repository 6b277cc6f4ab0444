#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Hashing

/// A file mapped read-write and shared: every process that maps it sees the others' stores at
/// once (a table of names, locks and counters kept in memory, not sent through a daemon). The
/// file is made complete before anyone can open it: built under a temporary name, initialised,
/// then renamed into place, with creation serialised by a lock on a side file (`NAME.lock`).
/// A file that is not valid (another layout, left from another boot) is replaced the same way.
package final class SharedMemoryFile: @unchecked Sendable {
    /// The first byte, as an integer (a pointer is not `Sendable`).
    let address: Int
    /// The length in bytes.
    package let count: Int
    /// The path of the file.
    package let path: String

    /// The mapped bytes.
    package var base: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: address)! }

    /// Maps the file at `path`, `size` bytes long, creating it when it is missing or when
    /// `isValid` refuses its contents; a new file is filled by `initialize` (its bytes start as
    /// zeros) before it gets its name. The folder must exist. The corresponding C functions are
    /// `open`, `flock`, `ftruncate`, `mmap` and `rename`.
    package init(path: String, size: Int, isValid: (UnsafeRawPointer) -> Bool,
                 initialize: (UnsafeMutableRawPointer) throws(SystemCallError) -> Void) throws(SystemCallError) {
        self.path = path
        count = size
        // A fast path without the side lock: the file exists and is valid.
        if let pointer = Self.mapExisting(path, size: size, isValid: isValid) {
            address = Int(bitPattern: pointer)
            return
        }
        let guardFile = try OwnedDescriptor.open(path + ".lock", .readWrite, options: [.create, .noFollow], permissions: 0o600)
        _ = try guardFile.withRaw { (raw) throws(SystemCallError) -> Int32 in try invoke(.flock, path: path + ".lock") { flock(raw, LOCK_EX) } }
        // Under the lock, look again: another process may have made it meanwhile.
        if let pointer = Self.mapExisting(path, size: size, isValid: isValid) {
            address = Int(bitPattern: pointer)
            return
        }
        let slash = path.lastIndex(of: "/")
        let folderPath = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let folder = try OwnedDescriptor.openFolder(folderPath, followLinks: true)
        let temporary = try TemporaryFile(in: folder, prefix: "." + name + ".new-")
        do throws(SystemCallError) {
            try temporary.file.truncate(to: Int64(size))
            let pointer = try Self.map(temporary.file, size: size)
            do throws(SystemCallError) {
                try initialize(pointer)
                try folder.renameReplacing(temporary.name, to: folder, as: Array(name.utf8))
            } catch {
                munmap(pointer, size)
                throw error
            }
            address = Int(bitPattern: pointer)
        } catch {
            try? folder.remove(temporary.name)
            throw error
        }
    }

    /// The file at `path` mapped, when it exists, has `size` bytes and `isValid` accepts it.
    private static func mapExisting(_ path: String, size: Int, isValid: (UnsafeRawPointer) -> Bool) -> UnsafeMutableRawPointer? {
        guard let file = try? OwnedDescriptor.open(path, .readWrite, options: [.noFollow]),
              (try? file.status().size) == Int64(size), let pointer = try? map(file, size: size) else { return nil }
        if isValid(UnsafeRawPointer(pointer)) { return pointer }
        munmap(pointer, size)
        return nil
    }

    /// A table with the common header: magic (8 bytes) at 0, version (4) at 8, the boot it was
    /// made in at 16 (``bootIdentifier``), a random id at 24 (``tableID``), and the table's
    /// robust mutex at 64 (``tableMutex``); `initialize` fills the rest. A file of another
    /// layout, version or boot is replaced.
    package static func table(path: String, size: Int, magic: UInt64, version: UInt32,
                              initialize: (UnsafeMutableRawPointer) throws(SystemCallError) -> Void) throws(SystemCallError) -> SharedMemoryFile {
        try SharedMemoryFile(path: path, size: size, isValid: { base in
            base.load(as: UInt64.self) == magic && base.load(fromByteOffset: 8, as: UInt32.self) == version
                && base.load(fromByteOffset: 16, as: UInt64.self) == bootIdentifier
        }, initialize: { (base) throws(SystemCallError) in
            base.storeBytes(of: version, toByteOffset: 8, as: UInt32.self)
            base.storeBytes(of: bootIdentifier, toByteOffset: 16, as: UInt64.self)
            var generator = SystemRandomNumberGenerator()
            base.storeBytes(of: generator.next(), toByteOffset: 24, as: UInt64.self)
            try SharedMutex.initialize(at: base + 64)
            try initialize(base)
            // The magic last: a file renamed into place is complete, whatever the order of stores.
            base.storeBytes(of: magic, toByteOffset: 0, as: UInt64.self)
        })
    }

    /// The random id of a ``table(path:size:magic:version:initialize:)``.
    package var tableID: UInt64 { base.load(fromByteOffset: 24, as: UInt64.self) }
    /// The robust mutex of a ``table(path:size:magic:version:initialize:)``.
    package var tableMutex: SharedMutex { SharedMutex(at: base + 64) }

    private static func map(_ file: OwnedDescriptor, size: Int) throws(SystemCallError) -> UnsafeMutableRawPointer {
        if let forced = FaultInjection.failure(of: .mmap, path: file.path) { throw SystemCallError(.mmap, path: file.path, errno: forced) }
        return try file.withRaw { (raw) throws(SystemCallError) -> UnsafeMutableRawPointer in
            guard let pointer = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, raw, 0), pointer != MAP_FAILED else {
                throw SystemCallError(.mmap, path: file.path, errno: .init(rawValue: errno))
            }
            return pointer
        }
    }

    deinit { munmap(UnsafeMutableRawPointer(bitPattern: address), count) }

    /// An identifier of this boot of the machine (`/proc/sys/kernel/random/boot_id`, 16 bytes
    /// of it): shared memory written before a reboot holds lock words of processes that no
    /// longer exist, so tables record the boot they were made in.
    package static let bootIdentifier: UInt64 = {
        guard let bytes = try? FileSystem.read("/proc/sys/kernel/random/boot_id") else { return 0 }
        return FNV1a64.hash(bytes.filter { $0 != 0x0A })
    }()
}
