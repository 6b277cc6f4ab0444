#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// Descriptors a library owns (a display connection) waited on with ``Poll`` beside our own.
extension OwnedDescriptor {
    /// Takes a copy of a descriptor this process does not own (a library's connection), so that
    /// it can be waited on with ``Poll``. The corresponding C function is `fcntl(F_DUPFD_CLOEXEC)`.
    package static func duplicate(borrowing raw: Int32) throws(SystemCallError) -> OwnedDescriptor {
        OwnedDescriptor(taking: try invoke(.fcntl) { fcntl(raw, F_DUPFD_CLOEXEC, 0) })
    }
}
