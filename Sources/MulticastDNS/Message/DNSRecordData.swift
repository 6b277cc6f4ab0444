/// The data of a record, read for the types DNS-SD uses and kept as bytes for the others.
public enum DNSRecordData: Sendable, Hashable, CustomStringConvertible {
    /// An A (IPv4) or AAAA (IPv6) record's address: the address's length decides the type.
    case address(IPAddress)
    /// A PTR record's name.
    case ptr(DNSName)
    /// An SRV record (RFC 2782): where a service instance listens.
    case srv(priority: UInt16, weight: UInt16, port: UInt16, target: DNSName)
    /// A TXT record's strings.
    case txt(TXTRecord)
    /// An NSEC record (RFC 4034 §4): the next name and the type bitmaps, kept as bytes (Multicast
    /// DNS uses it only to say which types a name has, RFC 6762 §6.1).
    case nsec(nextName: DNSName, typeBitmaps: [UInt8])
    /// Any other type's data as bytes. A name inside it is kept as the bytes it was, so a
    /// compressed one (in a CNAME from an old peer, say) is not meaningful outside its message;
    /// types defined after RFC 3597 never compress.
    case other(type: DNSRecordType, bytes: [UInt8])

    /// The record type this data belongs to.
    public var type: DNSRecordType {
        switch self {
        case .address(let address): address.isIPv4 ? .a : .aaaa
        case .ptr: .ptr
        case .srv: .srv
        case .txt: .txt
        case .nsec: .nsec
        case .other(let type, _): type
        }
    }

    /// The types an NSEC record's bitmaps list (RFC 4034 §4.1.2); empty for other data, and for
    /// bitmaps that are not well formed.
    public var nsecTypes: [DNSRecordType] {
        guard case .nsec(_, let bitmaps) = self else { return [] }
        var types: [DNSRecordType] = []
        var index = 0
        while index + 2 <= bitmaps.count {
            let window = Int(bitmaps[index]), length = Int(bitmaps[index + 1])
            guard length >= 1, length <= 32, index + 2 + length <= bitmaps.count else { return types }
            for byteIndex in 0..<length {
                let byte = bitmaps[index + 2 + byteIndex]
                for bit in 0..<8 where byte & (0x80 >> bit) != 0 {
                    types.append(DNSRecordType(rawValue: UInt16(window * 256 + byteIndex * 8 + bit)))
                }
            }
            index += 2 + length
        }
        return types
    }

    /// NSEC bitmaps listing `types` (RFC 4034 §4.1.2).
    public static func nsecBitmaps(_ types: [DNSRecordType]) -> [UInt8] {
        var windows: [Int: [UInt8]] = [:]
        for type in Set(types) {
            let window = Int(type.rawValue >> 8), low = Int(type.rawValue & 0xFF)
            var bytes = windows[window] ?? []
            if bytes.count <= low / 8 { bytes += [UInt8](repeating: 0, count: low / 8 + 1 - bytes.count) }
            bytes[low / 8] |= 0x80 >> UInt8(low % 8)
            windows[window] = bytes
        }
        return windows.sorted { $0.key < $1.key }.flatMap { [UInt8($0.key), UInt8($0.value.count)] + $0.value }
    }

    /// The data in zone-file form.
    public var description: String {
        switch self {
        case .address(let address): address.description
        case .ptr(let name): name.description
        case .srv(let priority, let weight, let port, let target): "\(priority) \(weight) \(port) \(target)"
        case .txt(let text): text.description
        case .nsec(let next, _): "\(next) (\(nsecTypes.map(\.description).joined(separator: " ")))"
        case .other(_, let bytes): "\\# \(bytes.count) " + bytes.map { String($0, radix: 16) }.joined()
        }
    }
}
