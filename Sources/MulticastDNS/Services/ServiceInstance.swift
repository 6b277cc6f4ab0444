/// A service instance a ``MulticastResponder`` publishes (RFC 6763 §4): a name the user reads,
/// its type, the port it listens on, its TXT pairs, and the label of the host name its SRV record
/// points at (`di-3fa2` for `di-3fa2.local.`), whose A and AAAA records the responder answers
/// with the addresses of the interface each question came in on.
public struct ServiceInstance: Sendable, Hashable {
    /// The instance's name, one label of UTF-8 (`Alice's Mac`), up to 63 bytes.
    public let name: String
    /// Its service type.
    public let type: ServiceType
    /// The port it listens on.
    public let port: UInt16
    /// Its TXT record.
    public let txt: TXTRecord
    /// The first label of its host name.
    public let hostLabel: String

    /// The instance's full name (`Alice's Mac._di-nearby._tcp.local.`).
    public let instanceName: DNSName
    /// The host name its SRV record points at (`di-3fa2.local.`).
    public let hostName: DNSName

    /// An instance called `name` of `type` (`_di-nearby._tcp`) on `port`, on the host
    /// `hostLabel.local.`. Throws when a name is empty or too long, or `type` is not a service type.
    public init(name: String, type: String, port: UInt16, txt: TXTRecord = .empty, hostLabel: String) throws(MulticastDNSError) {
        self.name = name
        self.type = try ServiceType(type)
        self.port = port
        self.txt = txt
        self.hostLabel = hostLabel
        instanceName = try self.type.instanceName(name)
        hostName = try DNSName(labels: [Array(hostLabel.utf8)]).appending(.local)
    }
}
