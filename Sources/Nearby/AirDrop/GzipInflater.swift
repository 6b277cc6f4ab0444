import CZlib

/// Gunzips a stream as it comes (zlib's inflate with the gzip wrapper), handing on each piece of
/// output, and stops at a bound on what it produces (a small body may inflate to anything).
final class GzipInflater {
    private var stream = z_stream()
    private var output: [UInt8]
    private var ended = false
    /// Bytes produced so far.
    private(set) var produced: Int64 = 0
    let limit: Int64

    /// Why the stream is refused.
    enum Failure: PeerMistake {
        case zlib(Int32, String)
        case tooLarge(Int64)
        case afterEnd
        case truncated

        var description: String {
            switch self {
            case .zlib(let code, let message): "gzip: \(message) (zlib \(code))"
            case .tooLarge(let limit): "gzip: the body inflates to more than \(limit) bytes"
            case .afterEnd: "gzip: bytes after the end of the compressed stream"
            case .truncated: "gzip: the compressed stream ends early"
            }
        }
    }

    /// An inflater producing at most `limit` bytes, `chunk` at a time.
    init(limit: Int64, chunk: Int = 256 << 10) throws {
        self.limit = limit
        output = [UInt8](repeating: 0, count: chunk)
        // 16 + 15: a gzip wrapper around a window of up to 32 KiB.
        let status = inflateInit2_(&stream, 16 + MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw Failure.zlib(status, "cannot start") }
    }

    deinit { inflateEnd(&stream) }

    /// Inflates `input`, handing each piece of output to `handle`.
    func feed(_ input: UnsafeRawBufferPointer, _ handle: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard !input.isEmpty else { return }
        guard !ended else { throw Failure.afterEnd }
        guard let base = input.baseAddress else { return }
        stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(input.count)
        defer { stream.next_in = nil; stream.avail_in = 0 }
        while stream.avail_in > 0 || !ended {
            let status: Int32 = output.withUnsafeMutableBytes { out in
                stream.next_out = out.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = uInt(out.count)
                return inflate(&stream, Z_NO_FLUSH)
            }
            let count = output.count - Int(stream.avail_out)
            if count > 0 {
                produced += Int64(count)
                guard produced <= limit else { throw Failure.tooLarge(limit) }
                try output.withUnsafeBytes { try handle(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            }
            switch status {
            case Z_STREAM_END:
                ended = true
                guard stream.avail_in == 0 else { throw Failure.afterEnd }
                return
            case Z_OK: if stream.avail_in == 0 && count < output.count { return }
            case Z_BUF_ERROR: return  // needs more input
            default:
                throw Failure.zlib(status, stream.msg.map { String(cString: $0) } ?? "the stream is damaged")
            }
        }
    }

    /// Checks that the compressed stream ended.
    func finish() throws { guard ended else { throw Failure.truncated } }
}
