import CCrypto
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// SHA-256 of an open file through libcrypto's EVP interface (no maintained Swift package offers
/// it without pulling in a whole TLS stack's build).
enum FileDigest {
    /// The hex SHA-256 of `fd`'s contents, read from offset 0 with `pread`; `nil` on a read error.
    /// `size` (the file's, as known) only sizes the read buffer: a small file gets a small one.
    static func sha256(of fd: Int32, size expected: Int = 1 << 20) -> String? {
        guard let context = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else { return nil }
        let size = min(1 << 20, max(4096, expected + 1))
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        var offset: off_t = 0
        while true {
            let n = pread(fd, buffer, size, offset)
            if n < 0 { if errno == EINTR { continue }; return nil }
            if n == 0 { break }
            guard EVP_DigestUpdate(context, buffer, n) == 1 else { return nil }
            offset += off_t(n)
        }
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1 else { return nil }
        return digest.prefix(Int(length)).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
