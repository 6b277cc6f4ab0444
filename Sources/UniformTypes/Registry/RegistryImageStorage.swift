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
        do { file = try MappedFile(path: path) } catch {
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

    deinit {
        // A mapping goes with its MappedFile; a copy is ours to free.
        if !mapped { base.deallocate() }
    }
}
