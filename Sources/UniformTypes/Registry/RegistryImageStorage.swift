import SystemCalls

/// Memory holding an image: a private copy, or a read-only mapping of a file.
///
/// `@unchecked Sendable`: the memory is never written after creation and lives as long as this.
final class RegistryImageStorage: @unchecked Sendable {
    let base: UnsafeRawPointer
    let count: Int
    private let mapped: Bool
    /// The mapped file, kept for as long as its bytes are read.
    private let mapping: MappedFile?

    init(copying bytes: [UInt8]) {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 8)
        bytes.withUnsafeBytes { memory.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        base = UnsafeRawPointer(memory)
        count = bytes.count
        mapped = false
        mapping = nil
    }

    init(mapping path: String) throws(RegistryFileError) {
        let file: MappedFile
        do { file = try MappedFile(path: path, attribute: Self.checkedAttribute) } catch {
            // An empty file cannot be mapped; it is a registry cut short all the same.
            if error.call == .mmap && error.errno == .invalidArgument { throw .truncated(0) }
            throw .unreadable("\(error)")
        }
        guard file.count >= RegistryImageLayout.headerSize else { throw .truncated(file.count) }
        mapping = file
        base = file.base
        count = file.count
        mapped = true
    }

    // MARK: the checked mark
    //
    // Checksumming the whole file on every open was a tenth of a query (1.6 MB with the shared
    // MIME database's types). A file whose checksum was found right carries a mark, an extended
    // attribute with its size and modification time then; an open that finds the mark matching
    // skips the checksum. Any write to the file changes its modification time and so voids the
    // mark; a rebuild is a new file without one. The mark is only set on a file last modified a
    // second or more ago, so that a write within the same tick of the file system's clock cannot
    // leave the time unchanged. Where extended attributes cannot be kept, every open checks.

    /// The extended attribute that marks a file whose checksum was found right.
    static let checkedAttribute = "user.document-interchange.checksum-ok"

    /// The mark for a file with `status`: size, modification time and inode, little-endian.
    static func checkedMark(_ status: FileStatus) -> [UInt8] {
        var bytes: [UInt8] = []
        for value in [UInt64(bitPattern: status.size), UInt64(bitPattern: status.modified.seconds),
                      UInt64(bitPattern: status.modified.nanoseconds), status.inode] {
            withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        }
        return bytes
    }

    /// Whether the mapped file carries a mark that matches it.
    var isMarkedChecked: Bool {
        guard let mapping, let mark = mapping.attribute else { return false }
        return mark == Self.checkedMark(mapping.status)
    }

    /// Marks the mapped file as checked (its checksum was just found right), when it was last
    /// modified at least a second before `now` (seconds since 1970); best effort.
    func markChecked(now: Double) {
        guard let mapping, now - Double(mapping.status.modified.seconds) >= 1 else { return }
        mapping.setAttribute(Self.checkedAttribute, Self.checkedMark(mapping.status))
    }

    deinit {
        // A mapping goes with its MappedFile; a copy is ours to free.
        if !mapped { base.deallocate() }
    }
}
