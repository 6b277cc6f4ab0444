import SystemCalls

/// One pasteboard's folder: `content` (the current generation), `lock` (held by writers), and
/// `.gen-*` temporary files of writes in progress.
///
/// Writers take the lock, read the current generation, write the next one whole under a
/// temporary name, flush it, rename it over `content`, flush the folder, and let the lock go.
/// Readers take no lock: one open of `content` is one generation. A writer killed with SIGKILL at
/// any point loses its lock with its descriptors and leaves at most a temporary file, which the
/// next writer removes; `content` is the previous generation or the next, never a mix.
struct PasteboardFolder {
    let path: String
    let name: PasteboardName

    static let contentName: [UInt8] = Array("content".utf8)
    static let lockName: [UInt8] = Array("lock".utf8)
    static let temporaryPrefix = ".gen-"

    var contentPath: String { path + "/content" }

    /// The current generation and the mapping it was read from; `nil` when none was ever written.
    func current() throws(PasteboardError) -> (generation: Generation, mapping: MappedFile, dataStart: Int)? {
        let mapping: MappedFile
        do {
            mapping = try MappedFile(path: contentPath)
        } catch where error.errno == .noSuchFileOrDirectory || error.errno == .notDirectory {
            return nil
        } catch where error.call == .mmap && error.errno == .invalidArgument {
            throw .damaged(path: contentPath, offset: 0, keyPath: nil, reason: "the file is empty")
        } catch {
            throw .system(error)
        }
        let bytes = UnsafeRawBufferPointer(start: mapping.base, count: mapping.count)
        let generation = try Generation.decode(bytes, path: contentPath)
        guard generation.name == name else { throw .nameTaken(name) }
        let dataStart = Generation.headerSize + Int(bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self).littleEndian)
        return (generation, mapping, dataStart)
    }

    /// What a writer holding the lock has open.
    struct WriteSession {
        /// The pasteboard's folder.
        var folder: OwnedDescriptor
        /// The lock file, which also records the last change count written (8 bytes,
        /// little-endian): a damaged `content` does not send the count back.
        var lock: OwnedDescriptor
        /// The change count the lock file recorded.
        var recordedCount: Int64
    }

    /// Runs `body` holding the writer's lock, with the folder open (created when missing, with its
    /// parents). Temporary files that killed writers left are removed first.
    func withWriteLock<R>(_ body: (WriteSession) throws(PasteboardError) -> R) throws(PasteboardError) -> R {
        let session: WriteSession
        do throws(SystemCallError) {
            try FileSystem.makeDirectories(path, permissions: 0o700)
            let folder = try OwnedDescriptor.openFolder(path)
            let lock = try folder.open(Self.lockName, .readWrite, options: [.create, .noFollow], permissions: 0o600)
            try lock.lock(.exclusive)
            FaultInjection.checkpoint("pasteboard.locked")
            for entry in try folder.entryNames() where entry.starts(with: Self.temporaryPrefix.utf8) {
                try? folder.remove(entry)
            }
            var recorded: Int64 = 0
            _ = try withUnsafeMutableBytes(of: &recorded) { (buffer) throws(SystemCallError) -> Int in try lock.read(into: buffer, at: 0) }
            session = WriteSession(folder: folder, lock: lock, recordedCount: max(0, Int64(littleEndian: recorded)))
        } catch {
            throw .system(error)
        }
        let result = try body(session)
        // Closing the descriptor would release the lock too; unlocking first says so.
        session.lock.unlock()
        return result
    }

    /// Writes `generation` with the bytes of its representations (in item order) as the next
    /// `content`. Called holding the lock.
    func commit(_ generation: Generation, data: [[[UInt8]]], in session: WriteSession) throws(PasteboardError) {
        let folder = session.folder
        do throws(SystemCallError) {
            let temporary = try TemporaryFile(in: folder, prefix: Self.temporaryPrefix)
            do throws(SystemCallError) {
                try temporary.file.writeAll(generation.header())
                FaultInjection.checkpoint("pasteboard.header-written")
                for item in data { for bytes in item { try temporary.file.writeAll(bytes) } }
                FaultInjection.checkpoint("pasteboard.data-written")
                try temporary.file.sync()
                FaultInjection.checkpoint("pasteboard.synced")
                try folder.renameReplacing(temporary.name, to: folder, as: Self.contentName)
            } catch {
                try? folder.remove(temporary.name)
                throw error
            }
            FaultInjection.checkpoint("pasteboard.renamed")
            // After the rename: a writer killed before it must not leave a count that was never
            // published (the next write would skip a number). The descriptor was opened for this
            // write and only read with pread, so this writes at offset 0.
            var count = generation.changeCount.littleEndian
            try withUnsafeBytes(of: &count) { (bytes) throws(SystemCallError) in try session.lock.writeAll(bytes) }
            try folder.sync()
        } catch {
            throw .system(error)
        }
    }
}
