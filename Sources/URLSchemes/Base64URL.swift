import ExtrasBase64

/// base64url (RFC 4648 section 5): base64 with `-` and `_` for `+` and `/`, so that a payload can
/// stand in a URL without percent-encoding (seed 000's advice). Written without padding.
/// (swift-extras-base64 does the work; this only fixes the options and reads both alphabets.)
public enum Base64URL {
    /// `bytes` as base64url text, without `=` padding.
    public static func encode<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        Base64.encodeToString(bytes: bytes, options: [.base64UrlAlphabet, .omitPaddingCharacter])
    }

    /// The bytes base64 or base64url text stands for: either alphabet, padding optional (the
    /// seeds' senders use plain base64 with padding).
    /// - Throws: ``URLSchemeError/invalidPayload(_:)`` naming the first character that is neither.
    public static func decode(_ text: String) throws(URLSchemeError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for (offset, b) in text.utf8.enumerated() {
            switch b {
            case 0x2B: bytes.append(0x2D)
            case 0x2F: bytes.append(0x5F)
            case 0x3D: continue
            case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2D, 0x5F: bytes.append(b)
            default: throw .invalidPayload("base64url: '\(Unicode.Scalar(b))' at character \(offset) is not in the alphabet")
            }
        }
        do { return try Base64.decode(bytes: bytes, options: [.base64UrlAlphabet, .omitPaddingCharacter]) } catch {
            throw .invalidPayload("base64url: \(bytes.count % 4 == 1 ? "its length (\(bytes.count) characters) is not one base64 can have" : "\(error)")")
        }
    }
}
