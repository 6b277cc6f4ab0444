import SystemCalls

/// Whole-file replacement for writers that do not coordinate: a reader sees the old contents or
/// the new, never a mix, and after a crash or power loss the file is one or the other.
public enum AtomicWriter {
    /// Writes `bytes` to `path`: a new file beside it (unique name, created exclusively),
    /// written, flushed (`fsync`), renamed over `path`, then the folder flushed so that the new
    /// name survives a power loss. `Data.write(to:options: .atomic)` on Apple's systems.
    public static func writeContents(_ bytes: [UInt8], to path: String, permissions: UInt32 = 0o644) throws(CoordinationError) {
        do { try AtomicFile.write(bytes, to: path, permissions: permissions) } catch { throw .system(error) }
    }

    /// Reads the whole file at `path`.
    public static func readContents(_ path: String) throws(CoordinationError) -> [UInt8] {
        do { return try FileSystem.read(path) } catch { throw .system(error) }
    }
}
