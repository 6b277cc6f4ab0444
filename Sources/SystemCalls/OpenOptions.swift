import CSystemShims
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How a file is opened: read, write or both.
package enum AccessMode: Sendable {
    case readOnly, writeOnly, readWrite

    var flags: Int32 {
        switch self {
        case .readOnly: O_RDONLY
        case .writeOnly: O_WRONLY
        case .readWrite: O_RDWR
        }
    }
}

/// Flags for ``OwnedDescriptor/open(_:_:options:permissions:)``. Every descriptor is opened
/// close-on-exec: a started app must not inherit our files.
package struct OpenOptions: OptionSet, Sendable {
    package let rawValue: Int32
    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// `O_CREAT`.
    package static let create = OpenOptions(rawValue: O_CREAT)
    /// `O_EXCL`: with `create`, fail when the name exists.
    package static let exclusive = OpenOptions(rawValue: O_EXCL)
    /// `O_TRUNC`.
    package static let truncate = OpenOptions(rawValue: O_TRUNC)
    /// `O_APPEND`.
    package static let append = OpenOptions(rawValue: O_APPEND)
    /// `O_NOFOLLOW`: a symbolic link as the last component fails with `ELOOP`.
    package static let noFollow = OpenOptions(rawValue: O_NOFOLLOW)
    /// `O_DIRECTORY`.
    package static let directory = OpenOptions(rawValue: O_DIRECTORY)
    /// `O_NONBLOCK`: a FIFO without a writer does not block the open.
    package static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
    /// `O_NOCTTY`.
    package static let noControllingTerminal = OpenOptions(rawValue: O_NOCTTY)
    /// `O_NOATIME`: reading does not dirty the access time. Only the file's owner may ask; for
    /// anyone else the open is retried without it.
    package static let noAccessTime = OpenOptions(rawValue: di_o_noatime)
}
