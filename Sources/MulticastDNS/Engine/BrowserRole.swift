import SystemCalls

/// A browser's protocol logic (RFC 6762 §5.2, RFC 6763 §4), on its engine's thread.
///
/// - Asks for the type's PTR records on every interface at once, then after 1, 2, 4… seconds, the
///   interval doubling up to a cap (§5.2); each question lists the PTR records already known with
///   more than half their TTL left (known-answer suppression, §7.1).
/// - Keeps the records of answers that concern the type: its PTR records, its instances' SRV and
///   TXT records, and the addresses of the hosts those SRV records name (at most
///   ``cacheLimit`` records, so a flood of answers cannot grow it without end). Answers from a
///   port other than 5353 are ignored (§6).
/// - Honours the cache-flush bit (§10.2: other records of the name and type received more than a
///   second before expire a second later) and goodbyes (TTL 0: the record expires a second later,
///   §10.1), drops records whose TTL ran out, and asks again for a record at 80, 85, 90 and 95 %
///   of its TTL (§5.2) while it is still wanted.
/// - An instance is resolved when its PTR, SRV, TXT and at least one address of its host are
///   known, per interface; what is missing is asked for at once and then at doubling intervals.
///   Every change of the resolved set is reported as an addition, update or removal.
final class BrowserRole: EngineRole {
    typealias Command = Never

    /// The most records kept.
    static let cacheLimit = 4096
    /// The longest wait between two questions for a missing part of an instance.
    static let maximumResolveInterval = 60.0

    let type: ServiceType
    let interfaces: InterfaceSet
    let addressBook: AddressBook
    let maximumQueryInterval: Double
    /// Called with each change, in order, on the engine's thread.
    let report: (BrowseEvent) -> Void
    var outgoing: [Outgoing] = []

    private var cache: [CacheKey: CacheEntry] = [:]
    private var nextQuery = 0.0
    private var queryInterval = 1.0
    private(set) var resolved: [ServiceKey: ResolvedService] = [:]
    private var resolving: [ServiceKey: (due: Double, interval: Double)] = [:]
    private var random = SystemRandomNumberGenerator()

    struct CacheKey: Hashable {
        var interface: UInt32
        var name: DNSName
        var data: DNSRecordData
    }

    struct CacheEntry {
        var record: DNSRecord
        var received: Double
        var expires: Double
        /// When to ask for it again (80, 85, 90, 95 % of its TTL, plus up to 2 %).
        var refreshes: [Double]
    }

    struct ServiceKey: Hashable {
        var interface: UInt32
        var instance: DNSName
    }

    init(type: ServiceType, interfaces: InterfaceSet, addressBook: AddressBook, maximumQueryInterval: Double,
         report: @escaping (BrowseEvent) -> Void) {
        self.type = type
        self.interfaces = interfaces
        self.addressBook = addressBook
        self.maximumQueryInterval = max(1, maximumQueryInterval)
        self.report = report
    }

    // MARK: Role

    func start(now: Double) {
        nextQuery = now
        advance(now: now)
    }

    func handle(_ command: Never, now: Double) {}

    func receive(_ message: DNSMessage, from source: PacketSource, now: Double) {
        guard message.isResponse, message.opcode == 0, message.responseCode == 0,
              source.address.port == MulticastGroup.port, interfaces.contains(source.interface) else { return }
        let interface = source.interface
        let records = (message.answers + message.additionals).filter { $0.recordClass == .internet }
        // Cache flush: older records of a name and type the packet asserts uniquely go in a second.
        let flushed = Set(records.filter(\.cacheFlush).map { NameAndType(name: $0.name, type: $0.type) })
        if !flushed.isEmpty {
            for (key, entry) in cache where key.interface == interface && entry.received < now - 1
                && flushed.contains(NameAndType(name: entry.record.name, type: entry.record.type))
                && !records.contains(where: { $0.isSameRecord(as: entry.record) }) {
                cache[key]?.expires = min(entry.expires, now + 1)
                cache[key]?.refreshes = []
            }
        }
        // Hosts worth keeping addresses of: the targets of the type's SRV records, known or new.
        var hosts = Set(cache.compactMap { key, entry -> DNSName? in
            guard key.interface == interface, case .srv(_, _, _, let target) = entry.record.data else { return nil }
            return target
        })
        for record in records where record.name.parent == type.name {
            if case .srv(_, _, _, let target) = record.data { hosts.insert(target) }
        }
        for record in records {
            let wanted: Bool
            switch record.type {
            case .ptr: wanted = record.name == type.name
            case .srv, .txt: wanted = record.name.parent == type.name && record.name.labels.count == type.name.labels.count + 1
            case .a, .aaaa: wanted = hosts.contains(record.name)
            default: wanted = false
            }
            guard wanted else { continue }
            let key = CacheKey(interface: interface, name: record.name, data: record.data)
            if record.ttl == 0 {
                if let entry = cache[key] {
                    cache[key]?.expires = min(entry.expires, now + 1)
                    cache[key]?.refreshes = []
                }
                continue
            }
            if cache[key] == nil && cache.count >= Self.cacheLimit { continue }
            let ttl = Double(record.ttl)
            cache[key] = CacheEntry(record: record, received: now, expires: now + ttl,
                                    refreshes: [0.80, 0.85, 0.90, 0.95].map { now + ttl * ($0 + Double.random(in: 0...0.02, using: &random)) })
        }
        update(now: now)
    }

    func advance(now: Double) {
        let before = cache.count
        cache = cache.filter { $0.value.expires > now }
        if cache.count != before { update(now: now) }
        var questions: [UInt32: [DNSQuestion]] = [:]
        func ask(_ question: DNSQuestion, on interface: UInt32) {
            if !(questions[interface] ?? []).contains(question) { questions[interface, default: []].append(question) }
        }
        if now >= nextQuery {
            for member in interfaces.members { ask(DNSQuestion(name: type.name, type: .ptr), on: member.index) }
            nextQuery = now + queryInterval
            queryInterval = min(queryInterval * 2, maximumQueryInterval)
        }
        for (key, entry) in cache {
            guard let due = entry.refreshes.first, due <= now else { continue }
            cache[key]?.refreshes.removeAll { $0 <= now }
            ask(DNSQuestion(name: entry.record.name, type: entry.record.type), on: key.interface)
        }
        for (key, state) in resolving where state.due <= now {
            for question in missing(key) { ask(question, on: key.interface) }
            resolving[key] = (now + state.interval, min(state.interval * 2, Self.maximumResolveInterval))
        }
        for (interface, asked) in questions.sorted(by: { $0.key < $1.key }) {
            // Known answers: the type's PTR records with more than half their TTL left.
            let known = cache.compactMap { key, entry -> DNSRecord? in
                guard key.interface == interface, entry.record.type == .ptr, entry.record.name == type.name else { return nil }
                let left = entry.expires - now
                guard left > Double(entry.record.ttl) / 2 else { return nil }
                var record = entry.record
                record.ttl = UInt32(left.rounded(.down))
                return record
            }
            let message = DNSMessage(questions: asked, answers: asked.contains { $0.type == .ptr } ? known : [])
            for family in families(of: interface, now: now) {
                outgoing.append(Outgoing(message: message, destination: .multicast(interface: interface, family: family)))
            }
        }
    }

    func finish(now: Double) {}

    var nextDeadline: Double? {
        var deadlines = [nextQuery]
        for entry in cache.values {
            deadlines.append(entry.expires)
            if let refresh = entry.refreshes.first { deadlines.append(refresh) }
        }
        deadlines += resolving.values.map(\.due)
        return deadlines.min()
    }

    // MARK: Resolution

    private struct NameAndType: Hashable {
        var name: DNSName
        var type: DNSRecordType
    }

    /// The freshest record of `name` and `type` on `interface` (the one that expires last: a
    /// record flushed or said goodbye to expires within a second).
    private func record(_ name: DNSName, _ type: DNSRecordType, on interface: UInt32) -> DNSRecord? {
        cache.filter { $0.key.interface == interface && $0.key.name == name && $0.value.record.type == type }
            .max { $0.value.expires < $1.value.expires }?.value.record
    }

    private func addresses(of host: DNSName, on interface: UInt32) -> [IPAddress] {
        let found = cache.compactMap { key, entry -> IPAddress? in
            guard key.interface == interface, key.name == host, case .address(let address) = entry.record.data else { return nil }
            return address
        }
        return found.sorted { a, b in a.isIPv4 != b.isIPv4 ? a.isIPv4 : a.bytes.lexicographicallyPrecedes(b.bytes) }
    }

    /// The questions that would complete the instance `key`.
    private func missing(_ key: ServiceKey) -> [DNSQuestion] {
        var questions: [DNSQuestion] = []
        let srv = record(key.instance, .srv, on: key.interface)
        if srv == nil { questions.append(DNSQuestion(name: key.instance, type: .srv)) }
        if record(key.instance, .txt, on: key.interface) == nil { questions.append(DNSQuestion(name: key.instance, type: .txt)) }
        if case .srv(_, _, _, let host)? = srv?.data, addresses(of: host, on: key.interface).isEmpty {
            questions.append(DNSQuestion(name: host, type: .a))
            questions.append(DNSQuestion(name: host, type: .aaaa))
        }
        return questions
    }

    /// Rebuilds the resolved instances from the cache and reports what changed.
    private func update(now: Double) {
        var current: [ServiceKey: ResolvedService] = [:]
        var unresolved: Set<ServiceKey> = []
        for (key, entry) in cache where entry.record.type == .ptr && key.name == type.name {
            guard case .ptr(let instance) = entry.record.data, instance.parent == type.name,
                  instance.labels.count == type.name.labels.count + 1 else { continue }
            let service = ServiceKey(interface: key.interface, instance: instance)
            if let srv = record(instance, .srv, on: key.interface), case .srv(_, _, let port, let host) = srv.data,
               let txt = record(instance, .txt, on: key.interface), case .txt(let text) = txt.data {
                let found = addresses(of: host, on: key.interface)
                if !found.isEmpty {
                    current[service] = ResolvedService(name: instance.firstLabel, type: type, instanceName: instance, host: host, port: port,
                                                       txt: text, addresses: found, interface: interfaces.name(of: key.interface),
                                                       interfaceIndex: key.interface)
                    continue
                }
            }
            unresolved.insert(service)
        }
        let order = { (a: ServiceKey, b: ServiceKey) in (a.instance.description, a.interface) < (b.instance.description, b.interface) }
        for key in resolved.keys.sorted(by: order) where current[key] == nil {
            if let gone = resolved[key] { report(.removed(gone)) }
        }
        for key in current.keys.sorted(by: order) {
            guard let service = current[key] else { continue }
            if let previous = resolved[key] {
                if previous != service { report(.updated(service)) }
            } else {
                report(.added(service))
            }
        }
        resolved = current
        resolving = resolving.filter { unresolved.contains($0.key) }
        for key in unresolved where resolving[key] == nil { resolving[key] = (now, 1) }
    }

    private func families(of interface: UInt32, now: Double) -> [SocketAddress.Family] {
        let addresses = addressBook.addresses(of: interface, now: now)
        return (addresses.contains(where: \.isIPv4) ? [.v4] : []) + (addresses.contains(where: { !$0.isIPv4 }) ? [.v6] : [])
    }
}
