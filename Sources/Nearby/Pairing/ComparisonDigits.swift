import Crypto

/// Pairing by numeric comparison, for people: no code is typed. Both devices show six digits
/// derived from both certificates' fingerprints and a nonce from each side, and each person says
/// whether the two screens agree. The device that connects (A) commits to its nonce before it sees
/// the other's and reveals it only after; so a device in the middle, which must present other
/// certificates to each side, has to pick its own nonces blind and makes the digits agree with one
/// chance in a million. (Bluetooth's Secure Simple Pairing compares numbers the same way.)
public enum ComparisonDigits {
    /// Bytes per nonce.
    static let nonceLength = 32

    /// A fresh nonce.
    static func nonce() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<nonceLength).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// A's commitment to `nonce`, bound to both certificates.
    static func commitment(nonce: [UInt8], a: Fingerprint, b: Fingerprint) -> [UInt8] {
        digest("di-nearby compare commit 1", [nonce, a.bytes, b.bytes])
    }

    /// The six digits both devices show, `123 456`.
    public static func digits(a: Fingerprint, b: Fingerprint, nonceA: [UInt8], nonceB: [UInt8]) -> String {
        let hash = digest("di-nearby compare digits 1", [a.bytes, b.bytes, nonceA, nonceB])
        let number = hash.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) } % 1_000_000
        let text = String(number)
        let padded = String(repeating: "0", count: 6 - text.count) + text
        return String(padded.prefix(3)) + " " + String(padded.suffix(3))
    }

    /// The key both keep for discovery tags (``DiscoveryTag``): the nonces travelled inside the
    /// TLS connection, and the comparison proved it ran between these two certificates.
    static func sharedKey(a: Fingerprint, b: Fingerprint, nonceA: [UInt8], nonceB: [UInt8]) -> [UInt8] {
        digest("di-nearby compare key 1", [a.bytes, b.bytes, nonceA, nonceB])
    }

    /// SHA-256 over a label and length-prefixed parts (so no two lists of parts hash alike).
    static func digest(_ label: String, _ parts: [[UInt8]]) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: Array(label.utf8))
        for part in parts {
            hasher.update(data: [UInt8(part.count >> 8 & 0xFF), UInt8(part.count & 0xFF)])
            hasher.update(data: part)
        }
        return Array(hasher.finalize())
    }
}
