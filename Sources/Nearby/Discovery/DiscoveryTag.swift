import Crypto
import MulticastDNS

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

    /// The most tags one TXT string holds: `t=` and 14 tags with their commas fill 239 of its
    /// 255 bytes.
    static let tagsPerString = 14
    /// The TXT keys the tags go under, 14 to a key: `t`, then `t2`…`t4` for more paired devices.
    static let keys = ["t", "t2", "t3", "t4"]
    /// The most tags an announcement holds (56); with more devices paired, the 56 paired last
    /// are announced, and the others reach this device at its last address.
    static var maximumTags: Int { tagsPerString * keys.count }

    /// `tags` and random decoys in random order, 4, 8, 12 or 14 in all, or for more a multiple of
    /// 14 (at most ``maximumTags``), cut into TXT strings of 14. The number of tags would
    /// otherwise be the number of devices paired, the same every epoch and readable by anyone:
    /// lab-privacy.sh's capture listed it. A decoy is 8 random bytes, as a tag is 8 bytes of an
    /// HMAC, so nothing tells them apart without the pair's key.
    static func padded(_ tags: [String]) -> [[String]] {
        let kept = Array(tags.suffix(maximumTags))
        let target = kept.count <= tagsPerString
            ? min(tagsPerString, max(4, (kept.count + 3) / 4 * 4))
            : (kept.count + tagsPerString - 1) / tagsPerString * tagsPerString
        let decoys = (0..<max(0, target - kept.count)).map { _ in Fingerprint.hex((0..<8).map { _ in UInt8.random(in: 0...255) }) }
        let all = (kept + decoys).shuffled()
        return stride(from: 0, to: all.count, by: tagsPerString).map { Array(all[$0..<min(all.count, $0 + tagsPerString)]) }
    }

    /// The tags of a TXT record, from every key they may be under.
    static func tags(in txt: TXTRecord) -> String? {
        let values = keys.compactMap { txt[$0] }
        return values.isEmpty ? nil : values.joined(separator: ",")
    }

    /// A random DNS label (`di-` and 12 hex digits), new each epoch.
    static func randomLabel() -> String {
        "di-" + Fingerprint.hex((0..<6).map { _ in UInt8.random(in: 0...255) })
    }
}
