import CAvahi
import Synchronization
import SystemCalls

/// A responder's instances, published through avahi-daemon: one entry group per instance, so that
/// a name collision (Avahi reports it per group) renames only the instance it hit.
///
/// The SRV records name `hostLabel.local.`, as the built-in engine's do, not the daemon's host
/// name: a paired-mode announcement's host label is random and changes each epoch, where the
/// daemon's name is stable and identifying. So the publisher adds that name's A and AAAA records
/// itself, one group per host label: each chosen interface's addresses on that interface, as
/// they are at the start and at each update, without reverse (PTR) records, which the daemon
/// publishes for its own name already.
///
/// Everything here runs with the connection's lock held (``AvahiConnection/withLock(_:)`` or a
/// callback), hence `@unchecked Sendable`.
final class AvahiPublisher: @unchecked Sendable {
    private final class Entry {
        /// The caller's full instance name, which updates are matched by.
        let original: DNSName
        /// The instance as published: its name is Avahi's alternative after a collision.
        var instance: ServiceInstance
        var group: OpaquePointer?
        unowned let publisher: AvahiPublisher

        init(_ instance: ServiceInstance, publisher: AvahiPublisher) {
            original = instance.instanceName
            self.instance = instance
            self.publisher = publisher
        }
    }

    /// The address records of one host label.
    private final class Host {
        let label: String
        var group: OpaquePointer?
        /// The addresses published, by interface index.
        var addresses: [UInt32: [IPAddress]] = [:]
        unowned let publisher: AvahiPublisher

        init(label: String, publisher: AvahiPublisher) {
            self.label = label
            self.publisher = publisher
        }
    }

    private let connection: AvahiConnection
    /// Avahi interface indexes: one per chosen interface, or `AVAHI_IF_UNSPEC` alone for every one.
    private let interfaces: [Int32]
    /// The interfaces whose addresses the host names get.
    private let addressInterfaces: [UInt32]
    private var entries: [Entry] = []
    private var hosts: [String: Host] = [:]
    /// The instances as published now (names after collisions), for other threads.
    let published: Mutex<[ServiceInstance]>
    /// The last request the daemon refused after the start (a group's failure, an update), if any.
    let problem = Mutex<String?>(nil)

    /// Publishes `instances` on `interfaces` (indexes; `nil`: every interface the daemon uses),
    /// their host names with the addresses of `addressInterfaces`. Throws when the daemon refuses
    /// a service or an address.
    init(connection: AvahiConnection, instances: [ServiceInstance], interfaces: [UInt32]?, addressInterfaces: [UInt32]) throws(MulticastDNSError) {
        self.connection = connection
        self.interfaces = interfaces.map { $0.map { AvahiConnection.interfaceIndex($0) } } ?? [AvahiConnection.interfaceIndex(nil)]
        self.addressInterfaces = addressInterfaces
        published = Mutex(instances)
        let result: Result<Void, MulticastDNSError>? = connection.withLock {
            do throws(MulticastDNSError) {
                for instance in instances { entries.append(try add(instance)) }
                noteNames()
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        guard let result else { throw .avahiUnavailable(reason: "the connection is closed") }
        try result.get()
    }

    /// Publishes `instances` instead: a changed TXT record is updated in place (the daemon
    /// announces it), a changed port or type re-registers the instance, a new instance gets a
    /// group, and a group no longer wanted is freed (the daemon sends its goodbyes).
    func update(_ instances: [ServiceInstance]) {
        connection.withLock {
            var kept: [Entry] = []
            for instance in instances {
                do throws(MulticastDNSError) {
                    guard let index = entries.firstIndex(where: { $0.original == instance.instanceName }) else {
                        kept.append(try add(instance))
                        continue
                    }
                    let entry = entries.remove(at: index)
                    kept.append(entry)
                    let renamed = (try? entry.instance.renamed(entry.instance.name, from: instance)) ?? instance
                    if renamed.port == entry.instance.port, renamed.type == entry.instance.type, renamed.hostLabel == entry.instance.hostLabel {
                        if renamed.txt != entry.instance.txt { try updateTXT(entry, renamed.txt) }
                        entry.instance = renamed
                    } else {
                        entry.instance = renamed
                        if let group = entry.group { avahi_entry_group_reset(group) }
                        try fill(entry)
                    }
                } catch {
                    problem.withLock { $0 = error.description }
                }
            }
            for entry in entries { free(entry) }
            entries = kept
            releaseUnusedHosts()
            refreshHosts()
            noteNames()
        }
    }

    /// Frees every group: the daemon withdraws the records with goodbyes.
    func withdraw() {
        connection.withLock {
            for entry in entries { free(entry) }
            entries = []
            releaseUnusedHosts()
        }
    }

    private func add(_ instance: ServiceInstance) throws(MulticastDNSError) -> Entry {
        let entry = Entry(instance, publisher: self)
        // The first state arrives from inside avahi_entry_group_new: the callback works from its
        // arguments, and the entry is complete before it.
        let group = avahi_entry_group_new(connection.client, { group, state, userdata in
            guard let userdata else { return }
            let entry = Unmanaged<Entry>.fromOpaque(userdata).takeUnretainedValue()
            entry.publisher.connection.dispatch { entry.publisher.changed(entry, state: state, group: group) }
        }, Unmanaged.passUnretained(entry).toOpaque())
        guard let group else {
            throw .avahiFailed(operation: "create an entry group for \"\(instance.name)\"", reason: connection.lastError)
        }
        entry.group = group
        do {
            try fill(entry)
        } catch {
            free(entry)
            throw error
        }
        return entry
    }

    /// Adds the entry's service on every interface and commits the group; a name another
    /// service of this host holds already is replaced by Avahi's alternative first. The
    /// corresponding C functions are `avahi_entry_group_add_service_strlst` and
    /// `avahi_entry_group_commit`.
    private func fill(_ entry: Entry) throws(MulticastDNSError) {
        guard let group = entry.group else { return }
        let hostName = try publishHost(entry.instance.hostLabel)
        // Each try renames; 64 alternatives ("… #65") means something else is wrong. No cookie:
        // the TXT record is the caller's, whatever the daemon's add-service-cookie says.
        for _ in 0..<64 {
            var status: Int32 = 0
            let list = AvahiStringList.make(entry.instance.txt.strings)
            defer { avahi_string_list_free(list) }
            for interface in interfaces {
                status = avahi_entry_group_add_service_strlst(group, interface, AvahiProtocol(AVAHI_PROTO_UNSPEC), AVAHI_PUBLISH_NO_COOKIE,
                                                              entry.instance.name, entry.instance.type.description, nil, hostName,
                                                              entry.instance.port, list)
                if status < 0 { break }
            }
            if status == Int32(AVAHI_ERR_COLLISION) {
                avahi_entry_group_reset(group)
                rename(entry)
                continue
            }
            if status < 0 {
                throw .avahiFailed(operation: "add the service \"\(entry.instance.name)\"", reason: AvahiConnection.text(of: status))
            }
            let committed = avahi_entry_group_commit(group)
            if committed < 0 {
                throw .avahiFailed(operation: "commit the service \"\(entry.instance.name)\"", reason: AvahiConnection.text(of: committed))
            }
            return
        }
        throw .avahiFailed(operation: "find a free name for \"\(entry.instance.name)\"", reason: "64 alternatives were taken")
    }

    /// Replaces the TXT record of a registered service on every interface (the daemon announces
    /// the change). The corresponding C function is `avahi_entry_group_update_service_txt_strlst`.
    private func updateTXT(_ entry: Entry, _ txt: TXTRecord) throws(MulticastDNSError) {
        guard let group = entry.group else { return }
        let list = AvahiStringList.make(txt.strings)
        defer { avahi_string_list_free(list) }
        for interface in interfaces {
            let status = avahi_entry_group_update_service_txt_strlst(group, interface, AvahiProtocol(AVAHI_PROTO_UNSPEC), AvahiPublishFlags(rawValue: 0),
                                                                     entry.instance.name, entry.instance.type.description, nil, list)
            if status < 0 {
                throw .avahiFailed(operation: "update the TXT record of \"\(entry.instance.name)\"", reason: AvahiConnection.text(of: status))
            }
        }
    }

    /// Publishes the A and AAAA records of `label.local` unless they are already, and returns the
    /// name. The corresponding C functions are `avahi_entry_group_add_address` (with
    /// `AVAHI_PUBLISH_NO_REVERSE`) and `avahi_entry_group_commit`.
    private func publishHost(_ label: String) throws(MulticastDNSError) -> String {
        let name = label + ".local"
        if hosts[label] != nil { return name }
        let host = Host(label: label, publisher: self)
        let created = avahi_entry_group_new(connection.client, { _, state, userdata in
            guard let userdata else { return }
            let host = Unmanaged<Host>.fromOpaque(userdata).takeUnretainedValue()
            let publisher = host.publisher
            publisher.connection.dispatch {
                if state == AVAHI_ENTRY_GROUP_COLLISION || state == AVAHI_ENTRY_GROUP_FAILURE {
                    // A random label another host holds too: nothing to rename it to that the
                    // caller would know; said, not hidden.
                    publisher.problem.withLock { $0 = "avahi-daemon withdrew the addresses of \(host.label).local: \(publisher.connection.lastError)" }
                }
            }
        }, Unmanaged.passUnretained(host).toOpaque())
        guard let created else {
            throw .avahiFailed(operation: "create an entry group for \(name)", reason: connection.lastError)
        }
        host.group = created
        hosts[label] = host
        try fillHost(host, addresses: currentAddresses())
        return name
    }

    /// The addresses of the chosen interfaces now, by index.
    private func currentAddresses() -> [UInt32: [IPAddress]] {
        var table: [UInt32: [IPAddress]] = [:]
        for interface in (try? NetworkInterface.all()) ?? [] where addressInterfaces.contains(interface.index) {
            table[interface.index] = interface.addresses.compactMap { IPAddress(bytes: $0.address) }
        }
        return table
    }

    /// Publishes again the address records of the host names whose interfaces' addresses changed
    /// since they were published (the daemon withdraws the old ones with goodbyes).
    private func refreshHosts() {
        let table = currentAddresses()
        for host in hosts.values where host.addresses != table {
            guard let group = host.group else { continue }
            avahi_entry_group_reset(group)
            do throws(MulticastDNSError) {
                try fillHost(host, addresses: table)
            } catch {
                problem.withLock { $0 = error.description }
            }
        }
    }

    /// Adds `addresses` to the host's (empty) group and commits it.
    private func fillHost(_ host: Host, addresses table: [UInt32: [IPAddress]]) throws(MulticastDNSError) {
        guard let group = host.group else { return }
        let name = host.label + ".local"
        host.addresses = table
        var added = 0
        for index in addressInterfaces {
            for address in table[index] ?? [] {
                var avahiAddress = AvahiAddress()
                avahiAddress.proto = AvahiProtocol(address.isIPv4 ? AVAHI_PROTO_INET : AVAHI_PROTO_INET6)
                withUnsafeMutableBytes(of: &avahiAddress.data) { raw in raw.copyBytes(from: address.bytes) }
                let status = avahi_entry_group_add_address(group, Int32(bitPattern: index), AvahiProtocol(AVAHI_PROTO_UNSPEC),
                                                           AVAHI_PUBLISH_NO_REVERSE, name, &avahiAddress)
                if status < 0 {
                    throw .avahiFailed(operation: "add the address \(address) of \(name)", reason: AvahiConnection.text(of: status))
                }
                added += 1
            }
        }
        // An empty group cannot be committed: an interface without addresses has nothing to say.
        if added > 0 {
            let committed = avahi_entry_group_commit(group)
            if committed < 0 {
                throw .avahiFailed(operation: "commit the addresses of \(name)", reason: AvahiConnection.text(of: committed))
            }
        }
    }

    /// Frees the address groups no instance names any more.
    private func releaseUnusedHosts() {
        let used = Set(entries.map(\.instance.hostLabel))
        for (label, host) in hosts where !used.contains(label) {
            if let group = host.group { avahi_entry_group_free(group) }
            host.group = nil
            hosts[label] = nil
        }
    }

    private func changed(_ entry: Entry, state: AvahiEntryGroupState, group: OpaquePointer?) {
        if state == AVAHI_ENTRY_GROUP_COLLISION, let group {
            // Another host holds the name: Avahi withdrew the group; publish it again under the
            // next name it recommends ("Alice's Mac #2").
            avahi_entry_group_reset(group)
            rename(entry)
            do throws(MulticastDNSError) {
                try fill(entry)
            } catch {
                problem.withLock { $0 = error.description }
            }
            noteNames()
        } else if state == AVAHI_ENTRY_GROUP_FAILURE {
            problem.withLock { $0 = "avahi-daemon withdrew \"\(entry.instance.name)\": \(connection.lastError)" }
        }
    }

    /// The next name Avahi recommends. The corresponding C function is
    /// `avahi_alternative_service_name`.
    private func rename(_ entry: Entry) {
        guard let alternative = avahi_alternative_service_name(entry.instance.name) else { return }
        defer { avahi_free(alternative) }
        if let renamed = try? entry.instance.renamed(String(cString: alternative), from: entry.instance) { entry.instance = renamed }
    }

    private func noteNames() {
        let instances = entries.map(\.instance)
        published.withLock { $0 = instances }
    }

    /// The corresponding C function is `avahi_entry_group_free`.
    private func free(_ entry: Entry) {
        if let group = entry.group { avahi_entry_group_free(group) }
        entry.group = nil
    }
}

extension ServiceInstance {
    /// `instance` under the name `name`.
    fileprivate func renamed(_ name: String, from instance: ServiceInstance) throws(MulticastDNSError) -> ServiceInstance {
        try ServiceInstance(name: name, type: instance.type.description, port: instance.port, txt: instance.txt, hostLabel: instance.hostLabel)
    }
}
