/// A record class (RFC 1035 §3.2.4) without Multicast DNS's top bit, which is the QU bit in a
/// question and the cache-flush bit in a record (RFC 6762 §18.12, §10.2).
public struct DNSClass: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The 15-bit code.
    public let rawValue: UInt16

    /// The class with code `rawValue` (its top bit dropped).
    public init(rawValue: UInt16) { self.rawValue = rawValue & 0x7FFF }

    /// The Internet (1): every Multicast DNS record.
    public static let internet = DNSClass(rawValue: 1)
    /// Any class (255), in questions only.
    public static let any = DNSClass(rawValue: 255)

    /// `IN`, `ANY`, or `CLASS` and the code (RFC 3597).
    public var description: String {
        switch self {
        case .internet: "IN"
        case .any: "ANY"
        default: "CLASS\(rawValue)"
        }
    }
}
