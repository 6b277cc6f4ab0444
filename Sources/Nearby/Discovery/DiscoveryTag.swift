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

    /// A random DNS label (`di-` and 12 hex digits), new each epoch.
    static func randomLabel() -> String {
        "di-" + Fingerprint.hex((0..<6).map { _ in UInt8.random(in: 0...255) })
    }
}
