import Crypto
import SystemCalls

/// SHA-256 over a file's bytes, read in 1 MiB pieces: the one loop for the sender's digest of
/// each item and the receiver's digest of the bytes it held before a resume.
enum FileHash {
    /// Feeds `file`'s bytes from offset 0 to `hasher`: all of them, or the first `length`.
    /// - Returns: how many bytes were read.
    @discardableResult
    static func update(_ hasher: inout SHA256, from file: OwnedDescriptor, length: Int64? = nil) throws(NearbyError) -> Int64 {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var offset: Int64 = 0
        while length.map({ offset < $0 }) ?? true {
            let want = Int(min(Int64(buffer.count), (length ?? Int64.max) - offset))
            let n: Int
            do { n = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<want]), at: offset) } catch { throw .system(error) }
            if n == 0 {
                guard let length else { break }
                throw .corruptState(path: file.path ?? "a file", detail: "shorter than the \(length) bytes expected")
            }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[..<n]))
            offset += Int64(n)
        }
        return offset
    }
}
