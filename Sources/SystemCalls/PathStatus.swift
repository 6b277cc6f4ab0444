#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension FileSystem {
    /// The status of the NUL-terminated path at `path`, following links; `nil` when it cannot be
    /// looked at. For callers that keep many paths in one buffer (a memory-mapped index) and
    /// check them all per query: no `String` is built. The corresponding C function is `stat`.
    package static func status(cString path: UnsafePointer<CChar>) -> FileStatus? {
        var info = stat()
        return stat(path, &info) == 0 ? FileStatus(info) : nil
    }
}
