import CAvahi
import Synchronization
import SystemCalls

/// A responder's instances, published through avahi-daemon: one entry group per instance, so that
/// a name collision (Avahi reports it per group) renames only the instance it hit.
///
/// The SRV records name `hostLabel.local.`, as the built-in engine's do, not the daemon's host
/// name: a paired-mode announcement's host label is random and changes each epoch, where the
/// daemon's name is stable and identifying. So the publisher adds that name's A and AAAA records
/// itself (``AvahiHostRecords``), and publishes them again when the addresses change (looked at
/// every 2 s).
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

    private let connection: AvahiConnection
    /// Avahi interface indexes: one per chosen interface, or `AVAHI_IF_UNSPEC` alone for every one.
    private let interfaces: [Int32]
    private var entries: [Entry] = []
    private let hosts: AvahiHostRecords
    /// The instances as published now (names after collisions), for other threads.
    let published: Mutex<[ServiceInstance]>
    /// The last request the daemon refused after the start (a group's failure, an update), if any.
    let problems = AvahiProblems()

    /// Publishes `instances` on `interfaces` (indexes; `nil`: every interface the daemon uses),
    /// their host names with the addresses of `addressInterfaces`. Throws when the daemon refuses
    /// a service or an address.
    init(connection: AvahiConnection, instances: [ServiceInstance], interfaces: [UInt32]?, addressInterfaces: [UInt32]) throws(MulticastDNSError) {
        self.connection = connection
        self.interfaces = interfaces.map { $0.map { AvahiConnection.interfaceIndex($0) } } ?? [AvahiConnection.interfaceIndex(nil)]
        published = Mutex(instances)
        hosts = AvahiHostRecords(connection: connection, interfaces: addressInterfaces, problems: problems)
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
        // The daemon follows its own name's addresses, not ours: the host names' records are
        // published again when the interfaces' addresses change.
        connection.every(Self.addressCheckInterval) { [weak self] in self?.hosts.refresh() }
    }

    /// Seconds between looks at the interfaces' addresses (one `getifaddrs`).
    static let addressCheckInterval = 2.0

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
                    problems.note(error.description)
                }
            }
            for entry in entries { free(entry) }
            entries = kept
            hosts.release(keeping: Set(entries.map(\.instance.hostLabel)))
            hosts.refresh()
            noteNames()
        }
    }

    /// Frees every group: the daemon withdraws the records with goodbyes.
    func withdraw() {
        connection.withLock {
            for entry in entries { free(entry) }
            entries = []
            hosts.release(keeping: [])
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
        let hostName = try hosts.publish(entry.instance.hostLabel)
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

    private func changed(_ entry: Entry, state: AvahiEntryGroupState, group: OpaquePointer?) {
        if state == AVAHI_ENTRY_GROUP_COLLISION, let group {
            // Another host holds the name: Avahi withdrew the group; publish it again under the
            // next name it recommends ("Alice's Mac #2").
            avahi_entry_group_reset(group)
            rename(entry)
            do throws(MulticastDNSError) {
                try fill(entry)
            } catch {
                problems.note(error.description)
            }
            noteNames()
        } else if state == AVAHI_ENTRY_GROUP_FAILURE {
            problems.note("avahi-daemon withdrew \"\(entry.instance.name)\": \(connection.lastError)")
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
