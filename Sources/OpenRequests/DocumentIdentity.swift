import SystemCalls

/// A delivered file's identity: inode, device and size. A rename keeps all three, so the
/// receiver knows the file whatever name the Inbox gave it.
public struct DocumentIdentity: Sendable, Hashable {
    public var inode: UInt64
    public var device: UInt64
    public var size: Int64

    /// An identity.
    public init(inode: UInt64, device: UInt64, size: Int64) {
        self.inode = inode
        self.device = device
        self.size = size
    }

    /// The identity of a file with this status.
    public init(_ status: FileStatus) {
        self.init(inode: status.inode, device: status.device, size: status.size)
    }
}
