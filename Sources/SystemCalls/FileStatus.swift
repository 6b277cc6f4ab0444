#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What kind of file system object a name refers to.
public enum FileKind: Sendable, Hashable {
    case regular, directory, symbolicLink, fifo, socket, characterDevice, blockDevice, unknown

    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFLNK: self = .symbolicLink
        case S_IFIFO: self = .fifo
        case S_IFSOCK: self = .socket
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        default: self = .unknown
        }
    }

    /// A phrase with its article, for messages ("a symbolic link").
    public var phrase: String {
        switch self {
        case .regular: "a regular file"
        case .directory: "a folder"
        case .symbolicLink: "a symbolic link"
        case .fifo: "a FIFO"
        case .socket: "a socket"
        case .characterDevice, .blockDevice: "a device node"
        case .unknown: "not a regular file"
        }
    }
}

/// A point in time as the file system records it: seconds and nanoseconds since 1970.
public struct FileTime: Sendable, Hashable, Comparable {
    /// Whole seconds.
    public var seconds: Int64
    /// Nanoseconds within the second.
    public var nanoseconds: Int64

    /// Seconds since 1970 as a `Double`.
    public var secondsSince1970: Double { Double(seconds) + Double(nanoseconds) / 1e9 }

    init(_ ts: timespec) {
        seconds = Int64(ts.tv_sec)
        nanoseconds = Int64(ts.tv_nsec)
    }

    var timespec: timespec { Glibc.timespec(tv_sec: Int(seconds), tv_nsec: Int(nanoseconds)) }

    public static func < (a: FileTime, b: FileTime) -> Bool { (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds) }
}

/// A file's status (`struct stat`), in Swift terms.
public struct FileStatus: Sendable, Hashable {
    /// What it is.
    public var kind: FileKind
    /// The permission bits, with set-id and sticky bits (`st_mode & 07777`).
    public var permissions: UInt32
    /// Size in bytes.
    public var size: Int64
    /// Inode number and device: together, the file's identity while it exists.
    public var inode: UInt64
    public var device: UInt64
    /// Number of hard links.
    public var linkCount: Int
    /// Owner.
    public var owner: UInt32
    /// Last modification of the contents, and last change of the inode (renames, modes, links).
    public var modified: FileTime
    public var changed: FileTime

    init(_ raw: stat) {
        kind = FileKind(mode: raw.st_mode)
        permissions = UInt32(raw.st_mode) & 0o7777
        size = Int64(raw.st_size)
        inode = UInt64(raw.st_ino)
        device = UInt64(raw.st_dev)
        linkCount = Int(raw.st_nlink)
        owner = UInt32(raw.st_uid)
        modified = FileTime(raw.st_mtim)
        changed = FileTime(raw.st_ctim)
    }

    /// Whether `other` is the same file as when this status was taken: same inode, kind, size and
    /// modification time (a freed inode number is soon given to a new file, so the inode alone is
    /// not enough). The change time is not compared: a rename changes it.
    public func isSameFile(as other: FileStatus) -> Bool {
        inode == other.inode && device == other.device && kind == other.kind && size == other.size && modified == other.modified
    }
}
