import CSystemShims
import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An open file descriptor that is closed when the last reference to it goes: a descriptor cannot
/// leak on an early return or a thrown error. Its path (when it was opened by one) is kept for
/// error messages.
///
/// Every call retries on `EINTR`, throws ``SystemCallError`` and can be made to fail in tests
/// (``FaultInjection``).
package final class OwnedDescriptor: Sendable {
    /// The raw descriptor, valid while this object lives. Outside this type it is reached only
    /// through ``withRaw(_:)``: an object may be released right after its last use, so a bare
    /// number read from it could be closed before the call that uses it.
    let raw: Int32
    /// The path it was opened by, for messages.
    package let path: String?

    /// Takes ownership of `raw`.
    package init(taking raw: Int32, path: String? = nil) {
        self.raw = raw
        self.path = path
    }

    deinit { _ = Glibc.close(raw) }

    /// Opens `path`. The corresponding C function is `open`.
    package static func open(_ path: String, _ mode: AccessMode, options: OpenOptions = [], permissions: UInt32 = 0o644) throws(SystemCallError) -> OwnedDescriptor {
        let fd = try openRetryingWithoutNoAccessTime(mode, options, path: path) { flags in Glibc.open(path, flags, mode_t(permissions)) }
        return OwnedDescriptor(taking: fd, path: path)
    }

    /// Opens `name` in this folder (never resolved against the working folder, so a renamed or
    /// replaced parent cannot redirect it). The corresponding C function is `openat`.
    package func open(_ name: [UInt8], _ mode: AccessMode, options: OpenOptions = [], permissions: UInt32 = 0o644) throws(SystemCallError) -> OwnedDescriptor {
        let shown = child(name)
        let fd: Int32 = try withCString(name) { (cName) throws(SystemCallError) -> Int32 in
            try Self.openRetryingWithoutNoAccessTime(mode, options, path: shown) { flags in openat(raw, cName, flags, mode_t(permissions)) }
        }
        return OwnedDescriptor(taking: fd, path: shown)
    }

    /// `O_NOATIME` is refused (`EPERM`) to anyone but the file's owner: then the open is made
    /// without it.
    private static func openRetryingWithoutNoAccessTime(_ mode: AccessMode, _ options: OpenOptions, path: String,
                                                        _ call: (Int32) -> Int32) throws(SystemCallError) -> Int32 {
        let flags = mode.flags | options.rawValue | O_CLOEXEC
        do {
            return try invoke(.open, path: path) { call(flags) }
        } catch where options.contains(.noAccessTime) && error.errno == .notPermitted {
            return try invoke(.open, path: path) { call(flags & ~di_o_noatime) }
        }
    }

    /// The path of `name` in this folder, for messages.
    package func child(_ name: [UInt8]) -> String {
        (path.map { $0 + "/" } ?? "") + DisplayName.of(name)
    }

    // MARK: Reading and writing

    /// Reads up to `buffer.count` bytes; 0 at the end. The corresponding C function is `read`.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int {
        try invoke(.read, path: path) { Glibc.read(raw, buffer.baseAddress, buffer.count) }
    }

    /// Reads up to `buffer.count` bytes at `offset`, leaving the file offset alone. The
    /// corresponding C function is `pread`.
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(SystemCallError) -> Int {
        try invoke(.read, path: path) { pread(raw, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    /// Reads to the end.
    package func readAll(sizeHint: Int = 1 << 16) throws(SystemCallError) -> [UInt8] {
        var capacity = max(4096, min(sizeHint + 1, 1 << 26))
        var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        var count = 0
        while true {
            if count == capacity {
                let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity * 2, alignment: 16)
                larger.copyMemory(from: UnsafeRawBufferPointer(buffer))
                buffer.deallocate()
                buffer = larger
                capacity *= 2
            }
            let n = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]))
            if n == 0 { return Array(UnsafeRawBufferPointer(rebasing: buffer[..<count])) }
            count += n
        }
    }

    /// Writes every byte, retrying short writes. The corresponding C function is `write`.
    package func writeAll(_ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
        var offset = 0
        while offset < bytes.count {
            let n = try invoke(.write, path: path) { Glibc.write(raw, bytes.baseAddress! + offset, bytes.count - offset) }
            offset += n
        }
    }

    /// Writes every byte of `bytes`.
    package func writeAll(_ bytes: [UInt8]) throws(SystemCallError) {
        // `Array.withUnsafeBytes` rethrows untyped errors: the failure is carried out by hand.
        var failure: SystemCallError?
        bytes.withUnsafeBytes { raw in
            do throws(SystemCallError) { try writeAll(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Writes every byte of `bytes` at `offset`, leaving the file offset alone. The
    /// corresponding C function is `pwrite`.
    package func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(SystemCallError) {
        var done = 0
        while done < bytes.count {
            let n = try invoke(.write, path: path) { pwrite(raw, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done)) }
            done += n
        }
    }

    // MARK: Status and metadata

    /// The file's status. The corresponding C function is `fstat`.
    package func status() throws(SystemCallError) -> FileStatus {
        var info = stat()
        _ = try invoke(.fstat, path: path) { fstat(raw, &info) }
        return FileStatus(info)
    }

    /// The value of the extended attribute `name` (`user.…`), or `nil` when the file has none or
    /// its file system keeps none. The corresponding C function is `fgetxattr`.
    package func extendedAttribute(_ name: String, maximumSize: Int = 256) -> [UInt8]? {
        var value = [UInt8](repeating: 0, count: maximumSize)
        let count = value.withUnsafeMutableBytes { fgetxattr(raw, name, $0.baseAddress, $0.count) }
        guard count >= 0 else { return nil }
        return Array(value[..<count])
    }

    /// Sets the extended attribute `name` to `value`. The corresponding C function is `fsetxattr`.
    package func setExtendedAttribute(_ name: String, _ value: [UInt8]) throws(SystemCallError) {
        _ = try invoke(.xattr, path: path) { value.withUnsafeBytes { fsetxattr(raw, name, $0.baseAddress, $0.count, 0) } }
    }

    /// Flushes the file's data and metadata (or a folder's entries) to the disk. The
    /// corresponding C function is `fsync`.
    package func sync() throws(SystemCallError) {
        _ = try invoke(.fsync, path: path) { fsync(raw) }
        FaultInjection.succeeded(.fsync, descriptor: raw)
    }

    /// Starts writing the file's dirty pages from `offset` for `length` bytes to the disk and
    /// returns without waiting for them: a later ``sync()`` then has less left to wait for. Not a
    /// flush by itself (no metadata, no disk cache). The corresponding C function is
    /// `sync_file_range` with `SYNC_FILE_RANGE_WRITE`.
    package func startWriteback(from offset: Int64, length: Int64) throws(SystemCallError) {
        _ = try invoke(.syncFileRange, path: path) { di_start_writeback(raw, off_t(offset), off_t(length)) }
    }

    /// Sets the permission bits. The corresponding C function is `fchmod`.
    package func setPermissions(_ permissions: UInt32) throws(SystemCallError) {
        _ = try invoke(.fchmod, path: path) { fchmod(raw, mode_t(permissions)) }
    }

    /// Sets the access and modification times. The corresponding C function is `futimens`.
    package func setTimes(accessed: FileTime, modified: FileTime) throws(SystemCallError) {
        var times = [accessed.timespec, modified.timespec]
        _ = try invoke(.futimens, path: path) { futimens(raw, &times) }
    }

    /// Cuts or extends the file to `size` bytes. The corresponding C function is `ftruncate`.
    package func truncate(to size: Int64) throws(SystemCallError) {
        _ = try invoke(.ftruncate, path: path) { ftruncate(raw, off_t(size)) }
    }

    /// Whether another process has this file open for writing: a read lease is granted only when
    /// none does (and released at once). `false` also when leases are not allowed here (not the
    /// file's owner): then nobody can be told apart. The corresponding C call is
    /// `fcntl(F_SETLEASE)`.
    package func hasOtherWriter() -> Bool {
        if FaultInjection.failure(of: .lease, path: path) != nil { return true }
        return di_no_other_writer(raw) != 0 && errno == EAGAIN
    }

    /// A second descriptor for the same open file. The corresponding C function is `dup`
    /// (`F_DUPFD_CLOEXEC`).
    package func duplicate() throws(SystemCallError) -> OwnedDescriptor {
        OwnedDescriptor(taking: try invoke(.open, path: path) { fcntl(raw, F_DUPFD_CLOEXEC, 0) }, path: path)
    }

    /// A second descriptor for the same open file, owned by the caller from now on: for a library
    /// that takes a raw descriptor and closes it itself (SwiftNIO's `withConnectedSocket`). The
    /// corresponding C function is `dup` (`F_DUPFD_CLOEXEC`).
    package func duplicateForHandOff() throws(SystemCallError) -> Int32 {
        try invoke(.open, path: path) { fcntl(raw, F_DUPFD_CLOEXEC, 0) }
    }

    /// Calls `body` with the raw descriptor, keeping it open until `body` returns.
    package func withRaw<R, E: Error>(_ body: (Int32) throws(E) -> R) throws(E) -> R {
        defer { withExtendedLifetime(self) {} }
        return try body(raw)
    }

    /// Whether the descriptor is a terminal. The corresponding C function is `isatty`.
    package var isTerminal: Bool { isatty(raw) != 0 }
}
