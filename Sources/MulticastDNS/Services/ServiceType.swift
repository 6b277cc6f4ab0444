/// A DNS-SD service type: `_name._tcp` or `_name._udp` (RFC 6763 §7), in the `local.` domain.
public struct ServiceType: Sendable, Hashable, CustomStringConvertible {
    /// The full name the type's PTR records have (`_di-nearby._tcp.local.`).
    public let name: DNSName

    /// The name browsed for the list of service types on a link (RFC 6763 §9).
    public static let enumerationName = DNSName(unchecked: [Array("_services".utf8), Array("_dns-sd".utf8), Array("_udp".utf8), Array("local".utf8)])

    /// The type written as `_di-nearby._tcp` (a trailing `.local` or `.local.` allowed). Throws
    /// unless the service part is 1–15 letters, digits and hyphens with at least one letter, after
    /// an underscore, and the protocol is `_tcp` or `_udp`.
    public init(_ text: String) throws(MulticastDNSError) {
        var trimmed = Substring(text)
        for suffix in [".local.", ".local"] where trimmed.lowercased().hasSuffix(suffix) {
            trimmed = trimmed.dropLast(suffix.count)
            break
        }
        let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, ["_tcp", "_udp"].contains(parts[1].lowercased()), parts[0].hasPrefix("_") else {
            throw .invalidServiceType(text)
        }
        let service = parts[0].utf8.dropFirst()
        let isLetter = { (byte: UInt8) in (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
        guard (1...15).contains(service.count),
              service.allSatisfy({ isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "-") }),
              service.contains(where: isLetter) else {
            throw .invalidServiceType(text)
        }
        name = DNSName(unchecked: [Array(parts[0].utf8), Array(parts[1].utf8), Array("local".utf8)])
    }

    /// The type of a name ending in `_name._tcp.local.` (a PTR record's owner), if it is one.
    init?(name: DNSName) {
        guard name.labels.count == 3, name.hasSuffix(.local) else { return nil }
        let text = name.labels.prefix(2).map { String(decoding: $0, as: UTF8.self) }.joined(separator: ".")
        guard let type = try? ServiceType(text) else { return nil }
        self = type
    }

    /// The name of the instance called `instance` of this type (`Alice's Mac._di-nearby._tcp.local.`).
    public func instanceName(_ instance: String) throws(MulticastDNSError) -> DNSName {
        try name.prepending(Array(instance.utf8))
    }

    /// `_di-nearby._tcp`.
    public var description: String {
        name.labels.prefix(2).map { String(decoding: $0, as: UTF8.self) }.joined(separator: ".")
    }
}
