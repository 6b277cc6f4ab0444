import CCrypto
import SystemCalls

/// SHA-256 of an open file through libcrypto's EVP interface (no maintained Swift package offers
/// it without pulling in a whole TLS stack's build).
enum FileDigest {
    /// Why a digest could not be made.
    enum Failure: Error, CustomStringConvertible {
        case read(SystemCallError)
        case libcrypto
        var description: String {
            switch self {
            case .read(let error): "\(error.errno)"
            case .libcrypto: "libcrypto's SHA-256 failed"
            }
        }
    }

    /// The hex SHA-256 of `file`'s contents, read from offset 0 (the file offset is left alone).
    /// `size` (the file's, as known) only sizes the read buffer: a small file gets a small one.
    static func sha256(of file: OwnedDescriptor, size expected: Int = 1 << 20) throws(Failure) -> String {
        guard let context = EVP_MD_CTX_new() else { throw .libcrypto }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else { throw .libcrypto }
        let size = min(1 << 20, max(4096, expected + 1))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        var offset: Int64 = 0
        while true {
            let n: Int
            do { n = try file.read(into: buffer, at: offset) } catch { throw .read(error) }
            if n == 0 { break }
            guard EVP_DigestUpdate(context, buffer.baseAddress, n) == 1 else { throw .libcrypto }
            offset += Int64(n)
        }
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1 else { throw .libcrypto }
        return digest.prefix(Int(length)).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
