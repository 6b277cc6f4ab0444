import SystemCalls

/// Where a message goes: the Multicast DNS group of one family on one interface, or one address.
enum Destination: Sendable, Hashable {
    /// 224.0.0.251 or ff02::fb, port 5353, out of the interface `interface`.
    case multicast(interface: UInt32, family: SocketAddress.Family)
    /// A querier's own address and port (a QU question, or a legacy unicast query).
    case unicast(SocketAddress, interface: UInt32)

    var interface: UInt32 {
        switch self {
        case .multicast(let interface, _), .unicast(_, let interface): interface
        }
    }
}

/// A message to send.
struct Outgoing: Sendable, Hashable {
    var message: DNSMessage
    var destination: Destination
}

/// Where a message came from: the sender and the interface it arrived on.
struct PacketSource: Sendable, Hashable {
    var address: SocketAddress
    var interface: UInt32
}

/// The Multicast DNS port and groups (RFC 6762 §3).
enum MulticastGroup {
    static let port: UInt16 = 5353
    static let v4 = SocketAddress(v4: [224, 0, 0, 251], port: port)!
    static let v6 = SocketAddress(v6: [0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xfb], port: port)!
}
