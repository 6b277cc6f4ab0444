import Crypto
import SystemCalls

/// A file to send: its path, the name and type the receiver is told, and its size. Its SHA-256 is
/// computed while it is sent (``SessionMessage/uploaded(item:sha256:)``), not in a pass before.
public struct OutgoingItem: Sendable {
    /// The file.
    public var path: String
    /// The name sent (the file's own).
    public var name: String
    /// Its uniform type identifier.
    public var type: String
    /// Its size.
    public var size: Int64
    /// What identifies this version of the file (device, inode, size, modification time): an
    /// unfinished send of the same versions continues (``Outbox``).
    var version: String

    /// The file at `path`, which must be a readable regular file.
    public init(path: String, type: String) throws(NearbyError) {
        let status: FileStatus
        do {
            let file = try OwnedDescriptor.open(path, .readOnly, options: [.noControllingTerminal])
            status = try file.status()
        } catch { throw .system(error) }
        guard status.kind == .regular else { throw .notAFile(path) }
        self.path = path
        self.name = String(path.split(separator: "/").last ?? Substring(path))
        self.type = type
        self.size = status.size
        self.version = "\(status.device):\(status.inode):\(status.size):\(status.modified.seconds).\(status.modified.nanoseconds)"
    }

    /// The offer the ask carries.
    var offer: ItemOffer { ItemOffer(name: name, type: type, size: size) }
}
