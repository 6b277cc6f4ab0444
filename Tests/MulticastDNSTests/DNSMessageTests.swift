import Foundation
import Testing
@testable import MulticastDNS

/// The codec: round trips with compression, real packets python-zeroconf sent in the lab
/// (Fixtures/README.md says how they were captured), and hostile packets that must give an error
/// naming the offset, never a trap.
struct DNSMessageTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)")
        return Array(try Data(contentsOf: url))
    }

    static let type = try! DNSName("_di-nearby._tcp.local")
    static let instance = try! type.prepending(Array("Zoë's zc".utf8))
    static let host = try! DNSName("zc-h2.local")

    static func sample() throws -> DNSMessage {
        let instance = try DNSName(labels: ["Alice's Mac.2", "_di-nearby", "_tcp", "local"])
        let host = try DNSName("di-3fa2.local")
        return DNSMessage(
            id: 0x1234, flags: [.response, .authoritative],
            questions: [DNSQuestion(name: type, type: .ptr, unicastResponse: true), DNSQuestion(name: host, type: .any)],
            answers: [
                DNSRecord(name: type, data: .ptr(instance), ttl: 4500),
                DNSRecord(name: instance, data: .srv(priority: 1, weight: 2, port: 53400, target: host), ttl: 120, cacheFlush: true),
                DNSRecord(name: instance, data: .txt(try TXTRecord([("v", "1"), ("fp", "3fa2"), ("flag", nil)])), ttl: 4500, cacheFlush: true),
            ],
            authorities: [DNSRecord(name: host, data: .other(type: DNSRecordType(rawValue: 99), bytes: [1, 2, 3]), ttl: 7)],
            additionals: [
                DNSRecord(name: host, data: .address(IPAddress("10.216.0.1")!), ttl: 120, cacheFlush: true),
                DNSRecord(name: host, data: .address(IPAddress("fe80::ff:fe00:1")!), ttl: 120, cacheFlush: true),
                DNSRecord(name: host, data: .nsec(nextName: host, typeBitmaps: DNSRecordData.nsecBitmaps([.a, .aaaa])), ttl: 120, cacheFlush: true),
                DNSRecord(name: instance, data: .txt(.empty), ttl: 0),
            ])
    }

    @Test func roundTripKeepsEveryFieldAndCompressesNames() throws {
        let message = try Self.sample()
        let bytes = message.encoded()
        let parsed = try DNSMessage(parsing: bytes)
        #expect(parsed == message)
        #expect(parsed.questions[0].unicastResponse && !parsed.questions[1].unicastResponse)
        #expect(parsed.answers[1].cacheFlush && !parsed.answers[0].cacheFlush)
        #expect(parsed.additionals[2].data.nsecTypes == [.a, .aaaa])
        // The type name is written once; every later "_di-nearby._tcp.local" is a pointer to it.
        let typeBytes = Array("\u{0A}_di-nearby".utf8)
        #expect(bytes.indices.filter { Array(bytes[$0...].prefix(typeBytes.count)) == typeBytes }.count == 1)
        #expect(bytes.count < 250, "\(bytes.count) bytes")
        // An empty TXT record is one empty string on the wire (RFC 6763 §6.1).
        #expect(DNSMessage(answers: [DNSRecord(name: Self.host, data: .txt(.empty), ttl: 1)]).encoded().suffix(3) == [0, 1, 0])
    }

    @Test func namesCompareWithoutCaseAndEscapeDots() throws {
        let name = try DNSName(labels: ["Alice's Mac.2", "_Di-Nearby", "_tcp", "LOCAL"])
        #expect(name == (try DNSName(labels: ["alice's mac.2", "_di-nearby", "_TCP", "local"])))
        #expect(name.hashValue == (try DNSName(labels: ["ALICE'S MAC.2", "_di-nearby", "_tcp", "local"])).hashValue)
        #expect(name != (try DNSName(labels: ["Alice's Mac", "2", "_di-nearby", "_tcp", "local"])))
        #expect(name.description == "Alice's Mac\\.2._Di-Nearby._tcp.LOCAL.")
        #expect(try DNSName(name.description) == name)
        #expect(try DNSName(".") == .root && (try DNSName("local.")) == .local)
        #expect(throws: MulticastDNSError.emptyLabel(name: "a..b")) { try DNSName("a..b") }
        #expect(throws: MulticastDNSError.labelTooLong(label: String(repeating: "x", count: 64), bytes: 64)) {
            try DNSName(labels: [String(repeating: "x", count: 64)])
        }
        #expect(throws: MulticastDNSError.nameTooLong(name: Array(repeating: String(repeating: "x", count: 63), count: 4).joined(separator: ".") + ".", bytes: 257)) {
            try DNSName(labels: Array(repeating: String(repeating: "x", count: 63), count: 4))
        }
    }

    @Test func txtPairsFollowRFC6763() throws {
        let text = TXTRecord(unchecked: [Array("Path=/a".utf8), Array("path=/b".utf8), Array("flag".utf8), Array("=x".utf8),
                                         Array("empty=".utf8), [], Array("eq=a=b".utf8)])
        #expect(text.pairs.map(\.key) == ["Path", "flag", "empty", "eq"])
        #expect(text["PATH"] == "/a" && text["flag"] == "" && text["empty"] == "" && text["eq"] == "a=b" && text["x"] == nil)
        #expect(text.dictionary == ["Path": "/a", "flag": "", "empty": "", "eq": "a=b"])
        #expect(try TXTRecord(["b": "2", "a": "1"]).strings == [Array("a=1".utf8), Array("b=2".utf8)])
        #expect(throws: MulticastDNSError.invalidTXTKey("a=b")) { try TXTRecord([("a=b", "c")]) }
        #expect(throws: MulticastDNSError.invalidTXTKey("")) { try TXTRecord([("", "c")]) }
        #expect(throws: MulticastDNSError.txtStringTooLong(key: "k=" + String(repeating: "v", count: 30), bytes: 256)) {
            try TXTRecord([("k", String(repeating: "v", count: 254))])
        }
    }

    @Test func serviceTypesAndInstances() throws {
        #expect(try ServiceType("_di-nearby._tcp").name == Self.type)
        #expect(try ServiceType("_di-nearby._tcp.local.").description == "_di-nearby._tcp")
        for bad in ["di-nearby._tcp", "_di-nearby._sctp", "_._tcp", "_0123456789abcdef._tcp", "_123._tcp", "_a b._tcp", "_x._tcp.example"] {
            #expect(throws: MulticastDNSError.invalidServiceType(bad)) { try ServiceType(bad) }
        }
        let instance = try ServiceInstance(name: "Alice's Mac", type: "_di-nearby._tcp", port: 1, hostLabel: "di-3fa2")
        #expect(instance.instanceName.description == "Alice's Mac._di-nearby._tcp.local.")
        #expect(instance.hostName.description == "di-3fa2.local.")
        #expect(throws: MulticastDNSError.emptyLabel(name: ".")) { try ServiceInstance(name: "x", type: "_a._tcp", port: 1, hostLabel: "") }
    }

    // MARK: Packets from python-zeroconf 0.154

    @Test func zeroconfAnnouncementParsesToItsRecords() throws {
        let message = try DNSMessage(parsing: try Self.fixture("zeroconf-announcement.bin"))
        #expect(message.isResponse && message.flags.contains(.authoritative) && message.questions.isEmpty)
        #expect(message.answers.count == 5)
        let byType = Dictionary(grouping: message.answers, by: \.type)
        #expect(byType[.ptr]?.first == DNSRecord(name: Self.type, data: .ptr(Self.instance), ttl: 4500))
        #expect(byType[.srv]?.first == DNSRecord(name: Self.instance, data: .srv(priority: 0, weight: 0, port: 53401, target: Self.host),
                                                 ttl: 120, cacheFlush: true))
        let txt = try #require(byType[.txt]?.first)
        guard case .txt(let text) = txt.data else { Issue.record("not TXT"); return }
        #expect(text.dictionary == ["v": "2", "fp": "0123abcd", "flag": ""] && txt.cacheFlush && txt.ttl == 4500)
        #expect(byType[.a]?.first == DNSRecord(name: Self.host, data: .address(IPAddress("10.216.0.2")!), ttl: 120, cacheFlush: true))
        // Its NSEC says the host has an A record and nothing else, its next name compressed.
        let nsec = try #require(byType[.nsec]?.first)
        #expect(nsec.name == Self.host && nsec.data.nsecTypes == [.a])
        #expect(try DNSMessage(parsing: message.encoded()) == message)
    }

    @Test func zeroconfAdditionalsProbeQueriesAndGoodbye() throws {
        let additionals = try DNSMessage(parsing: try Self.fixture("zeroconf-announcement-additionals.bin"))
        #expect(additionals.answers.map(\.type) == [.ptr] && Set(additionals.additionals.map(\.type)) == [.srv, .txt, .a, .nsec])

        let probe = try DNSMessage(parsing: try Self.fixture("zeroconf-probe.bin"))
        #expect(!probe.isResponse && probe.questions == [DNSQuestion(name: Self.type, type: .ptr, unicastResponse: true)])
        #expect(probe.authorities == [DNSRecord(name: Self.type, data: .ptr(Self.instance), ttl: 4500)])

        let query = try DNSMessage(parsing: try Self.fixture("zeroconf-query-qu.bin"))
        #expect(query.questions == [DNSQuestion(name: Self.type, type: .ptr, unicastResponse: true)] && query.answers.isEmpty)

        let known = try DNSMessage(parsing: try Self.fixture("zeroconf-query-known-answer.bin"))
        #expect(known.questions.map(\.unicastResponse) == [false])
        #expect(known.answers.count == 1 && known.answers[0].data == .ptr(Self.instance) && known.answers[0].ttl > 4000)

        let goodbye = try DNSMessage(parsing: try Self.fixture("zeroconf-goodbye.bin"))
        #expect(goodbye.answers.count == 5 && goodbye.answers.allSatisfy { $0.ttl == 0 })
    }

    // MARK: Packets from avahi-daemon 0.8

    @Test func avahiPacketsParseToTheirRecords() throws {
        let erin = try DNSName(labels: ["Erin avahi", "_di-nearby", "_tcp", "local"])
        let host = try DNSName("avahi-h3.local")
        let announcement = try DNSMessage(parsing: try Self.fixture("avahi-announcement.bin"))
        #expect(announcement.answers.map(\.type) == [.txt, .ptr, .srv, .aaaa, .a, .ptr])
        #expect(announcement.answers.contains(DNSRecord(name: erin, data: .srv(priority: 0, weight: 0, port: 53404, target: host), ttl: 120, cacheFlush: true)))
        #expect(announcement.answers.contains(DNSRecord(name: host, data: .address(IPAddress("fd42:4e42::3")!), ttl: 120, cacheFlush: true)))
        #expect(announcement.answers.contains(DNSRecord(name: ServiceType.enumerationName, data: .ptr(Self.type), ttl: 4500)))
        #expect(try DNSMessage(parsing: announcement.encoded()) == announcement)

        let probe = try DNSMessage(parsing: try Self.fixture("avahi-probe.bin"))
        #expect(probe.questions.count == 3 && probe.questions.allSatisfy { $0.type == .any && !$0.unicastResponse })
        #expect(probe.authorities.count == 4 && probe.questions.contains { $0.name == host })
        #expect(probe.questions.contains { $0.name.description == "3.0.216.10.in-addr.arpa." })

        let response = try DNSMessage(parsing: try Self.fixture("avahi-response.bin"))
        #expect(response.answers.map(\.type) == [.ptr, .txt, .srv] && response.additionals.isEmpty)
        let goodbye = try DNSMessage(parsing: try Self.fixture("avahi-goodbye.bin"))
        #expect(goodbye.answers.count == 8 && goodbye.answers.allSatisfy { $0.ttl == 0 })
        let ours = try DNSMessage(parsing: try Self.fixture("ours-address-query.bin"))
        #expect(ours.questions == [DNSQuestion(name: host, type: .a), DNSQuestion(name: host, type: .aaaa)])
        #expect(ours.encoded() == (try Self.fixture("ours-address-query.bin")))
    }

    // MARK: Hostile packets

    static func header(questions: UInt16 = 1, answers: UInt16 = 0) -> [UInt8] {
        [0, 0, 0, 0, UInt8(questions >> 8), UInt8(questions & 0xFF), UInt8(answers >> 8), UInt8(answers & 0xFF), 0, 0, 0, 0]
    }

    @Test func hostilePacketsGiveErrorsWithTheOffset() {
        let question: [UInt8] = [0, 12, 0, 1]
        let cases: [([UInt8], DNSMessageError)] = [
            ([0, 0, 0], .truncated(.header, offset: 0, needed: 12)),
            // A pointer to itself, and one back into its own name.
            (Self.header() + [0xC0, 12] + question, .compressionLoop(offset: 12, target: 12)),
            (Self.header() + [1, 0x61, 0xC0, 12] + question, .compressionLoop(offset: 14, target: 12)),
            // Two names pointing at each other: the second is a forward pointer from the first.
            (Self.header(questions: 2) + [0xC0, 18] + question + [0xC0, 12] + question, .forwardPointer(offset: 12, target: 18)),
            (Self.header() + [0xC0, 200] + question, .forwardPointer(offset: 12, target: 200)),
            (Self.header() + [64] + [UInt8](repeating: 0x61, count: 64) + [0] + question, .invalidLabelLength(offset: 12, byte: 64)),
            (Self.header() + [0x80, 0] + question, .invalidLabelLength(offset: 12, byte: 0x80)),
            (Self.header() + [6, 0x61, 0x62, 0x63, 0x64, 0x65], .truncated(.label, offset: 12, needed: 7)),
            (Self.header() + [3, 0x61, 0x62, 0x63, 0xC0], .truncated(.pointer, offset: 16, needed: 2)),
            (Self.header(questions: 0xFFFF), .countExceedsMessage(.question, count: 0xFFFF, offset: 12)),
            (Self.header(questions: 0, answers: 2) + [0, 0, 1, 0, 1, 0, 0, 0, 1, 0, 4, 10, 0, 0, 1], .countExceedsMessage(.answer, count: 2, offset: 12)),
            (Self.header() + [1, 0x61, 0, 0, 1, 0], .truncated(.question, offset: 17, needed: 2)),
            // An A record declaring 4 bytes with 2 left, one declaring 5, a TXT string past its data.
            (Self.header(questions: 0, answers: 1) + [0, 0, 1, 0, 1, 0, 0, 0, 1, 0, 4, 10, 0], .truncated(.recordData, offset: 23, needed: 4)),
            (Self.header(questions: 0, answers: 1) + [0, 0, 1, 0, 1, 0, 0, 0, 1, 0, 5, 10, 0, 0, 1, 2],
             .recordDataLength(type: .a, offset: 23, declared: 5, used: 4)),
            (Self.header(questions: 0, answers: 1) + [0, 0, 16, 0, 1, 0, 0, 0, 1, 0, 3, 5, 0x61, 0x62, 0, 0],
             .recordDataLength(type: .txt, offset: 23, declared: 3, used: 6)),
            // A PTR whose name runs past its data, an SRV too short for its fixed fields.
            (Self.header(questions: 0, answers: 1) + [0, 0, 12, 0, 1, 0, 0, 0, 1, 0, 2, 1, 0x61, 0],
             .recordDataLength(type: .ptr, offset: 23, declared: 2, used: 3)),
            (Self.header(questions: 0, answers: 1) + [0, 0, 33, 0, 1, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0],
             .recordDataLength(type: .srv, offset: 23, declared: 6, used: 7)),
        ]
        for (bytes, expected) in cases {
            #expect(throws: expected, "\(bytes)") { try DNSMessage(parsing: bytes) }
        }
        // A name of five 63-byte labels is over 255 bytes; so is one made long through pointers.
        let long = [UInt8](repeating: 0x61, count: 63)
        let fiveLabels = Self.header() + (0..<5).flatMap { _ in [63] + long } + [0] + question
        #expect(throws: DNSMessageError.nameTooLong(offset: 12, length: 257)) { try DNSMessage(parsing: fiveLabels) }
        let chained = Self.header(questions: 2) + [63] + long + [63] + long + [63] + long + [0] + question
            + [63] + long + [0xC0, 12] + question
        #expect(throws: DNSMessageError.nameTooLong(offset: 209, length: 257)) { try DNSMessage(parsing: chained) }
        // A chain of 200 pointers, each to the one before, inside the data of an unknown record;
        // the next record's name enters it at the end.
        var chain: [UInt8] = [0]
        for index in 0..<200 {
            let previous = 23 + (index == 0 ? 0 : 1 + 2 * (index - 1))
            chain += [0xC0 | UInt8(previous >> 8), UInt8(previous & 0xFF)]
        }
        let entry = 23 + chain.count - 2
        let pointers = Self.header(questions: 0, answers: 2) + [0, 0, 99, 0, 1, 0, 0, 0, 0, UInt8(chain.count >> 8), UInt8(chain.count & 0xFF)]
            + chain + [0xC0 | UInt8(entry >> 8), UInt8(entry & 0xFF), 0, 1, 0, 1, 0, 0, 0, 0, 0, 4, 10, 0, 0, 1]
        #expect(throws: DNSMessageError.tooManyPointers(offset: 23 + chain.count)) { try DNSMessage(parsing: pointers) }
        #expect(DNSMessageError.compressionLoop(offset: 12, target: 12).description == "the compression pointer at offset 12 to 12 makes a loop")
    }

    /// Every prefix and many random mutations of real packets: each parses or gives an error,
    /// and whatever parses writes back to bytes that parse to the same message.
    @Test func mutatedPacketsNeverTrapAndRoundTrip() throws {
        var seeds = try ["zeroconf-announcement.bin", "zeroconf-announcement-additionals.bin", "zeroconf-probe.bin",
                         "zeroconf-query-known-answer.bin", "zeroconf-goodbye.bin", "avahi-probe.bin", "avahi-announcement.bin",
                         "avahi-goodbye.bin"].map(Self.fixture)
        seeds.append(try Self.sample().encoded())
        var generator = SplitMix64(seed: 0x6d646e73)
        var parsed = 0, failed = 0
        func check(_ bytes: [UInt8]) {
            do {
                let message = try DNSMessage(parsing: bytes)
                parsed += 1
                let again = try? DNSMessage(parsing: message.encoded())
                #expect(again == message, "\(bytes)")
            } catch {
                failed += 1
            }
        }
        for seed in seeds {
            for length in 0...seed.count { check(Array(seed.prefix(length))) }
            for _ in 0..<3000 {
                var bytes = seed
                for _ in 0..<Int(generator.next() % 4 + 1) {
                    let position = Int(generator.next() % UInt64(bytes.count))
                    switch generator.next() % 3 {
                    case 0: bytes[position] = UInt8(truncatingIfNeeded: generator.next())
                    case 1: bytes[position] = [0xC0, 0x3F, 0x40, 0xFF, 0][Int(generator.next() % 5)]
                    default: bytes.insert(UInt8(truncatingIfNeeded: generator.next()), at: position)
                    }
                }
                check(bytes)
            }
        }
        #expect(parsed > 1000 && failed > 1000, "parsed \(parsed), failed \(failed)")
    }
}

/// A small deterministic generator, so a failing mutation can be found again.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
