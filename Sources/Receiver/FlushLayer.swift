#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The calls that make the receiver's work durable: `fsync` of a file and of a folder.
///
/// Every durability step of a move goes through one of these two, so a test can stand in for the
/// disk: fail them (`EIO`, case 27 of ../shared/inbox-fault-cases.md) or record what was flushed
/// and rebuild what a power loss would leave (case 10). Both return 0 or -1 with `errno`, as
/// `fsync(2)` does.
public struct FlushLayer: Sendable {
    /// Flushes a regular file's data and metadata.
    public var file: @Sendable (Int32) -> Int32
    /// Flushes a folder's entries.
    public var folder: @Sendable (Int32) -> Int32

    /// A layer from two functions (for tests).
    public init(file: @escaping @Sendable (Int32) -> Int32, folder: @escaping @Sendable (Int32) -> Int32) {
        self.file = file
        self.folder = folder
    }

    /// The real thing: `fsync(2)` for both.
    public static let system = FlushLayer(file: { fsync($0) }, folder: { fsync($0) })
}
