/// A service instance a ``MulticastBrowser`` found and resolved: its name, where it listens, its
/// TXT record and its host's addresses, as learned on one interface.
public struct ResolvedService: Sendable, Hashable, CustomStringConvertible {
    /// The instance's name (`Alice's Mac`).
    public var name: String
    /// Its service type.
    public var type: ServiceType
    /// The instance's full name (`Alice's Mac._di-nearby._tcp.local.`).
    public var instanceName: DNSName
    /// The host its SRV record names (`di-3fa2.local.`).
    public var host: DNSName
    /// The port.
    public var port: UInt16
    /// The TXT record.
    public var txt: TXTRecord
    /// The host's addresses, IPv4 first; an IPv6 link-local one is reached through ``interface``.
    public var addresses: [IPAddress]
    /// The name of the interface the answers came in on (`eth0`).
    public var interface: String
    /// That interface's index (the scope of link-local addresses).
    public var interfaceIndex: UInt32

    /// A resolved instance.
    public init(name: String, type: ServiceType, instanceName: DNSName, host: DNSName, port: UInt16, txt: TXTRecord,
                addresses: [IPAddress], interface: String, interfaceIndex: UInt32) {
        self.name = name
        self.type = type
        self.instanceName = instanceName
        self.host = host
        self.port = port
        self.txt = txt
        self.addresses = addresses
        self.interface = interface
        self.interfaceIndex = interfaceIndex
    }

    /// `name (host:port, addresses) on interface`.
    public var description: String {
        "\(name) (\(host):\(port), \(addresses.map(\.description).joined(separator: " "))) on \(interface)"
    }
}
