import Crypto
import SystemCalls

/// An item's bytes on their way into the spool, for every protocol the receiver speaks: written
/// at their place, hashed as they come, never one byte past the declared size, pushed towards the
/// disk as they arrive, and checked against the sender's SHA-256 (when it gives one) before the
/// file counts as complete.
struct ItemWriter {
    let spool: Spool
    let index: Int
    let size: Int64
    let file: OwnedDescriptor
    var hasher = SHA256()
    /// Bytes held so far (from the start of the item).
    private(set) var position: Int64
    /// Where the disk writes started last: the kernel is asked to write each 8 MiB out as it
    /// arrives. Left to its own timers, all of 1 GiB waited in the page cache for the fsync
    /// after the last byte, which took 0.35 s of a 2.2 s transfer (strace, the lab's unlimited veth).
    var writtenOut: Int64

    /// How many received bytes are left to the page cache before the disk is asked to write them.
    static let writebackChunk: Int64 = 8 << 20

    /// Opens item `index` of `size` bytes to continue at `offset` (the bytes before it are read
    /// back into the hash).
    init(spool: Spool, index: Int, size: Int64, from offset: Int64) throws(NearbyError) {
        self.spool = spool
        self.index = index
        self.size = size
        file = try spool.openPartial(index, at: offset)
        if offset > 0 { try FileHash.update(&hasher, from: file, length: offset) }
        position = offset
        writtenOut = offset
    }

    /// Whether every declared byte is held.
    var isFull: Bool { position == size }

    /// Appends `bytes`; refuses any that would go past the declared size (none is written).
    mutating func append(_ bytes: UnsafeRawBufferPointer) throws(NearbyError) {
        let count = Int64(bytes.count)
        guard count <= size - position else {
            throw NearbyError.protocolViolation("item \(index) is longer than the \(size) bytes declared")
        }
        hasher.update(bufferPointer: bytes)
        do { try file.write(bytes, at: position) } catch { throw .system(error) }
        position += count
        if position - writtenOut >= Self.writebackChunk {
            // Only a head start for the sync in `complete`, which is what makes the bytes durable.
            try? file.startWriteback(from: writtenOut, length: position - writtenOut)
            writtenOut = position
        }
    }

    /// Checks the SHA-256 (`expected`, when the sender gave one), makes the bytes durable and
    /// renames the file to `name`; returns its path. A mismatch discards the bytes.
    func complete(name: String, expected: [UInt8]?) throws(NearbyError) -> String {
        guard position == size else { throw .protocolViolation("item \(index) ended after \(position) of its \(size) bytes") }
        if let expected, Array(hasher.finalize()) != expected {
            try? FileSystem.remove(spool.partial(index))
            throw .protocolViolation("item \(index)'s bytes do not have the SHA-256 declared: discarded")
        }
        do { try file.sync() } catch { throw .system(error) }
        return try spool.complete(index, name: name)
    }
}
