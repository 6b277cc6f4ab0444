#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A descriptor somebody else owns and closes (one handed over by a caller of a public API that
/// takes a raw descriptor): the same typed calls as ``OwnedDescriptor``, without the closing.
package struct BorrowedDescriptor: Sendable {
    /// The caller's descriptor, valid for as long as the caller keeps it open.
    let raw: Int32

    /// Borrows `raw`; the caller keeps it open while this is used.
    package init(_ raw: Int32) { self.raw = raw }

    /// The file's status. The corresponding C function is `fstat`.
    package func status() throws(SystemCallError) -> FileStatus {
        var info = stat()
        _ = try invoke(.fstat) { fstat(raw, &info) }
        return FileStatus(info)
    }

    /// Reads up to `buffer.count` bytes at `offset`, leaving the file offset alone. The
    /// corresponding C function is `pread`.
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(SystemCallError) -> Int {
        try invoke(.read) { pread(raw, buffer.baseAddress, buffer.count, off_t(offset)) }
    }
}
