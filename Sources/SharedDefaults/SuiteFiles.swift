import SystemCalls

/// A suite's open files: the shared counter mapping (and, through its descriptor, the lock) and
/// the journal, opened `O_APPEND` so that each record lands whole at the end.
final class SuiteFiles: Sendable {
    let control: OwnedDescriptor
    let shared: SharedMapping
    let journal: OwnedDescriptor

    /// Opens (creating) the files of `location`; the folder is created (mode 0700) when missing.
    init(_ location: DefaultsLocation) throws(SharedDefaultsError) {
        do {
            if !FileSystem.isDirectory(location.folder) { try FileSystem.makeDirectories(location.folder, permissions: 0o700) }
            control = try OwnedDescriptor.open(location.sharedFile, .readWrite, options: [.create, .noFollow], permissions: 0o600)
            shared = try SharedMapping(file: control, count: SharedCounter.size)
            journal = try OwnedDescriptor.open(location.journal, .readWrite, options: [.create, .append, .noFollow], permissions: 0o600)
        } catch {
            throw .system(error)
        }
        try SharedCounter.check(shared, path: location.sharedFile)
    }

    var sequence: UInt32 { shared.load32(at: SharedCounter.sequenceOffset) }
    var generation: UInt64 { shared.load64(at: SharedCounter.generationOffset) }

    /// Tells every process that the suite changed: the counter moves, and sleeping observers wake.
    func announceChange(merged: Bool) {
        if merged { shared.add64(1, at: SharedCounter.generationOffset) }
        shared.add32(1, at: SharedCounter.sequenceOffset)
        if shared.load32(at: SharedCounter.waitersOffset) > 0 { shared.wakeAll(at: SharedCounter.sequenceOffset) }
    }

    /// The journal's bytes from `offset` to its end.
    func journalBytes(from offset: Int) throws(SystemCallError) -> [UInt8] {
        var out: [UInt8] = []
        var position = Int64(offset)
        let chunk = 1 << 16
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = try journal.read(into: buffer, at: position)
            if n == 0 { return out }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[..<n]))
            position += Int64(n)
        }
    }
}
