import MulticastDNS
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
            // Each TXT string within its 255 bytes.
            #expect(instance.txt.pairs.allSatisfy { $0.key.utf8.count + 1 + ($0.value?.count ?? 0) <= 255 })
            return (DiscoveryTag.tags(in: instance.txt) ?? "").split(separator: ",")
        }
        // More than 14 paired devices: several TXT strings (t, t2, …), at most 56 tags; the 56
        // paired last are announced (a receiver with 15 paired devices could not announce at all).
        for (paired, shown) in [(0, 4), (1, 4), (4, 4), (5, 8), (9, 12), (13, 14), (14, 14), (15, 28), (29, 42), (56, 56), (80, 56)] {
            let shownTags = try tags(pairedWith: paired)
            #expect(shownTags.count == shown, "\(paired) paired")
            #expect(shownTags.allSatisfy { $0.count == 16 && $0.allSatisfy(\.isHexDigit) }, "decoys look like tags")
        }
        // Every paired device still finds its own tag among the decoys.
        let shown = try tags(pairedWith: 5).joined(separator: ",")
        for index in 0..<5 {
            #expect(DiscoveryTag.matches(shown, key: [UInt8](repeating: UInt8(index), count: 16), publisher: Self.me, now: 1_800_000_000))
        }
        let many = try tags(pairedWith: 30).joined(separator: ",")
        for index in [0, 14, 29] {
            #expect(DiscoveryTag.matches(many, key: [UInt8](repeating: UInt8(index), count: 16), publisher: Self.me, now: 1_800_000_000))
        }
    }

    /// Looking for one paired device takes only that device: an everyone-mode stranger in reach is
    /// identified too (as no paired device), and taking it sent to the stranger and noted the
    /// stranger's address as the device's.
    @Test func findingAPairedDeviceTakesOnlyItsOwnAnnouncement() throws {
        let device = PairedDevice(name: "desk", fingerprint: Self.me, pairedAt: 0, discoveryKey: Self.key)
        let now = 1_800_000_000.0
        func service(_ txt: TXTRecord, address: String) throws -> ResolvedService {
            try ResolvedService(name: "x", type: ServiceType(Announcement.serviceType), instanceName: DNSName("x._di-nearby._tcp.local"),
                                host: DNSName("h.local"), port: 53400, txt: txt, addresses: [IPAddress(address)!], interface: "eth0", interfaceIndex: 2)
        }
        let stranger = try service(TXTRecord([("v", "1"), ("m", "everyone"), ("fp", Fingerprint(bytes: [UInt8](repeating: 1, count: 32))!.hex)]),
                                   address: "10.0.0.3")
        #expect(DeviceFinder.identify(stranger, paired: [device], now: now) != nil, "a stranger is identified (for list)")
        #expect(DeviceFinder.matching(stranger, device: device, now: now) == nil)
        let own = try Announcement.instance(mode: .paired, deviceName: "x", identity: Self.me, port: 53400, paired: [device], now: now)
        let found = DeviceFinder.matching(try service(own.txt, address: "10.0.0.2"), device: device, now: now)
        #expect(found?.paired?.fingerprint == Self.me && found?.host == "10.0.0.2")
    }
}
