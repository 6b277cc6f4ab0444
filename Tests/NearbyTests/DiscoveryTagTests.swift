@testable import Nearby
import Testing

/// What a paired-mode announcement shows: nothing stable or identifying, only tags the paired
/// device recognises, new every epoch. (Found across namespaces: NearbyLabTests.)
@Suite struct DiscoveryTagTests {
    static let me = Fingerprint(bytes: [UInt8](repeating: 0xAB, count: 32))!
    static let key = [UInt8](repeating: 7, count: 16)

    @Test func onlyThePairedDeviceRecognisesTheTagAndOnlyForTwoEpochs() {
        let now = 1_800_000_000.0
        let epoch = DiscoveryTag.epoch(at: now)
        let tag = DiscoveryTag.tag(key: Self.key, publisher: Self.me, epoch: epoch)
        #expect(tag.count == 16)
        #expect(DiscoveryTag.matches("x," + tag, key: Self.key, publisher: Self.me, now: now))
        #expect(DiscoveryTag.matches(tag, key: Self.key, publisher: Self.me, now: now + DiscoveryTag.epochLength), "the epoch before still counts")
        #expect(!DiscoveryTag.matches(tag, key: Self.key, publisher: Self.me, now: now + 2 * DiscoveryTag.epochLength))
        #expect(!DiscoveryTag.matches(tag, key: [UInt8](repeating: 8, count: 16), publisher: Self.me, now: now), "another pair's key")
        let other = Fingerprint(bytes: [UInt8](repeating: 0xCD, count: 32))!
        #expect(DiscoveryTag.tag(key: Self.key, publisher: other, epoch: epoch) != tag, "each side of a pair shows its own")
        #expect(DiscoveryTag.tag(key: Self.key, publisher: Self.me, epoch: epoch + 1) != tag)
    }

    @Test func aPairedModeAnnouncementNamesNothingAndChangesEveryEpoch() throws {
        let paired = [PairedDevice(name: "desk", fingerprint: Self.me, pairedAt: 0, discoveryKey: Self.key)]
        let first = try Announcement.instance(mode: .paired, deviceName: "Ann's laptop", identity: Self.me, port: 53400, paired: paired, now: 1_800_000_000)
        let later = try Announcement.instance(mode: .paired, deviceName: "Ann's laptop", identity: Self.me, port: 53400, paired: paired,
                                              now: 1_800_000_000 + DiscoveryTag.epochLength)
        for instance in [first, later] {
            #expect(instance.txt.pairs.map(\.key).sorted() == ["t", "v"])
            let text = "\(instance.name) \(instance.hostLabel) \(instance.txt.pairs.map { String(decoding: $0.value ?? [], as: UTF8.self) })"
            #expect(!text.contains("Ann") && !text.contains(Self.me.hex.prefix(8)), "\(text)")
        }
        #expect(first.name != later.name && first.hostLabel != later.hostLabel && first.txt["t"] != later.txt["t"])
        // Each tag is among 4 in all (3 decoys), which hides how many devices are paired.
        #expect(first.txt["t"]?.split(separator: ",").count == 4)
        #expect(DiscoveryTag.matches(first.txt["t"] ?? "", key: Self.key, publisher: Self.me, now: 1_800_000_000))
        // Everyone-mode is meant to be found: its name and fingerprint are shown.
        let everyone = try Announcement.instance(mode: .everyone, deviceName: "Ann's laptop", identity: Self.me, port: 1, paired: paired, now: 0)
        #expect(everyone.name == "Ann's laptop" && everyone.txt["fp"] == Self.me.hex)
    }

    @Test func theNumberOfTagsShowsABucketNotHowManyDevicesArePaired() throws {
        func tags(pairedWith count: Int) throws -> [Substring] {
            let paired = (0..<count).map { index in
                PairedDevice(name: "d\(index)", fingerprint: Fingerprint(bytes: [UInt8](repeating: UInt8(index), count: 32))!, pairedAt: 0,
                             discoveryKey: [UInt8](repeating: UInt8(index), count: 16))
            }
            let instance = try Announcement.instance(mode: .paired, deviceName: "x", identity: Self.me, port: 1, paired: paired, now: 1_800_000_000)
            return (instance.txt["t"] ?? "").split(separator: ",")
        }
        for (paired, shown) in [(0, 4), (1, 4), (4, 4), (5, 8), (9, 12), (13, 14), (14, 14)] {
            let shownTags = try tags(pairedWith: paired)
            #expect(shownTags.count == shown, "\(paired) paired")
            #expect(shownTags.allSatisfy { $0.count == 16 && $0.allSatisfy(\.isHexDigit) }, "decoys look like tags")
        }
        // Every paired device still finds its own tag among the decoys.
        let shown = try tags(pairedWith: 5).joined(separator: ",")
        for index in 0..<5 {
            #expect(DiscoveryTag.matches(shown, key: [UInt8](repeating: UInt8(index), count: 16), publisher: Self.me, now: 1_800_000_000))
        }
    }
}
