import CAvahi
import SystemCalls

/// The A and AAAA records of the host names a publisher's instances point at (`hostLabel.local`),
/// published through avahi-daemon, one entry group per host label: each chosen interface's
/// addresses on that interface, without reverse (PTR) records, which the daemon publishes for its
/// own name already.
///
/// Everything here runs with the connection's lock held (``AvahiConnection/withLock(_:)`` or a
/// callback), hence `@unchecked Sendable`.
final class AvahiHostRecords: @unchecked Sendable {
    private final class Host {
        let label: String
        var group: OpaquePointer?
        /// The addresses published, by interface index.
        var addresses: [UInt32: [IPAddress]] = [:]
        unowned let records: AvahiHostRecords

        init(label: String, records: AvahiHostRecords) {
            self.label = label
            self.records = records
        }
    }

    private let connection: AvahiConnection
    /// The interfaces whose addresses the names get.
    private let interfaces: [UInt32]
    private let problems: AvahiProblems
    private var hosts: [String: Host] = [:]

    /// Records for the addresses of `interfaces`; what the daemon withdraws later is noted in
    /// `problems`.
    init(connection: AvahiConnection, interfaces: [UInt32], problems: AvahiProblems) {
        self.connection = connection
        self.interfaces = interfaces
        self.problems = problems
    }

    /// Publishes the A and AAAA records of `label.local` unless they are already, and returns the
    /// name. The corresponding C function is `avahi_entry_group_new`.
    func publish(_ label: String) throws(MulticastDNSError) -> String {
        let name = label + ".local"
        if hosts[label] != nil { return name }
        let host = Host(label: label, records: self)
        let created = avahi_entry_group_new(connection.client, { _, state, userdata in
            guard let userdata else { return }
            let host = Unmanaged<Host>.fromOpaque(userdata).takeUnretainedValue()
            let records = host.records
            records.connection.dispatch {
                if state == AVAHI_ENTRY_GROUP_COLLISION || state == AVAHI_ENTRY_GROUP_FAILURE {
                    // A random label another host holds too: nothing to rename it to that the
                    // caller would know; said, not hidden.
                    records.problems.note("avahi-daemon withdrew the addresses of \(host.label).local: \(records.connection.lastError)")
                }
            }
        }, Unmanaged.passUnretained(host).toOpaque())
        guard let created else {
            throw .avahiFailed(operation: "create an entry group for \(name)", reason: connection.lastError)
        }
        host.group = created
        hosts[label] = host
        try fill(host, addresses: currentAddresses())
        return name
    }

    /// Publishes again the records of the names whose interfaces' addresses changed since they
    /// were published (the daemon withdraws the old ones with goodbyes).
    func refresh() {
        let table = currentAddresses()
        for host in hosts.values where host.addresses != table {
            guard let group = host.group else { continue }
            avahi_entry_group_reset(group)
            do throws(MulticastDNSError) {
                try fill(host, addresses: table)
            } catch {
                problems.note(error.description)
            }
        }
    }

    /// Frees the groups of the labels not in `used` (the daemon sends their goodbyes). The
    /// corresponding C function is `avahi_entry_group_free`.
    func release(keeping used: Set<String>) {
        for (label, host) in hosts where !used.contains(label) {
            if let group = host.group { avahi_entry_group_free(group) }
            host.group = nil
            hosts[label] = nil
        }
    }

    /// The addresses of the chosen interfaces now, by index.
    private func currentAddresses() -> [UInt32: [IPAddress]] {
        var table: [UInt32: [IPAddress]] = [:]
        for interface in (try? NetworkInterface.all()) ?? [] where interfaces.contains(interface.index) {
            table[interface.index] = interface.addresses.compactMap { IPAddress(bytes: $0.address) }
        }
        return table
    }

    /// Adds `addresses` to the host's (empty) group and commits it. The corresponding C functions
    /// are `avahi_entry_group_add_address` (with `AVAHI_PUBLISH_NO_REVERSE`) and
    /// `avahi_entry_group_commit`.
    private func fill(_ host: Host, addresses table: [UInt32: [IPAddress]]) throws(MulticastDNSError) {
        guard let group = host.group else { return }
        let name = host.label + ".local"
        host.addresses = table
        var added = 0
        for index in interfaces {
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
}
