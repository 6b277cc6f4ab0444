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

    /// The file's status when it was mapped.
    package let status: FileStatus
    /// The extended attribute asked for when mapping, as it was then (`nil`: none).
    package let attribute: [UInt8]?
    /// The open file, kept when an attribute was asked for: it is set on this very file, not on
    /// whatever the path names by then.
    private let descriptor: OwnedDescriptor?

    /// Maps the file at `path`, and reads its extended attribute `attribute` if one is named.
    /// The corresponding C function is `mmap`.
    package init(path: String, attribute name: String? = nil) throws(SystemCallError) {
        let file = try OwnedDescriptor.open(path, .readOnly)
        status = try file.status()
        let size = Int(status.size)
        guard size > 0 else {
            throw SystemCallError(.mmap, path: path, errno: .invalidArgument)
        }
        if let forced = FaultInjection.failure(of: .mmap, path: path) { throw SystemCallError(.mmap, path: path, errno: forced) }
        guard let pointer = mmap(nil, size, PROT_READ, MAP_PRIVATE, file.raw, 0), pointer != MAP_FAILED else {
            throw SystemCallError(.mmap, path: path, errno: .init(rawValue: errno))
        }
        address = Int(bitPattern: pointer)
        count = size
        attribute = name.flatMap { file.extendedAttribute($0) }
        descriptor = name == nil ? nil : file
    }

    /// Sets the extended attribute `name` on the mapped file (asked for when mapping); whether it
    /// could be set.
    @discardableResult
    package func setAttribute(_ name: String, _ value: [UInt8]) -> Bool {
        (try? descriptor?.setExtendedAttribute(name, value)) != nil
    }

    deinit { munmap(UnsafeMutableRawPointer(bitPattern: address), count) }
}
