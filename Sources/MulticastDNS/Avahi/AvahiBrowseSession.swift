import CAvahi
import SystemCalls

/// A browser's work through avahi-daemon: a service browser for the type, and for each instance
/// a service resolver (SRV and TXT, kept open so changes arrive) and record browsers for its
/// host's A and AAAA records (every address, where a resolver gives one). It reports the same
/// ``BrowseEvent`` values as the built-in browser, one ``ResolvedService`` per instance and
/// interface.
///
/// Everything here runs with the connection's lock held (a callback on the poll's thread, or
/// ``AvahiConnection/withLock(_:)``), hence `@unchecked Sendable`.
final class AvahiBrowseSession: @unchecked Sendable {
    private struct Key: Hashable {
        var name: String
        var interface: Int32
    }

    private final class Instance {
        let key: Key
        unowned let session: AvahiBrowseSession
        /// The transports (IPv4, IPv6) Avahi sees the instance on: Avahi reports each apart, and
        /// the instance is gone when both have removed it.
        var protocols: Set<Int32> = []
        var resolver: OpaquePointer?
        var host: String?
        var port: UInt16 = 0
        var txt = TXTRecord.empty
        var addressBrowsers: [OpaquePointer] = []
        /// Record browsers that have not yet delivered what the daemon's cache holds.
        var pendingAddressBrowsers = 0
        var addresses: [IPAddress] = []
        /// What was last reported (`nil`: not yet added).
        var reported: ResolvedService?

        init(key: Key, session: AvahiBrowseSession) {
            self.key = key
            self.session = session
        }
    }

    private let connection: AvahiConnection
    private let type: ServiceType
    private let report: @Sendable (BrowseEvent) -> Void
    private var browser: OpaquePointer?
    private var instances: [Key: Instance] = [:]
    private var interfaceNames: [Int32: String] = [:]
    private var stopped = false

    /// Starts browsing for `type` on the interface with index `interface` (`nil`: every interface
    /// the daemon uses); `report` is called on the poll's thread. Throws when the daemon refuses.
    /// The corresponding C function is `avahi_service_browser_new`.
    init(connection: AvahiConnection, type: ServiceType, interface: UInt32?, report: @escaping @Sendable (BrowseEvent) -> Void) throws(MulticastDNSError) {
        self.connection = connection
        self.type = type
        self.report = report
        let started: Bool? = connection.withLock {
            browser = avahi_service_browser_new(connection.client, AvahiConnection.interfaceIndex(interface), AvahiProtocol(AVAHI_PROTO_UNSPEC),
                                                type.description, nil, AvahiLookupFlags(rawValue: 0), { _, interface, proto, event, name, _, _, _, userdata in
                guard let userdata else { return }
                let session = Unmanaged<AvahiBrowseSession>.fromOpaque(userdata).takeUnretainedValue()
                session.connection.dispatch { session.browsed(event, name: name.map { String(cString: $0) }, interface: interface, protocol: proto) }
            }, Unmanaged.passUnretained(self).toOpaque())
            return browser != nil
        }
        guard started == true else { throw .avahiFailed(operation: "browse for \(type)", reason: connection.lastError) }
    }

    /// Frees the browser, resolvers and record browsers; reports nothing more. With `reportRemovals`,
    /// first reports every instance as removed (the daemon went away, and the built-in engine
    /// takes over).
    func stop(reportRemovals: Bool) {
        connection.withLock {
            guard !stopped else { return }
            stopped = true
            for instance in instances.values {
                if reportRemovals, let last = instance.reported { report(.removed(last)) }
                release(instance)
            }
            instances = [:]
            if let browser { avahi_service_browser_free(browser) }
            browser = nil
        }
    }

    private func browsed(_ event: AvahiBrowserEvent, name: String?, interface: Int32, protocol proto: Int32) {
        guard !stopped, let name else { return }
        let key = Key(name: name, interface: interface)
        if event == AVAHI_BROWSER_NEW {
            let instance = instances[key] ?? Instance(key: key, session: self)
            instances[key] = instance
            instance.protocols.insert(proto)
            if instance.resolver == nil { resolve(instance, protocol: proto) }
        } else if event == AVAHI_BROWSER_REMOVE, let instance = instances[key] {
            instance.protocols.remove(proto)
            guard instance.protocols.isEmpty else { return }
            instances[key] = nil
            release(instance)
            if let last = instance.reported { report(.removed(last)) }
        }
        // CACHE_EXHAUSTED and ALL_FOR_NOW say nothing about an instance; FAILURE comes with the
        // client's own failure, which the connection reports.
    }

    /// Opens a resolver for `instance`, kept open: the daemon calls again when the SRV or TXT
    /// record changes. The corresponding C function is `avahi_service_resolver_new`.
    private func resolve(_ instance: Instance, protocol proto: Int32) {
        instance.resolver = avahi_service_resolver_new(connection.client, instance.key.interface, proto, instance.key.name, type.description, nil,
                                                       AvahiProtocol(AVAHI_PROTO_UNSPEC), AvahiLookupFlags(rawValue: 0), { _, _, _, event, _, _, _, host, address, port, txt, _, userdata in
            guard let userdata else { return }
            let instance = Unmanaged<Instance>.fromOpaque(userdata).takeUnretainedValue()
            let found = event == AVAHI_RESOLVER_FOUND
            let hostName = host.map { String(cString: $0) }
            let ip = address.flatMap(AvahiBrowseSession.ipAddress(of:))
            let strings = AvahiStringList.strings(of: txt)
            instance.session.connection.dispatch {
                instance.session.resolved(instance, found: found, host: hostName, address: ip, port: port, txt: strings)
            }
        }, Unmanaged.passUnretained(instance).toOpaque())
    }

    private func resolved(_ instance: Instance, found: Bool, host: String?, address: IPAddress?, port: UInt16, txt: [[UInt8]]) {
        guard !stopped, instances[instance.key] === instance else { return }
        // A failure (a timeout: the instance announced its PTR but no SRV answered) leaves the
        // instance unreported; the resolver stays open and calls again if the records appear.
        guard found, let host else { return }
        instance.port = port
        instance.txt = TXTRecord(unchecked: txt)
        if host != instance.host {
            // Another host: its addresses are to be learned afresh.
            instance.host = host
            instance.addresses = []
            browseAddresses(instance, host: host)
        }
        if let address, !instance.addresses.contains(address) { instance.addresses.append(address) }
        publish(instance)
    }

    /// Opens record browsers for the A and AAAA records of `host`, on the instance's interface.
    /// The corresponding C function is `avahi_record_browser_new`.
    private func browseAddresses(_ instance: Instance, host: String) {
        for browser in instance.addressBrowsers { avahi_record_browser_free(browser) }
        instance.addressBrowsers = []
        instance.pendingAddressBrowsers = 0
        for recordType in [DNSRecordType.a, DNSRecordType.aaaa] {
            let browser = avahi_record_browser_new(connection.client, instance.key.interface, AvahiProtocol(AVAHI_PROTO_UNSPEC), host,
                                                   UInt16(DNSClass.internet.rawValue), recordType.rawValue, AvahiLookupFlags(rawValue: 0),
                                                   { _, _, _, event, _, _, _, rdata, size, _, userdata in
                guard let userdata else { return }
                let instance = Unmanaged<Instance>.fromOpaque(userdata).takeUnretainedValue()
                let bytes = rdata.map { Array(UnsafeRawBufferPointer(start: $0, count: size)) } ?? []
                instance.session.connection.dispatch { instance.session.addressEvent(instance, event: event, address: IPAddress(bytes: bytes)) }
            }, Unmanaged.passUnretained(instance).toOpaque())
            if let browser {
                instance.addressBrowsers.append(browser)
                instance.pendingAddressBrowsers += 1
            }
        }
    }

    private func addressEvent(_ instance: Instance, event: AvahiBrowserEvent, address: IPAddress?) {
        guard !stopped, instances[instance.key] === instance else { return }
        if event == AVAHI_BROWSER_NEW, let address {
            if !instance.addresses.contains(address) { instance.addresses.append(address) }
        } else if event == AVAHI_BROWSER_REMOVE, let address {
            instance.addresses.removeAll { $0 == address }
        } else if event == AVAHI_BROWSER_CACHE_EXHAUSTED || event == AVAHI_BROWSER_ALL_FOR_NOW || event == AVAHI_BROWSER_FAILURE {
            // Once the daemon's cache has been read, the addresses are as complete as the
            // built-in browser's first report: "added" waits for that, not for one address.
            instance.pendingAddressBrowsers = max(0, instance.pendingAddressBrowsers - 1)
        }
        publish(instance)
    }

    /// Reports the instance as added or updated when it is resolved, its addresses are read and
    /// something changed.
    private func publish(_ instance: Instance) {
        guard let host = instance.host, !instance.addresses.isEmpty, instance.pendingAddressBrowsers == 0 || instance.reported != nil,
              let instanceName = try? type.instanceName(instance.key.name), let hostName = try? DNSName(host) else { return }
        let index = UInt32(bitPattern: instance.key.interface)
        let service = ResolvedService(name: instance.key.name, type: type, instanceName: instanceName, host: hostName, port: instance.port,
                                      txt: instance.txt, addresses: instance.addresses.filter(\.isIPv4) + instance.addresses.filter { !$0.isIPv4 },
                                      interface: interfaceName(instance.key.interface), interfaceIndex: index)
        guard service != instance.reported else { return }
        let event: BrowseEvent = instance.reported == nil ? .added(service) : .updated(service)
        instance.reported = service
        report(event)
    }

    private func release(_ instance: Instance) {
        if let resolver = instance.resolver { avahi_service_resolver_free(resolver) }
        instance.resolver = nil
        for browser in instance.addressBrowsers { avahi_record_browser_free(browser) }
        instance.addressBrowsers = []
    }

    private func interfaceName(_ index: Int32) -> String {
        if let name = interfaceNames[index] { return name }
        let name = (try? NetworkInterface.all())?.first { $0.index == UInt32(bitPattern: index) }?.name ?? "#\(index)"
        interfaceNames[index] = name
        return name
    }

    /// The address an `AvahiAddress` holds.
    private static func ipAddress(of address: UnsafePointer<AvahiAddress>) -> IPAddress? {
        var data = address.pointee.data
        return withUnsafeBytes(of: &data) { raw in
            address.pointee.proto == AvahiProtocol(AVAHI_PROTO_INET) ? IPAddress(bytes: Array(raw.prefix(4))) : IPAddress(bytes: Array(raw.prefix(16)))
        }
    }
}
