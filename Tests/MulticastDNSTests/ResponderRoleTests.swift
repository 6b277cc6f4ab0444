import SystemCalls
import Testing
@testable import MulticastDNS

/// The responder's logic driven with made-up times and packets: what it announces, answers,
/// holds back and says goodbye to.
struct ResponderRoleTests {
    static let eth0: UInt32 = 2
    static let v4 = IPAddress("10.216.0.1")!, v6 = IPAddress("fe80::ff:fe00:1")!
    static let querier = PacketSource(address: SocketAddress(v4: [10, 216, 0, 2], port: 5353)!, interface: eth0)

    static func instance(_ name: String = "Alice's Mac", txt: [String: String] = ["v": "1"]) throws -> ServiceInstance {
        try ServiceInstance(name: name, type: "_di-nearby._tcp", port: 53400, txt: TXTRecord(txt), hostLabel: "di-3fa2")
    }

    static func role(_ instances: [ServiceInstance]) -> ResponderRole {
        ResponderRole(instances: instances, interfaces: InterfaceSet(members: [.init(name: "eth0", index: eth0)]),
                      addressBook: AddressBook { [eth0: [v6, v4], 3: [IPAddress("192.168.9.9")!]] })
    }

    static func query(_ name: DNSName, _ type: DNSRecordType, qu: Bool = false, known: [DNSRecord] = []) -> DNSMessage {
        DNSMessage(questions: [DNSQuestion(name: name, type: type, unicastResponse: qu)], answers: known)
    }

    /// A role that has made both announcements (at 0 and 1 s), with nothing left to send.
    static func announced(_ instances: [ServiceInstance]) -> ResponderRole {
        let role = role(instances)
        role.start(now: 0)
        role.advance(now: 1)
        role.outgoing = []
        return role
    }

    @Test func announcesEveryRecordTwiceASecondApartOnBothFamilies() throws {
        let instance = try Self.instance()
        let role = Self.role([instance])
        role.start(now: 100)
        #expect(role.outgoing.map(\.destination) == [.multicast(interface: Self.eth0, family: .v4), .multicast(interface: Self.eth0, family: .v6)])
        let answers = role.outgoing[0].message.answers
        #expect(role.outgoing[0].message.flags == [.response, .authoritative])
        #expect(Set(answers.map(\.type)) == [.ptr, .srv, .txt, .a, .aaaa] && answers.count == 6)
        #expect(answers.filter(\.cacheFlush).map(\.type).sorted { $0.rawValue < $1.rawValue } == [.a, .txt, .aaaa, .srv])
        #expect(answers.contains(DNSRecord(name: ServiceType.enumerationName, data: .ptr(instance.type.name), ttl: 4500)))
        #expect(answers.contains(DNSRecord(name: instance.hostName, data: .address(Self.v4), ttl: 120, cacheFlush: true)))
        #expect(role.nextDeadline == 101)
        role.outgoing = []
        role.advance(now: 100.5)
        #expect(role.outgoing.isEmpty)
        role.advance(now: 101)
        #expect(role.outgoing.count == 2 && role.nextDeadline == nil)
    }

    @Test func answersPTRAfterARandomDelayWithTheInstanceAsAdditionals() throws {
        let instance = try Self.instance()
        let role = Self.announced([instance])
        role.receive(Self.query(instance.type.name, .ptr), from: Self.querier, now: 10)
        #expect(role.outgoing.isEmpty)
        let due = try #require(role.nextDeadline)
        #expect(due >= 10.02 && due <= 10.12)
        role.advance(now: due)
        let response = try #require(role.outgoing.first)
        #expect(role.outgoing.count == 1 && response.destination == .multicast(interface: Self.eth0, family: .v4))
        #expect(response.message.answers == [DNSRecord(name: instance.type.name, data: .ptr(instance.instanceName), ttl: 4500)])
        #expect(Set(response.message.additionals.map(\.type)) == [.srv, .txt, .a, .aaaa])
        // The interface's own addresses: never the other interface's 192.168.9.9.
        #expect(!response.message.additionals.contains { $0.data == .address(IPAddress("192.168.9.9")!) })
    }

    @Test func answersUniqueRecordsAtOnceAndTheOtherFamilyAsAdditional() throws {
        let instance = try Self.instance()
        let role = Self.announced([instance])
        role.receive(Self.query(instance.hostName, .a), from: Self.querier, now: 10)
        let response = try #require(role.outgoing.first)
        #expect(response.message.answers == [DNSRecord(name: instance.hostName, data: .address(Self.v4), ttl: 120, cacheFlush: true)])
        #expect(response.message.additionals == [DNSRecord(name: instance.hostName, data: .address(Self.v6), ttl: 120, cacheFlush: true)])
        role.outgoing = []
        role.receive(Self.query(instance.instanceName, .srv), from: Self.querier, now: 20)
        #expect(role.outgoing.first?.message.answers.map(\.type) == [.srv])
        #expect(Set(role.outgoing.first?.message.additionals.map(\.type) ?? []) == [.a, .aaaa])
        role.outgoing = []
        role.receive(Self.query(ServiceType.enumerationName, .ptr), from: Self.querier, now: 30)
        role.advance(now: 30.2)
        #expect(role.outgoing.first?.message.answers == [DNSRecord(name: ServiceType.enumerationName, data: .ptr(instance.type.name), ttl: 4500)])
    }

    @Test func knownAnswersWithHalfTheirTTLAreLeftOut() throws {
        let instance = try Self.instance()
        let role = Self.announced([instance])
        let ptr = DNSRecord(name: instance.type.name, data: .ptr(instance.instanceName), ttl: 2250)
        role.receive(Self.query(instance.type.name, .ptr, known: [ptr]), from: Self.querier, now: 10)
        #expect(role.nextDeadline == nil && role.outgoing.isEmpty)
        var stale = ptr
        stale.ttl = 2249
        role.receive(Self.query(instance.type.name, .ptr, known: [stale]), from: Self.querier, now: 20)
        role.advance(now: 20.2)
        #expect(role.outgoing.count == 1)
    }

    @Test func aRecordIsNotMulticastTwiceWithinASecond() throws {
        let instance = try Self.instance()
        let role = Self.announced([instance])
        role.receive(Self.query(instance.hostName, .a), from: Self.querier, now: 10)
        role.receive(Self.query(instance.hostName, .a), from: Self.querier, now: 10.5)
        #expect(role.outgoing.count == 1)
        role.receive(Self.query(instance.hostName, .a), from: Self.querier, now: 11.1)
        #expect(role.outgoing.count == 2)
        // Right after the announcement, a question is not answered by multicast again.
        let fresh = Self.role([instance])
        fresh.start(now: 0)
        fresh.outgoing = []
        fresh.receive(Self.query(instance.hostName, .a), from: Self.querier, now: 0.5)
        #expect(fresh.outgoing.isEmpty)
    }

    @Test func quQuestionsAreAnsweredByUnicastAndLegacyQueriesWithCappedTTL() throws {
        let instance = try Self.instance()
        let role = Self.announced([instance])
        role.receive(Self.query(instance.type.name, .ptr, qu: true), from: Self.querier, now: 10)
        let unicast = try #require(role.outgoing.first)
        #expect(unicast.destination == .unicast(Self.querier.address, interface: Self.eth0) && role.nextDeadline == nil)
        #expect(unicast.message.answers.map(\.type) == [.ptr] && unicast.message.id == 0)

        role.outgoing = []
        let legacy = PacketSource(address: SocketAddress(v4: [10, 216, 0, 2], port: 40000)!, interface: Self.eth0)
        var query = Self.query(instance.instanceName, .srv)
        query.id = 0xBEEF
        role.receive(query, from: legacy, now: 20)
        let reply = try #require(role.outgoing.first)
        #expect(reply.destination == .unicast(legacy.address, interface: Self.eth0))
        #expect(reply.message.id == 0xBEEF && reply.message.questions == query.questions)
        #expect((reply.message.answers + reply.message.additionals).allSatisfy { $0.ttl <= 10 && !$0.cacheFlush })
    }

    @Test func ignoresResponsesOtherInterfacesAndOtherNames() throws {
        let instance = try Self.instance()
        let role = Self.announced([instance])
        var response = Self.query(instance.type.name, .ptr)
        response.flags = [.response]
        role.receive(response, from: Self.querier, now: 10)
        role.receive(Self.query(instance.type.name, .ptr), from: PacketSource(address: Self.querier.address, interface: 3), now: 10)
        role.receive(Self.query(try DNSName("_other._tcp.local"), .ptr), from: Self.querier, now: 10)
        role.receive(Self.query(instance.hostName, .txt), from: Self.querier, now: 10)
        #expect(role.outgoing.isEmpty && role.nextDeadline == nil)
    }

    @Test func updatesSayGoodbyeToWhatWentAndAnnounceTheRest() throws {
        let alice = try Self.instance(), bob = try Self.instance("Bob")
        let role = Self.announced([alice, bob])
        role.handle(.update([try Self.instance(txt: ["v": "2"])]), now: 10)
        let goodbye = try #require(role.outgoing.first)
        // Bob's PTR, SRV and TXT go; Alice's TXT is replaced by its cache-flush bit, no goodbye.
        #expect(goodbye.message.answers.allSatisfy { $0.ttl == 0 })
        #expect(Set(goodbye.message.answers.map(\.name)) == [alice.type.name, bob.instanceName])
        #expect(goodbye.message.answers.count == 3)
        let announcement = role.outgoing[2].message.answers
        #expect(announcement.contains { $0.data == .txt(try! TXTRecord(["v": "2"])) && $0.cacheFlush })
        #expect(!announcement.contains { $0.name == bob.instanceName })
        #expect(role.nextDeadline == 11)

        role.outgoing = []
        role.finish(now: 12)
        #expect(role.outgoing.count == 2 && role.outgoing.allSatisfy { $0.message.answers.count == 6 && $0.message.answers.allSatisfy { $0.ttl == 0 } })
        #expect(role.nextDeadline == nil)
    }
}
