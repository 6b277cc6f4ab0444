import CZlib

/// Gzips a stream as it is produced (zlib's deflate with the gzip wrapper, at its fastest level:
/// what AirDrop carries is mostly compressed already), handing on each piece of output.
final class GzipDeflater {
    private var stream = z_stream()
    private var output: [UInt8]

    /// A deflater writing `chunk` bytes at a time.
    init(chunk: Int = 256 << 10) throws(NearbyError) {
        output = [UInt8](repeating: 0, count: chunk)
        let status = deflateInit2_(&stream, Z_BEST_SPEED, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                                   Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw .protocolViolation("gzip: cannot start (zlib \(status))") }
    }

    deinit { deflateEnd(&stream) }

    /// Compresses `input`, handing each piece of output to `handle`.
    func feed(_ input: UnsafeRawBufferPointer, _ handle: ([UInt8]) throws -> Void) throws { try run(input, flush: Z_NO_FLUSH, handle) }

    /// Ends the stream (the gzip trailer), handing the last output to `handle`.
    func finish(_ handle: ([UInt8]) throws -> Void) throws { try run(UnsafeRawBufferPointer(start: nil, count: 0), flush: Z_FINISH, handle) }

    private func run(_ input: UnsafeRawBufferPointer, flush: Int32, _ handle: ([UInt8]) throws -> Void) throws {
        stream.next_in = input.baseAddress.map { UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: Bytef.self)) }
        stream.avail_in = uInt(input.count)
        defer { stream.next_in = nil; stream.avail_in = 0 }
        while true {
            let status: Int32 = output.withUnsafeMutableBytes { out in
                stream.next_out = out.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = uInt(out.count)
                return deflate(&stream, flush)
            }
            let count = output.count - Int(stream.avail_out)
            if count > 0 { try handle(Array(output[..<count])) }
            if status == Z_STREAM_END { return }
            guard status == Z_OK || status == Z_BUF_ERROR else { throw NearbyError.protocolViolation("gzip: zlib \(status)") }
            if flush == Z_NO_FLUSH, stream.avail_in == 0, stream.avail_out > 0 { return }
        }
    }
}
