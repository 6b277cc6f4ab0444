import CCrypto

/// The P-256 group operations SPAKE2 needs, on libcrypto's EC_GROUP/EC_POINT/BIGNUM, with
/// scalars and points crossing the boundary as bytes.
///
/// Nothing of libcrypto is kept between calls: each call builds the group, does its work and
/// frees every object before returning, so the values ``SPAKE2`` holds are plain bytes and the
/// exchange is `Sendable` without a lock around a C handle. Building the group costs microseconds,
/// against milliseconds for the scalar multiplications; an exchange makes four calls.
enum P256 {
    /// A scalar's length: the group order p is a 256-bit prime, and RFC 9382 puts w into the
    /// transcript as a big-endian number padded to p's length.
    static let scalarLength = 32
    /// An element's length on the wire: SEC1 uncompressed (0x04 || X || Y), the encoding the
    /// RFC's P-256 vectors use for pA, pB and K.
    static let pointLength = 65

    /// Which of the RFC's two fixed elements masks a share: A adds w*M, B adds w*N.
    enum Mask {
        case m, n

        /// The element as RFC 9382 §6 prints it for P-256 (SEC1 compressed), generated from the
        /// seeds "1.2.840.10045.3.1.7 point generation seed (M)" and "(N)" so that nobody knows
        /// their discrete logarithms; SPAKE2's security rests on that.
        var compressed: [UInt8] {
            switch self {
            case .m: bytes(hex: "02886e2f97ace46e55ba9dd7242579f2993b64e16ef3dcab95afd497333d8fa12f")
            case .n: bytes(hex: "03d8bbd6c639c62937b04d997f38c3770719c629d7014d49a24b4f98baa1292b49")
            }
        }
    }

    /// Whether `scalar` is `scalarLength` big-endian bytes below the group order.
    static func isReducedScalar(_ scalar: [UInt8]) throws(PAKEError) -> Bool {
        guard scalar.count == scalarLength else { return false }
        return try withGroup { group, _ throws(PAKEError) in
            try withScalar(scalar) { value throws(PAKEError) in
                BN_cmp(value, EC_GROUP_get0_order(group.pointer)) < 0
            }
        }
    }

    /// `bytes` as a big-endian integer, reduced modulo the group order, padded to
    /// `scalarLength`: how w is made from a key-derivation output longer than p.
    static func reduce(_ bytes: [UInt8]) throws(PAKEError) -> [UInt8] {
        try withGroup { group, context throws(PAKEError) in
            try withScalar(bytes) { value throws(PAKEError) in
                try withNewScalar { reduced throws(PAKEError) in
                    guard BN_nnmod(reduced, value, EC_GROUP_get0_order(group.pointer), context) == 1 else {
                        throw .libcrypto(function: "BN_nnmod")
                    }
                    return try encode(scalar: reduced)
                }
            }
        }
    }

    /// A uniformly random scalar in [1, p) from libcrypto's private generator.
    ///
    /// RFC 9382 §3.3 draws x and y from [0, p); zero is excluded (by drawing again) because
    /// x = 0 would make pA = w*M, which reveals w to anyone who tries candidates. The chance of
    /// drawing it is 2^-256, so the distribution is the RFC's for all practical purposes.
    static func randomScalar() throws(PAKEError) -> [UInt8] {
        try withGroup { group, _ throws(PAKEError) in
            try withNewScalar { value throws(PAKEError) in
                repeat {
                    guard BN_priv_rand_range(value, EC_GROUP_get0_order(group.pointer)) == 1 else {
                        throw .libcrypto(function: "BN_priv_rand_range")
                    }
                } while BN_is_zero(value) == 1
                return try encode(scalar: value)
            }
        }
    }

    /// `scalar*P + w*mask`, encoded: pA (A's x, M) or pB (B's y, N), RFC 9382 §3.3.
    ///
    /// The two products are separate single-scalar multiplications: libcrypto runs those on its
    /// constant-time ladder, whereas a combined two-scalar EC_POINT_mul may take the
    /// variable-time wNAF path, and RFC 9382 §7 requires time independent of the secrets.
    static func share(scalar: [UInt8], w: [UInt8], mask: Mask) throws(PAKEError) -> [UInt8] {
        try withGroup { group, context throws(PAKEError) in
            try withScalar(scalar) { ephemeral throws(PAKEError) in
                try withScalar(w) { password throws(PAKEError) in
                    try group.withPoint(mask.compressed) { maskPoint throws(PAKEError) in
                        try group.withNewPoint { blind throws(PAKEError) in
                            try group.withNewPoint { masking throws(PAKEError) in
                                guard EC_POINT_mul(group.pointer, blind, ephemeral, nil, nil, context) == 1,
                                      EC_POINT_mul(group.pointer, masking, nil, maskPoint, password, context) == 1
                                else { throw .libcrypto(function: "EC_POINT_mul") }
                                guard EC_POINT_add(group.pointer, blind, blind, masking, context) == 1 else {
                                    throw .libcrypto(function: "EC_POINT_add")
                                }
                                return try group.encode(blind, context: context)
                            }
                        }
                    }
                }
            }
        }
    }

    /// `h*scalar*(peer - w*peerMask)`, encoded: K, RFC 9382 §3.3 (h = 1 for P-256).
    ///
    /// `peer` must be an uncompressed point on the curve other than the identity (§7: abort on
    /// anything that is not a group element). A K equal to the identity is refused too: it
    /// happens only when the peer sent exactly w*peerMask, a share with no ephemeral part, and
    /// it has no encoding of the length the transcript expects.
    static func sharedElement(peer: [UInt8], scalar: [UInt8], w: [UInt8], peerMask: Mask) throws(PAKEError) -> [UInt8] {
        if peer == [0] { throw .invalidPeerMessage(reason: "the point at infinity") }
        guard peer.count == pointLength else {
            throw .invalidPeerMessage(reason: "\(peer.count) bytes, not the \(pointLength) of an uncompressed P-256 point")
        }
        guard peer[0] == 0x04 else {
            throw .invalidPeerMessage(reason: "first byte 0x\(String(peer[0], radix: 16)), not 0x04 (uncompressed)")
        }
        return try withGroup { group, context throws(PAKEError) in
            try group.withNewPoint { received throws(PAKEError) in
                // libcrypto's oct2point refuses coordinates that are not on the curve; the
                // explicit checks below keep that guarantee if it ever stopped doing so.
                guard peer.withUnsafeBufferPointer({
                    EC_POINT_oct2point(group.pointer, received, $0.baseAddress, $0.count, context)
                }) == 1 else { throw .invalidPeerMessage(reason: "not a point on P-256") }
                guard EC_POINT_is_on_curve(group.pointer, received, context) == 1 else {
                    throw .invalidPeerMessage(reason: "not a point on P-256")
                }
                guard EC_POINT_is_at_infinity(group.pointer, received) == 0 else {
                    throw .invalidPeerMessage(reason: "the point at infinity")
                }
                return try withScalar(scalar) { ephemeral throws(PAKEError) in
                    try withScalar(w) { password throws(PAKEError) in
                        try group.withPoint(peerMask.compressed) { maskPoint throws(PAKEError) in
                            try group.withNewPoint { unmasked throws(PAKEError) in
                                try group.withNewPoint { k throws(PAKEError) in
                                    guard EC_POINT_mul(group.pointer, unmasked, nil, maskPoint, password, context) == 1 else {
                                        throw .libcrypto(function: "EC_POINT_mul")
                                    }
                                    guard EC_POINT_invert(group.pointer, unmasked, context) == 1 else {
                                        throw .libcrypto(function: "EC_POINT_invert")
                                    }
                                    guard EC_POINT_add(group.pointer, unmasked, received, unmasked, context) == 1 else {
                                        throw .libcrypto(function: "EC_POINT_add")
                                    }
                                    guard EC_POINT_is_at_infinity(group.pointer, unmasked) == 0 else {
                                        throw .invalidPeerMessage(reason: "it is w times the mask, so K would be the identity")
                                    }
                                    guard EC_POINT_mul(group.pointer, k, nil, unmasked, ephemeral, context) == 1 else {
                                        throw .libcrypto(function: "EC_POINT_mul")
                                    }
                                    return try group.encode(k, context: context)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    // MARK: - libcrypto objects, each freed by the scope that made it

    /// The P-256 EC_GROUP, valid inside the `withGroup` call that made it.
    struct Group {
        let pointer: OpaquePointer

        /// A new EC_POINT, cleared and freed after `body`.
        func withNewPoint<R>(_ body: (OpaquePointer) throws(PAKEError) -> R) throws(PAKEError) -> R {
            guard let point = EC_POINT_new(pointer) else { throw .libcrypto(function: "EC_POINT_new") }
            defer { EC_POINT_clear_free(point) }
            return try body(point)
        }

        /// `encoded` decoded as a point (one of our own constants; peer input is checked by its
        /// caller), freed after `body`.
        func withPoint<R>(_ encoded: [UInt8], _ body: (OpaquePointer) throws(PAKEError) -> R) throws(PAKEError) -> R {
            try withNewPoint { point throws(PAKEError) in
                guard encoded.withUnsafeBufferPointer({
                    EC_POINT_oct2point(pointer, point, $0.baseAddress, $0.count, nil)
                }) == 1 else { throw .libcrypto(function: "EC_POINT_oct2point") }
                return try body(point)
            }
        }

        /// `point` as SEC1 uncompressed bytes.
        func encode(_ point: OpaquePointer, context: OpaquePointer) throws(PAKEError) -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: pointLength)
            let written = bytes.withUnsafeMutableBufferPointer {
                EC_POINT_point2oct(pointer, point, POINT_CONVERSION_UNCOMPRESSED, $0.baseAddress, $0.count, context)
            }
            guard written == pointLength else { throw .libcrypto(function: "EC_POINT_point2oct") }
            return bytes
        }
    }

    /// The group and a BN_CTX for `body`, both freed after it.
    private static func withGroup<R>(_ body: (Group, OpaquePointer) throws(PAKEError) -> R) throws(PAKEError) -> R {
        guard let group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1) else {
            throw .libcrypto(function: "EC_GROUP_new_by_curve_name")
        }
        defer { EC_GROUP_free(group) }
        guard let context = BN_CTX_new() else { throw .libcrypto(function: "BN_CTX_new") }
        defer { BN_CTX_free(context) }
        return try body(Group(pointer: group), context)
    }

    /// `bytes` as a BIGNUM marked constant-time (it is a secret: x, y or w), cleared and freed
    /// after `body`.
    private static func withScalar<R>(_ bytes: [UInt8], _ body: (OpaquePointer) throws(PAKEError) -> R) throws(PAKEError) -> R {
        guard let value = bytes.withUnsafeBufferPointer({ BN_bin2bn($0.baseAddress, Int32($0.count), nil) }) else {
            throw .libcrypto(function: "BN_bin2bn")
        }
        defer { BN_clear_free(value) }
        BN_set_flags(value, BN_FLG_CONSTTIME)
        return try body(value)
    }

    /// A new BIGNUM, cleared and freed after `body`.
    private static func withNewScalar<R>(_ body: (OpaquePointer) throws(PAKEError) -> R) throws(PAKEError) -> R {
        guard let value = BN_new() else { throw .libcrypto(function: "BN_new") }
        defer { BN_clear_free(value) }
        BN_set_flags(value, BN_FLG_CONSTTIME)
        return try body(value)
    }

    /// `value` as `scalarLength` big-endian bytes.
    private static func encode(scalar value: OpaquePointer) throws(PAKEError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: scalarLength)
        guard bytes.withUnsafeMutableBufferPointer({ BN_bn2binpad(value, $0.baseAddress, Int32($0.count)) }) == scalarLength else {
            throw .libcrypto(function: "BN_bn2binpad")
        }
        return bytes
    }
}

/// `hex` (an even number of lowercase hex digits: our own constants) as bytes.
private func bytes(hex: String) -> [UInt8] {
    let digits = Array(hex.utf8)
    func value(_ digit: UInt8) -> UInt8 { digit <= UInt8(ascii: "9") ? digit - UInt8(ascii: "0") : digit - UInt8(ascii: "a") + 10 }
    return stride(from: 0, to: digits.count, by: 2).map { value(digits[$0]) << 4 | value(digits[$0 + 1]) }
}
