#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension OwnedDescriptor {
    /// Opens the folder at the NUL-terminated `path` only to look names up in it (`O_PATH`,
    /// following links); `nil` when it cannot be opened. The corresponding C function is `open`.
    package static func lookupFolder(cString path: UnsafePointer<CChar>) -> OwnedDescriptor? {
        let fd = Glibc.open(path, OpenOptions.pathOnly.rawValue | O_DIRECTORY | O_CLOEXEC)
        return fd < 0 ? nil : OwnedDescriptor(taking: fd)
    }

    /// The status of the NUL-terminated `name` in this folder, following links; `nil` when it
    /// cannot be looked at. One path component to resolve instead of a whole path: checking
    /// thousands of files of a few folders costs about half as much (measured: 5 against 10 ms for 2,650). The corresponding C function
    /// is `fstatat`.
    package func status(ofCString name: UnsafePointer<CChar>) -> FileStatus? {
        var info = stat()
        return withRaw { fstatat($0, name, &info, 0) } == 0 ? FileStatus(info) : nil
    }
}
