import AppRegistry
import OpenRequests
import SystemCalls

/// A copy of a document written, flushed and given its final mode in a temporary folder, ready
/// to be renamed into place without replacing anything. Until it is placed, it is only a hidden
/// temporary file (`.delivery-XXXX`): a killed process leaves that and nothing else.
struct StagedCopy {
    /// The name it will be placed under (the source's name).
    var name: String
    /// The staged file's identity (a rename keeps it).
    var identity: DocumentIdentity
    let folder: OwnedDescriptor
    let temporaryName: [UInt8]

    /// Copies `source` into a new temporary file in `temporaryFolder`.
    init(of source: String, in temporaryFolder: String, permissions: UInt32, progress: ((Int64, Int64) -> Void)?) throws(HandlerError) {
        let input: OwnedDescriptor
        let status: FileStatus
        do {
            input = try OwnedDescriptor.open(source, .readOnly, options: [.noControllingTerminal])
            status = try input.status()
        } catch { throw .system(error) }
        guard status.kind == .regular else { throw .notAFile(source, status.kind) }
        let staged: TemporaryFile
        do {
            try FileSystem.makeDirectories(temporaryFolder)
            folder = try OwnedDescriptor.openFolder(temporaryFolder, followLinks: true)
            staged = try TemporaryFile(in: folder, prefix: ".delivery-")
        } catch { throw .system(error) }
        temporaryName = staged.name
        name = Self.baseName(source)
        do {
            try Self.copy(input, to: staged.file, total: status.size, progress: progress)
            try staged.file.setPermissions(permissions)
            try staged.file.sync()
            identity = DocumentIdentity(try staged.file.status())
        } catch {
            try? folder.remove(staged.name)
            throw .system(error)
        }
    }

    /// Moves `source` (a file the caller owns, such as a received item) into `temporaryFolder`
    /// instead of copying it: one rename on the same file system, the same guarantees as a copy
    /// (final mode, flushed). Another file system (`EXDEV`), or a source with other links, is
    /// copied as ``init(of:in:permissions:progress:)`` does, and the source then removed.
    init(moving source: String, in temporaryFolder: String, permissions: UInt32) throws(HandlerError) {
        let parent = Self.parent(source)
        let sourceName = Array(Self.baseName(source).utf8)
        var generator = SystemRandomNumberGenerator()
        let candidate = Array((".delivery-" + String(generator.next() & 0xFFFF_FFFF_FFFF, radix: 36)).utf8)
        let from: OwnedDescriptor, to: OwnedDescriptor
        let status: FileStatus?
        do {
            try FileSystem.makeDirectories(temporaryFolder)
            from = try OwnedDescriptor.openFolder(parent, followLinks: true)
            to = try OwnedDescriptor.openFolder(temporaryFolder, followLinks: true)
            status = try from.status(of: sourceName)
        } catch { throw .system(error) }
        guard let status, status.kind == .regular else { throw .notAFile(source, status?.kind ?? .unknown) }
        do {
            try from.rename(sourceName, to: to, as: candidate)
        } catch where error.errno == .improperLink {
            // Another file system: copied, then the source removed.
            self = try StagedCopy(of: source, in: temporaryFolder, permissions: permissions, progress: nil)
            try? FileSystem.remove(source)
            return
        } catch { throw .system(error) }
        folder = to
        temporaryName = candidate
        name = Self.baseName(source)
        do {
            let file = try to.open(candidate, .readWrite, options: [.noFollow])
            try file.setPermissions(permissions)
            try file.sync()
            try to.sync()
            identity = DocumentIdentity(try file.status())
        } catch {
            try? to.remove(candidate)
            throw .system(error)
        }
    }

    /// A file already staged at `path` (left by an interrupted delivery), to be placed as `name`.
    init(existing path: String, identity: DocumentIdentity, placedAs name: String) throws(HandlerError) {
        do { folder = try OwnedDescriptor.openFolder(Self.parent(path), followLinks: true) } catch { throw .system(error) }
        temporaryName = Array(Self.baseName(path).utf8)
        self.name = name
        self.identity = identity
    }

    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Renames the staged file into `destination` under ``name`` or the first free `name-N.ext`,
    /// then flushes `destination`. The temporary file is removed if it cannot be placed.
    /// - Returns: the placed file's path.
    func place(into destination: String) throws(HandlerError) -> String {
        let placed: String?
        do {
            placed = try placeOrFail(into: destination)
        } catch {
            try? folder.remove(temporaryName)
            throw .system(error)
        }
        guard let placed else {
            try? folder.remove(temporaryName)
            throw .noFreeName(name: name, folder: destination)
        }
        return placed
    }

    /// The placed path, or `nil` when every candidate name is taken.
    private func placeOrFail(into destination: String) throws(SystemCallError) -> String? {
        try FileSystem.makeDirectories(destination)
        let target = try OwnedDescriptor.openFolder(destination, followLinks: true)
        var attempt = 0
        while attempt < FreeName.attempts {
            let candidate = FreeName.candidate(name, attempt: attempt)
            if try Self.renameUnlessTaken(temporaryName, from: folder, to: target, as: Array(candidate.utf8)) {
                try target.sync()
                return destination + "/" + candidate
            }
            attempt += 1
        }
        return nil
    }

    /// Renames without replacing; `false` when the name is taken.
    static func renameUnlessTaken(_ name: [UInt8], from folder: OwnedDescriptor, to target: OwnedDescriptor, as newName: [UInt8]) throws(SystemCallError) -> Bool {
        do {
            try folder.rename(name, to: target, as: newName)
            return true
        } catch {
            if error.errno == .fileExists { return false }
            throw error
        }
    }

    static func copy(_ input: OwnedDescriptor, to output: OwnedDescriptor, total: Int64, progress: ((Int64, Int64) -> Void)?) throws(SystemCallError) {
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 4096)
        defer { buffer.deallocate() }
        var copied: Int64 = 0
        while true {
            let n = try input.read(into: buffer)
            if n == 0 { break }
            try output.writeAll(UnsafeRawBufferPointer(rebasing: buffer[..<n]))
            copied += Int64(n)
            progress?(copied, total)
        }
    }

    static func baseName(_ path: String) -> String {
        var p = Substring(path)
        while p.count > 1 && p.last == "/" { p.removeLast() }
        return String(p[(p.lastIndex(of: "/").map { p.index(after: $0) } ?? p.startIndex)...])
    }
}
