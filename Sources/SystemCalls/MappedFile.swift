#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A whole file mapped read-only into memory (private mapping: later changes to the file by
/// rename do not reach it), unmapped when the last reference goes.
package final class MappedFile: Sendable {
    /// The first byte, as an integer (a pointer is not `Sendable`).
    let address: Int
    /// The length in bytes.
    package let count: Int

    /// The mapped bytes.
    package var base: UnsafeRawPointer { UnsafeRawPointer(bitPattern: address)! }

    /// Maps the file at `path`. The corresponding C function is `mmap`.
    package init(path: String) throws(SystemCallError) {
        let file = try OwnedDescriptor.open(path, .readOnly)
        let size = Int(try file.status().size)
        guard size > 0 else {
            throw SystemCallError(.mmap, path: path, errno: .invalidArgument)
        }
        if let forced = FaultInjection.failure(of: .mmap, path: path) { throw SystemCallError(.mmap, path: path, errno: forced) }
        guard let pointer = mmap(nil, size, PROT_READ, MAP_PRIVATE, file.raw, 0), pointer != MAP_FAILED else {
            throw SystemCallError(.mmap, path: path, errno: .init(rawValue: errno))
        }
        address = Int(bitPattern: pointer)
        count = size
    }

    deinit { munmap(UnsafeMutableRawPointer(bitPattern: address), count) }
}
