import SystemCalls
import SystemPackage

/// Whole-file reads and writes through swift-system, so tools need not load Foundation.
public enum FileContents {
    /// A file-system failure with the path and the system's reason.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// `PATH: reason`.
        public var message: String
        /// The same as ``message``.
        public var description: String { message }
    }

    /// Reads the whole file at `path` (a path as a `String` holds it; docs/apple-api.md, "Paths").
    public static func read(_ path: String) throws(Failure) -> [UInt8] { try read(FilePath(path)) }

    /// Writes `bytes` to `path` atomically (a path as a `String` holds it).
    public static func write(_ bytes: [UInt8], to path: String) throws(Failure) { try write(bytes, to: FilePath(path)) }

    /// Reads the whole file at `path`; `-` reads standard input.
    public static func read(_ path: FilePath) throws(Failure) -> [UInt8] {
        do {
            if path.string == "-" { return try readAll(.standardInput) }
            let fd = try FileDescriptor.open(path, .readOnly)
            return try fd.closeAfter { try readAll(fd) }
        } catch let errno as Errno {
            throw Failure(message: "\(path): \(errno)")
        } catch {
            throw Failure(message: "\(path): \(error)")
        }
    }

    /// Reads to end of file. A regular file is read straight into one buffer of its size plus a
    /// byte (a read of 0 there proves the end without another allocation). Growing a buffer by
    /// appending zero-filled chunks touched three times the file's size in fresh pages, and in a
    /// short-lived process every first touch of a page is a fault: 2,800 of the 6,000 faults of
    /// `plutil -lint` on a 3.8 MB file. Pipes, `/proc` files and files still growing continue
    /// in 64 KiB chunks.
    private static func readAll(_ fd: FileDescriptor) throws -> [UInt8] {
        var capacity = 1 << 16
        if let status = try? fd.stat(), status.type == .regular {
            capacity = Int(clamping: status.size) + 1
        }
        var result = try [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            while count < buffer.count {
                let n = try fd.read(into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[count...])))
                if n == 0 { return }
                count += n
            }
        }
        guard result.count == capacity else { return result }
        try withUnsafeTemporaryAllocation(byteCount: 1 << 16, alignment: 1) { chunk in
            while true {
                let n = try fd.read(into: chunk)
                if n == 0 { return }
                result.append(contentsOf: chunk[..<n])
            }
        }
        return result
    }

    /// Writes `bytes` to `path` atomically: a unique temporary file in the same folder, written,
    /// flushed to disk, then renamed over `path` and the folder flushed, so a reader never sees a
    /// half-written file and two writers at once each rename a complete one. `-` writes standard
    /// output.
    public static func write(_ bytes: [UInt8], to path: FilePath) throws(Failure) {
        if path.string == "-" {
            do { _ = try FileDescriptor.standardOutput.writeAll(bytes) } catch { throw Failure(message: "standard output: \(error)") }
            return
        }
        do { try AtomicFile.write(bytes, to: path.string, permissions: 0o644) } catch {
            throw Failure(message: "\(error.path ?? path.string): \(error.errno)")
        }
    }
}
