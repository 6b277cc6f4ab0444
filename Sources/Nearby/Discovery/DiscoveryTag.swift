import Crypto

/// What a paired-mode receiver puts in its DNS-SD announcement instead of anything stable: per
/// paired device, 8 bytes of HMAC-SHA256 under the key both devices kept from pairing (the SPAKE2
/// shared key), over the publisher's fingerprint and the current 15-minute epoch. Only that paired
/// device can compute it; it changes every epoch, and with it the instance and host names (random),
/// so nothing in the packets stays the same or names the device.
public enum DiscoveryTag {
    /// Seconds per epoch.
    public static let epochLength: Double = 900

    /// The epoch of `time` (seconds since 1970).
    public static func epoch(at time: Double) -> UInt64 { UInt64(max(0, time) / epochLength) }

    /// The tag `publisher` shows, in `epoch`, to the device it shares `key` with (16 hex digits).
    public static func tag(key: [UInt8], publisher: Fingerprint, epoch: UInt64) -> String {
        var message = Array("di-nearby discovery 1".utf8) + publisher.bytes
        for shift in stride(from: 56, through: 0, by: -8) { message.append(UInt8(truncatingIfNeeded: epoch >> UInt64(shift))) }
        let mac = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key))
        return Fingerprint.hex(Array(Array(mac).prefix(8)))
    }

    /// Whether `tags` (a TXT value, comma-separated) hold the one `publisher` shows us now or in
    /// the epoch before (an announcement made just before the boundary is still current).
    public static func matches(_ tags: String, key: [UInt8], publisher: Fingerprint, now: Double) -> Bool {
        let shown = Set(tags.split(separator: ",").map(String.init))
        let current = epoch(at: now)
        return [current, current &- 1].contains { shown.contains(tag(key: key, publisher: publisher, epoch: $0)) }
    }

    /// The most tags one announcement holds: `t=` and 14 tags with their commas fill 239 of a TXT
    /// string's 255 bytes.
    static let maximumTags = 14

    /// `tags` and random decoys in random order, 4, 8, 12 or 14 in all (or `tags` alone when there are
    /// more). The number of tags would otherwise be the number of devices paired, the same every
    /// epoch and readable by anyone: lab-privacy.sh's capture listed it. A decoy is 8 random bytes,
    /// as a tag is 8 bytes of an HMAC, so nothing tells them apart without the pair's key.
    static func padded(_ tags: [String]) -> [String] {
        let target = min(maximumTags, max(4, (tags.count + 3) / 4 * 4))
        let decoys = (0..<max(0, target - tags.count)).map { _ in Fingerprint.hex((0..<8).map { _ in UInt8.random(in: 0...255) }) }
        return (tags + decoys).shuffled()
    }

    /// A random DNS label (`di-` and 12 hex digits), new each epoch.
    static func randomLabel() -> String {
        "di-" + Fingerprint.hex((0..<6).map { _ in UInt8.random(in: 0...255) })
    }
}
