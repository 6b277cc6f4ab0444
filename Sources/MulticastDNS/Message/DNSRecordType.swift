/// A record type (RFC 1035 §3.2.2), known or not: a message keeps types it has no reader for.
public struct DNSRecordType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The 16-bit code.
    public let rawValue: UInt16

    /// The type with code `rawValue`.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// An IPv4 address (1).
    public static let a = DNSRecordType(rawValue: 1)
    /// A pointer to another name (12): a service type to its instances in DNS-SD.
    public static let ptr = DNSRecordType(rawValue: 12)
    /// Text strings (16): a DNS-SD instance's `key=value` pairs.
    public static let txt = DNSRecordType(rawValue: 16)
    /// An IPv6 address (28).
    public static let aaaa = DNSRecordType(rawValue: 28)
    /// A service's host and port (33, RFC 2782).
    public static let srv = DNSRecordType(rawValue: 33)
    /// Which types a name has (47); in Multicast DNS, a negative answer (RFC 6762 §6.1).
    public static let nsec = DNSRecordType(rawValue: 47)
    /// Any type (255), in questions only.
    public static let any = DNSRecordType(rawValue: 255)

    /// The mnemonic (`PTR`), or `TYPE` and the code for others (RFC 3597).
    public var description: String {
        switch self {
        case .a: "A"
        case .ptr: "PTR"
        case .txt: "TXT"
        case .aaaa: "AAAA"
        case .srv: "SRV"
        case .nsec: "NSEC"
        case .any: "ANY"
        default: "TYPE\(rawValue)"
        }
    }
}
