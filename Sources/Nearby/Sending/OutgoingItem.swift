import Crypto
import SystemCalls

/// A file to send: its path, the name and type the receiver is told, its size and SHA-256
/// (computed here, before the ask, so the receiver can check what arrives).
public struct OutgoingItem: Sendable {
    /// The file.
    public var path: String
    /// The name sent (the file's own).
    public var name: String
    /// Its uniform type identifier.
    public var type: String
    /// Its size.
    public var size: Int64
    /// Its SHA-256.
    public var sha256: [UInt8]

    /// Reads the file at `path` once to size and hash it.
    public init(path: String, type: String) throws(NearbyError) {
        let file: OwnedDescriptor
        let status: FileStatus
        do {
            file = try OwnedDescriptor.open(path, .readOnly, options: [.noControllingTerminal])
            status = try file.status()
        } catch { throw .system(error) }
        guard status.kind == .regular else { throw .notAFile(path) }
        var hasher = SHA256()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var offset: Int64 = 0
        while true {
            let n: Int
            do { n = try file.read(into: buffer, at: offset) } catch { throw .system(error) }
            if n == 0 { break }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[..<n]))
            offset += Int64(n)
        }
        guard offset == status.size else { throw .connection("\(path) changed while it was read") }
        self.path = path
        self.name = String(path.split(separator: "/").last ?? Substring(path))
        self.type = type
        self.size = offset
        self.sha256 = Array(hasher.finalize())
    }

    /// The offer the ask carries.
    var offer: ItemOffer { ItemOffer(name: name, type: type, size: size, sha256: sha256) }
}
