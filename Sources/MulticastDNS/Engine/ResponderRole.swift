import SystemCalls

/// A responder's protocol logic (RFC 6762, RFC 6763), on its engine's thread.
///
/// - Answers PTR questions for each published type and for `_services._dns-sd._udp.local.`, SRV
///   and TXT questions for each instance, A and AAAA questions for each host name, with the
///   addresses of the interface the question came in on. A PTR answer carries the instance's SRV,
///   TXT and address records as additional records (RFC 6763 §12), an address answer the other
///   family's (RFC 6762 §6.2).
/// - Leaves out answers the question lists as known with at least half their TTL left (§7.1).
///   Known answers spread over several packets (the TC bit, §7.2) are not waited for.
/// - Answers a QU question by unicast to the asker's address and port (§5.4; the refinement
///   that multicasts anyway when the record was not multicast for a quarter of its TTL is left
///   out), and a query from a port other than 5353 as a legacy unicast query (§6.7: the query's
///   id and questions, no cache-flush bits, TTLs of at most 10 s).
/// - Delays an answer holding a shared record (a PTR, which other responders may hold too) by
///   20–120 ms and merges the answers due together (§6); answers of unique records go at once. No
///   record is multicast on an interface within a second of its last multicast there (§6).
/// - Announces every record twice, a second apart, when it starts and after an update (§8.3),
///   and says goodbye (TTL 0, §10.1) to records that go away and to all of them when it stops.
///
/// Probing (§8.1, three questions 250 ms apart before the first announcement, to find another
/// host that already uses the names) is not done: the caller chooses the host label and the
/// instance name, and can make a clash unlikely (a label derived from a device key), while
/// probing would hold the first announcement back by 750 ms. For the same reason a conflict
/// seen later (§9) is not resolved by renaming.
final class ResponderRole: EngineRole {
    enum Command: Sendable {
        /// Publish these instances from now on.
        case update([ServiceInstance])
    }

    /// The TTL of records naming a host (SRV, A, AAAA) and of the others (PTR, TXT), RFC 6762 §10.
    static let hostRecordTTL: UInt32 = 120
    static let otherRecordTTL: UInt32 = 4500

    private(set) var instances: [ServiceInstance]
    let interfaces: InterfaceSet
    let addressBook: AddressBook
    var outgoing: [Outgoing] = []

    /// When the next full announcements are due.
    private var announcements: [Double] = []
    /// Multicast answers waiting for their random delay.
    private var delayed: [(due: Double, outgoing: Outgoing)] = []
    /// When each record was last multicast on an interface in a family.
    private var lastMulticast: [MulticastKey: Double] = [:]
    private var random = SystemRandomNumberGenerator()

    private struct MulticastKey: Hashable {
        var destination: Destination
        var name: DNSName
        var data: DNSRecordData
    }

    init(instances: [ServiceInstance], interfaces: InterfaceSet, addressBook: AddressBook) {
        self.instances = instances
        self.interfaces = interfaces
        self.addressBook = addressBook
    }

    // MARK: Records

    /// Every record the instances have on `interface`, each once: unique ones (SRV, TXT, A, AAAA)
    /// with the cache-flush bit.
    func records(on interface: UInt32, now: Double, of instances: [ServiceInstance]? = nil) -> [DNSRecord] {
        let addresses = addressBook.addresses(of: interface, now: now)
        var records: [DNSRecord] = []
        func add(_ record: DNSRecord) {
            if !records.contains(where: { $0.isSameRecord(as: record) }) { records.append(record) }
        }
        for instance in instances ?? self.instances {
            add(DNSRecord(name: instance.type.name, data: .ptr(instance.instanceName), ttl: Self.otherRecordTTL))
            add(DNSRecord(name: ServiceType.enumerationName, data: .ptr(instance.type.name), ttl: Self.otherRecordTTL))
            add(DNSRecord(name: instance.instanceName, data: .srv(priority: 0, weight: 0, port: instance.port, target: instance.hostName),
                          ttl: Self.hostRecordTTL, cacheFlush: true))
            add(DNSRecord(name: instance.instanceName, data: .txt(instance.txt), ttl: Self.otherRecordTTL, cacheFlush: true))
            for address in addresses {
                add(DNSRecord(name: instance.hostName, data: .address(address), ttl: Self.hostRecordTTL, cacheFlush: true))
            }
        }
        return records
    }

    /// The families `interface` has an address of: a family without one has no source address
    /// to send from there.
    private func families(of interface: UInt32, now: Double) -> [SocketAddress.Family] {
        let addresses = addressBook.addresses(of: interface, now: now)
        return (addresses.contains(where: \.isIPv4) ? [.v4] : []) + (addresses.contains(where: { !$0.isIPv4 }) ? [.v6] : [])
    }

    /// The records that complete `answers` (RFC 6763 §12): an instance's SRV and TXT after its
    /// PTR, a host's addresses after its SRV, the other family after an address; none already
    /// among the answers.
    func additionals(for answers: [DNSRecord], from all: [DNSRecord]) -> [DNSRecord] {
        var extra: [DNSRecord] = []
        func add(_ record: DNSRecord) {
            if !answers.contains(where: { $0.isSameRecord(as: record) }) && !extra.contains(where: { $0.isSameRecord(as: record) }) {
                extra.append(record)
            }
        }
        for answer in answers {
            switch answer.data {
            case .ptr(let instance):
                for record in all where record.name == instance && (record.type == .srv || record.type == .txt) { add(record) }
            case .address:
                for record in all where record.name == answer.name && record.type != answer.type && (record.type == .a || record.type == .aaaa) { add(record) }
            default:
                break
            }
        }
        for case .srv(_, _, _, let host) in (answers + extra).map(\.data) {
            for record in all where record.name == host && (record.type == .a || record.type == .aaaa) { add(record) }
        }
        return extra
    }

    // MARK: Role

    func start(now: Double) {
        announcements = [now, now + 1]
        advance(now: now)
    }

    func handle(_ command: Command, now: Double) {
        switch command {
        case .update(let updated):
            // Goodbye to what goes away; a unique record replaced by another of its name and type
            // needs none, the new one's cache-flush bit replaces it.
            for member in interfaces.members {
                let old = records(on: member.index, now: now)
                let new = records(on: member.index, now: now, of: updated)
                let gone = old.filter { record in
                    !new.contains { $0.isSameRecord(as: record) }
                        && !(record.cacheFlush && new.contains { $0.name == record.name && $0.type == record.type })
                }
                sendGoodbye(gone, on: member.index, now: now)
            }
            instances = updated
            delayed = []
            announcements = [now, now + 1]
            advance(now: now)
        }
    }

    func receive(_ message: DNSMessage, from source: PacketSource, now: Double) {
        guard !message.isResponse, message.opcode == 0, interfaces.contains(source.interface) else { return }
        let all = records(on: source.interface, now: now)
        let legacy = source.address.port != MulticastGroup.port
        var multicast: [DNSRecord] = [], unicast: [DNSRecord] = []
        for question in message.questions {
            for record in all where question.isAnswered(by: record) {
                let known = message.answers.contains { $0.isSameRecord(as: record) && $0.ttl >= record.ttl / 2 }
                if known { continue }
                if legacy || question.unicastResponse {
                    if !unicast.contains(where: { $0.isSameRecord(as: record) }) { unicast.append(record) }
                } else if !multicast.contains(where: { $0.isSameRecord(as: record) }) {
                    multicast.append(record)
                }
            }
        }
        if !unicast.isEmpty {
            var extra = additionals(for: unicast, from: all)
            var response = DNSMessage(flags: [.response, .authoritative], answers: unicast, additionals: extra)
            if legacy {
                func capped(_ record: DNSRecord) -> DNSRecord {
                    var record = record
                    record.cacheFlush = false
                    record.ttl = min(record.ttl, 10)
                    return record
                }
                extra = extra.map(capped)
                response = DNSMessage(id: message.id, flags: [.response, .authoritative], questions: message.questions,
                                      answers: unicast.map(capped), additionals: extra)
            }
            outgoing.append(Outgoing(message: response, destination: .unicast(source.address, interface: source.interface)))
        }
        if !multicast.isEmpty {
            let destination = Destination.multicast(interface: source.interface, family: source.address.family)
            let shared = multicast.contains { !$0.cacheFlush }
            let due = shared ? now + Double.random(in: 0.020...0.120, using: &random) : now
            schedule(answers: multicast, additionals: additionals(for: multicast, from: all), to: destination, due: due)
            advance(now: now)
        }
    }

    /// Queues a multicast answer, merged into one already waiting for the same destination.
    private func schedule(answers: [DNSRecord], additionals: [DNSRecord], to destination: Destination, due: Double) {
        if let index = delayed.firstIndex(where: { $0.outgoing.destination == destination }) {
            var message = delayed[index].outgoing.message
            for record in answers where !message.answers.contains(where: { $0.isSameRecord(as: record) }) { message.answers.append(record) }
            for record in additionals where !(message.answers + message.additionals).contains(where: { $0.isSameRecord(as: record) }) {
                message.additionals.append(record)
            }
            message.additionals.removeAll { record in message.answers.contains { $0.isSameRecord(as: record) } }
            delayed[index] = (min(due, delayed[index].due), Outgoing(message: message, destination: destination))
        } else {
            let message = DNSMessage(flags: [.response, .authoritative], answers: answers, additionals: additionals)
            delayed.append((due, Outgoing(message: message, destination: destination)))
        }
    }

    func advance(now: Double) {
        if let due = announcements.first, due <= now {
            announcements.removeAll { $0 <= now }
            for member in interfaces.members {
                let all = records(on: member.index, now: now)
                guard !all.isEmpty else { continue }
                for family in families(of: member.index, now: now) {
                    send(DNSMessage(flags: [.response, .authoritative], answers: all), to: .multicast(interface: member.index, family: family), now: now)
                }
            }
        }
        let ready = delayed.filter { $0.due <= now }
        delayed.removeAll { $0.due <= now }
        for item in ready {
            // A record multicast here less than a second ago is not sent again (RFC 6762 §6).
            var message = item.outgoing.message
            let recent = { (record: DNSRecord) in
                (self.lastMulticast[MulticastKey(destination: item.outgoing.destination, name: record.name, data: record.data)] ?? -.infinity) > now - 1
            }
            message.answers.removeAll(where: recent)
            guard !message.answers.isEmpty else { continue }
            message.additionals.removeAll(where: recent)
            send(message, to: item.outgoing.destination, now: now)
        }
    }

    func finish(now: Double) {
        for member in interfaces.members { sendGoodbye(records(on: member.index, now: now), on: member.index, now: now) }
        announcements = []
        delayed = []
    }

    var nextDeadline: Double? {
        (announcements + delayed.map(\.due)).min()
    }

    private func send(_ message: DNSMessage, to destination: Destination, now: Double) {
        outgoing.append(Outgoing(message: message, destination: destination))
        for record in message.answers + message.additionals {
            lastMulticast[MulticastKey(destination: destination, name: record.name, data: record.data)] = now
        }
    }

    private func sendGoodbye(_ records: [DNSRecord], on interface: UInt32, now: Double) {
        guard !records.isEmpty else { return }
        let goodbyes = records.map { record -> DNSRecord in
            var record = record
            record.ttl = 0
            return record
        }
        for family in families(of: interface, now: now) {
            let destination = Destination.multicast(interface: interface, family: family)
            outgoing.append(Outgoing(message: DNSMessage(flags: [.response, .authoritative], answers: goodbyes), destination: destination))
            for record in records { lastMulticast[MulticastKey(destination: destination, name: record.name, data: record.data)] = nil }
        }
    }
}
