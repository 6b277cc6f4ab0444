import CCrypto

/// The symmetric half of SPAKE2-P256-SHA256-HKDF-HMAC (RFC 9382 §6): Hash = SHA-256,
/// KDF = HKDF-SHA256 (RFC 5869), MAC = HMAC-SHA256 (RFC 2104), all from libcrypto through
/// interfaces OpenSSL 3 does not deprecate (EVP_Digest, EVP_PKEY HKDF, one-shot HMAC).
enum CipherSuite {
    /// SHA-256's output length; Ke and Ka are its halves.
    static let hashLength = 32

    /// SHA-256 of `data`: Hash(TT) = Ke || Ka.
    static func hash(_ data: [UInt8]) throws(PAKEError) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: hashLength)
        var length: UInt32 = 0
        guard EVP_Digest(data, data.count, &digest, &length, EVP_sha256(), nil) == 1, length == hashLength else {
            throw .libcrypto(function: "EVP_Digest")
        }
        return digest
    }

    /// HKDF-SHA256 (extract then expand) of `key` with `salt` and `info`, `length` bytes.
    ///
    /// An empty salt is left unset: RFC 5869 then uses HashLen zero bytes, which as an HMAC key
    /// is the same as the empty key, so "nil" in RFC 9382's KDF(Ka, nil, …) needs no special case.
    static func kdf(key: [UInt8], salt: [UInt8] = [], info: [UInt8], length: Int) throws(PAKEError) -> [UInt8] {
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, nil) else { throw .libcrypto(function: "EVP_PKEY_CTX_new_id") }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_derive_init(context) == 1 else { throw .libcrypto(function: "EVP_PKEY_derive_init") }
        guard EVP_PKEY_CTX_set_hkdf_md(context, EVP_sha256()) == 1 else { throw .libcrypto(function: "EVP_PKEY_CTX_set_hkdf_md") }
        guard EVP_PKEY_CTX_set1_hkdf_key(context, key, Int32(key.count)) == 1 else {
            throw .libcrypto(function: "EVP_PKEY_CTX_set1_hkdf_key")
        }
        if !salt.isEmpty {
            guard EVP_PKEY_CTX_set1_hkdf_salt(context, salt, Int32(salt.count)) == 1 else {
                throw .libcrypto(function: "EVP_PKEY_CTX_set1_hkdf_salt")
            }
        }
        if !info.isEmpty {
            guard EVP_PKEY_CTX_add1_hkdf_info(context, info, Int32(info.count)) == 1 else {
                throw .libcrypto(function: "EVP_PKEY_CTX_add1_hkdf_info")
            }
        }
        var output = [UInt8](repeating: 0, count: length)
        var written = length
        guard EVP_PKEY_derive(context, &output, &written) == 1, written == length else {
            throw .libcrypto(function: "EVP_PKEY_derive")
        }
        return output
    }

    /// HMAC-SHA256 of `data` under `key`: the confirmation MACs.
    static func mac(key: [UInt8], data: [UInt8]) throws(PAKEError) -> [UInt8] {
        var tag = [UInt8](repeating: 0, count: hashLength)
        var length: UInt32 = 0
        guard HMAC(EVP_sha256(), key, Int32(key.count), data, data.count, &tag, &length) != nil, length == hashLength else {
            throw .libcrypto(function: "HMAC")
        }
        return tag
    }

    /// Whether `a` and `b` are equal, in time that depends on their length only (CRYPTO_memcmp):
    /// comparing a received MAC byte by byte with an early exit would tell an attacker how many
    /// leading bytes of a forgery are right.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { a in
            b.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 }
        }
    }
}
