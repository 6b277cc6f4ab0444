import SystemCalls
import Testing
@testable import MulticastDNS

/// The browser's logic driven with made-up times and packets (a responder's own announcements
/// among them): its question schedule, resolution, goodbyes, expiry and refreshes.
struct BrowserRoleTests {
    static let eth0: UInt32 = 2
    static let responder = PacketSource(address: SocketAddress(v4: [10, 216, 0, 1], port: 5353)!, interface: eth0)

    final class Events: @unchecked Sendable {
        var list: [BrowseEvent] = []
    }

    static func role(maximumInterval: Double = 3600) -> (BrowserRole, Events) {
        let events = Events()
        let role = BrowserRole(type: try! ServiceType("_di-nearby._tcp"), interfaces: InterfaceSet(members: [.init(name: "eth0", index: eth0)]),
                               addressBook: AddressBook { [eth0: [IPAddress("10.216.0.2")!, IPAddress("fe80::2")!]] },
                               maximumQueryInterval: maximumInterval) { events.list.append($0) }
        return (role, events)
    }

    /// What a responder publishing `instances` announces.
    static func announcement(_ instances: [ServiceInstance]) -> DNSMessage {
        let responder = ResponderRoleTests.role(instances)
        responder.start(now: 0)
        return responder.outgoing[0].message
    }

    @Test func asksAtOnceThenBacksOffToTheCap() {
        let (role, _) = Self.role(maximumInterval: 4)
        role.start(now: 50)
        #expect(role.outgoing.map(\.destination) == [.multicast(interface: Self.eth0, family: .v4), .multicast(interface: Self.eth0, family: .v6)])
        #expect(role.outgoing[0].message.questions == [DNSQuestion(name: try! DNSName("_di-nearby._tcp.local"), type: .ptr)])
        var sent: [Double] = [50]
        var now = 50.0
        role.outgoing = []
        while now < 70 {
            now = role.nextDeadline ?? 1000
            role.advance(now: now)
            if !role.outgoing.isEmpty { sent.append(now) }
            role.outgoing = []
        }
        #expect(Array(sent.prefix(6)) == [50, 51, 53, 57, 61, 65])
    }

    @Test func resolvesFromAnAnnouncementAndReportsGoodbyeASecondLater() throws {
        let instance = try ResponderRoleTests.instance()
        let (role, events) = Self.role()
        role.start(now: 0)
        role.receive(Self.announcement([instance]), from: Self.responder, now: 0.5)
        let service = try #require(role.resolved.values.first)
        #expect(events.list == [.added(service)])
        #expect(service.name == "Alice's Mac" && service.port == 53400 && service.host == instance.hostName && service.txt["v"] == "1")
        #expect(service.addresses == [ResponderRoleTests.v4, ResponderRoleTests.v6] && service.interface == "eth0")
        // Known answers in the next question: the PTR, with its remaining TTL.
        role.outgoing = []
        role.advance(now: 1)
        let known = try #require(role.outgoing.first?.message.answers.first)
        #expect(known.data == .ptr(instance.instanceName) && known.ttl == 4499)

        var goodbye = Self.announcement([instance])
        for index in goodbye.answers.indices { goodbye.answers[index].ttl = 0 }
        role.receive(goodbye, from: Self.responder, now: 5)
        #expect(events.list.count == 1)
        role.advance(now: 6)
        #expect(events.list == [.added(service), .removed(service)] && role.resolved.isEmpty)
    }

    @Test func recordsExpireAndAreAskedForAgainBeforeThey() throws {
        let instance = try ResponderRoleTests.instance()
        let (role, events) = Self.role()
        role.start(now: 0)
        var short = Self.announcement([instance])
        for index in short.answers.indices { short.answers[index].ttl = 10 }
        role.receive(short, from: Self.responder, now: 100)
        role.outgoing = []
        role.advance(now: 108.3)
        let asked = Set(role.outgoing.flatMap(\.message.questions).map(\.type))
        #expect(asked.isSuperset(of: [.ptr, .srv, .txt, .a, .aaaa]), "\(asked)")
        #expect(events.list.count == 1)
        role.advance(now: 110.01)
        #expect(events.list.count == 2 && role.resolved.isEmpty)
        if case .removed = events.list[1] {} else { Issue.record("expected a removal, got \(events.list[1])") }
    }

    @Test func aChangedTXTRecordWithCacheFlushIsAnUpdate() throws {
        let (role, events) = Self.role()
        role.start(now: 0)
        role.receive(Self.announcement([try ResponderRoleTests.instance()]), from: Self.responder, now: 1)
        role.receive(Self.announcement([try ResponderRoleTests.instance(txt: ["v": "2"])]), from: Self.responder, now: 5)
        #expect(events.list.count == 2)
        guard case .updated(let service) = events.list.last else { Issue.record("\(events.list)"); return }
        #expect(service.txt["v"] == "2")
        role.advance(now: 6.5)
        #expect(events.list.count == 2 && role.resolved.values.first?.txt["v"] == "2")
    }

    @Test func asksForWhatAPTRAloneLeavesOut() throws {
        let instance = try ResponderRoleTests.instance()
        let (role, events) = Self.role()
        role.start(now: 0)
        role.outgoing = []
        role.receive(DNSMessage(flags: [.response], answers: [DNSRecord(name: instance.type.name, data: .ptr(instance.instanceName), ttl: 4500)]),
                     from: Self.responder, now: 0.2)
        role.advance(now: 0.2)
        #expect(Set(role.outgoing.flatMap(\.message.questions)) == [DNSQuestion(name: instance.instanceName, type: .srv),
                                                                      DNSQuestion(name: instance.instanceName, type: .txt)])
        role.outgoing = []
        role.receive(DNSMessage(flags: [.response], answers: [
            DNSRecord(name: instance.instanceName, data: .srv(priority: 0, weight: 0, port: 1, target: instance.hostName), ttl: 120, cacheFlush: true),
            DNSRecord(name: instance.instanceName, data: .txt(.empty), ttl: 4500, cacheFlush: true),
        ]), from: Self.responder, now: 0.3)
        role.advance(now: 1.2)
        #expect(Set(role.outgoing.flatMap(\.message.questions)).isSuperset(of: [DNSQuestion(name: instance.hostName, type: .a),
                                                                                 DNSQuestion(name: instance.hostName, type: .aaaa)]))
        #expect(events.list.isEmpty)
        role.receive(DNSMessage(flags: [.response], answers: [DNSRecord(name: instance.hostName, data: .address(IPAddress("10.216.0.1")!), ttl: 120)]),
                     from: Self.responder, now: 1.3)
        #expect(events.list.count == 1 && events.list[0].service.port == 1)
    }

    @Test func ignoresAnswersFromOtherPortsAndUnrelatedRecords() throws {
        let (role, events) = Self.role()
        role.start(now: 0)
        let other = PacketSource(address: SocketAddress(v4: [10, 216, 0, 1], port: 5354)!, interface: Self.eth0)
        role.receive(Self.announcement([try ResponderRoleTests.instance()]), from: other, now: 1)
        let foreign = try ServiceInstance(name: "printer", type: "_ipp._tcp", port: 631, hostLabel: "printer")
        role.receive(Self.announcement([foreign]), from: Self.responder, now: 1)
        #expect(events.list.isEmpty && role.nextDeadline == 1)
    }

    @Test func readsZeroconfsAnnouncement() throws {
        let (role, events) = Self.role()
        role.start(now: 0)
        role.receive(try DNSMessage(parsing: try DNSMessageTests.fixture("zeroconf-announcement.bin")), from: Self.responder, now: 1)
        let service = try #require(events.list.first?.service)
        #expect(service.name == "Zoë's zc" && service.port == 53401 && service.addresses == [IPAddress("10.216.0.2")!])
        #expect(service.txt.dictionary == ["v": "2", "fp": "0123abcd", "flag": ""])
    }

    @Test func readsAvahisAnnouncementAndGoodbye() throws {
        let (role, events) = Self.role()
        role.start(now: 0)
        let avahi = PacketSource(address: SocketAddress(v6: [0xfd, 0x42, 0x4e, 0x42] + [UInt8](repeating: 0, count: 11) + [3], port: 5353)!,
                                 interface: Self.eth0)
        role.receive(try DNSMessage(parsing: try DNSMessageTests.fixture("avahi-announcement.bin")), from: avahi, now: 1)
        let service = try #require(events.list.first?.service)
        #expect(service.name == "Erin avahi" && service.port == 53404 && service.txt.dictionary == ["v": "5"])
        #expect(service.addresses == [IPAddress("10.216.0.3")!, IPAddress("fd42:4e42::3")!] && service.host.description == "avahi-h3.local.")
        role.receive(try DNSMessage(parsing: try DNSMessageTests.fixture("avahi-goodbye.bin")), from: avahi, now: 2)
        role.advance(now: 3)
        #expect(events.list == [.added(service), .removed(service)])
    }
}
