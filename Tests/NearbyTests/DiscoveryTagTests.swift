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
        // Everyone-mode is meant to be found: its name and fingerprint are shown.
        let everyone = try Announcement.instance(mode: .everyone, deviceName: "Ann's laptop", identity: Self.me, port: 1, paired: paired, now: 0)
        #expect(everyone.name == "Ann's laptop" && everyone.txt["fp"] == Self.me.hex)
    }
}
