import UniformTypes

/// `canOpenURL` for one app, prepared (``SchemeDirectory/question(from:)``). Only the app's
/// counted queried schemes (at most 50) can ever be answered yes, so their answers are taken from
/// the registry's index once and kept in a small open-addressing table of scheme hashes: a check
/// hashes the URL's scheme as it scans it (no allocation, no record decoded) and compares bytes on
/// a hash match. The answers are those of the registry the question was prepared from; prepare a
/// new one when the registry is rebuilt (``AppRegistry/RegistryStore/isCurrent(_:root:catalog:mimeDirectories:)``).
public struct CanOpenQuestion: Sendable {
    /// Slots of (hash, index into `schemes` + 1); 0 is empty.
    let slots: [(hash: UInt32, entry: Int32)]
    /// The schemes answered yes, lowercased, as bytes.
    let schemes: [[UInt8]]
    let mask: Int

    init(registry: TypeRegistry, queried: Set<String>) {
        let yes = queried.filter { registry.hasApp(handlingScheme: $0) }.sorted().map { Array($0.utf8) }
        var size = 16
        while size < yes.count * 4 { size *= 2 }
        var slots = [(hash: UInt32, entry: Int32)](repeating: (0, 0), count: size)
        for (i, scheme) in yes.enumerated() {
            let h = Self.hash(scheme)
            var k = Int(h) & (size - 1)
            while slots[k].entry != 0 { k = (k + 1) & (size - 1) }
            slots[k] = (h, Int32(i + 1))
        }
        self.slots = slots
        schemes = yes
        mask = size - 1
    }

    static func hash<Bytes: Sequence>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        var h: UInt32 = 2_166_136_261
        for b in bytes { h = (h ^ UInt32(b)) &* 16_777_619 }
        return h
    }

    /// Whether the app may ask about `url`'s scheme and a registered app handles it; `false` for
    /// text without a valid scheme.
    public func canOpen(_ url: String) -> Bool {
        var url = url
        return url.withUTF8 { bytes in
            // Scan the scheme: validate, lowercase and hash in one pass.
            var h: UInt32 = 2_166_136_261
            var length = 0
            while length < bytes.count {
                let b = bytes[length]
                if b == 0x3A { break }
                let lower = b >= 0x41 && b <= 0x5A ? b | 0x20 : b
                let valid = (lower >= 0x61 && lower <= 0x7A) || (length > 0 && ((b >= 0x30 && b <= 0x39) || b == 0x2B || b == 0x2D || b == 0x2E))
                guard valid else { return false }
                h = (h ^ UInt32(lower)) &* 16_777_619
                length += 1
            }
            guard length > 0, length < bytes.count else { return false }
            var k = Int(h) & mask
            while slots[k].entry != 0 {
                if slots[k].hash == h {
                    let scheme = schemes[Int(slots[k].entry) - 1]
                    if scheme.count == length && (0..<length).allSatisfy({ i in
                        let b = bytes[i]
                        return (b >= 0x41 && b <= 0x5A ? b | 0x20 : b) == scheme[i]
                    }) { return true }
                }
                k = (k + 1) & mask
            }
            return false
        }
    }

    /// The scheme of `url`, lowercased, when it has a valid one (RFC 3986: a letter, then
    /// letters, digits, `+`, `-`, `.`, up to the first `:`).
    static func scheme(of url: String) -> String? {
        var bytes: [UInt8] = []
        for b in url.utf8 {
            if b == 0x3A { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            let lower = b >= 0x41 && b <= 0x5A ? b | 0x20 : b
            let valid = (lower >= 0x61 && lower <= 0x7A) || (!bytes.isEmpty && ((b >= 0x30 && b <= 0x39) || b == 0x2B || b == 0x2D || b == 0x2E))
            guard valid else { return nil }
            bytes.append(lower)
        }
        return nil
    }
}
