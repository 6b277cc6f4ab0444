import SystemCalls

/// The sockets of one responder or browser: UDP port 5353 for IPv4 and IPv6, joined to
/// 224.0.0.251 and ff02::fb on each chosen interface. Each responder and browser has its own, so
/// they start and stop independently; the kernel gives every socket a copy of each multicast
/// datagram, and `SO_REUSEADDR` lets them share the port with each other and with
/// avahi-daemon or python-zeroconf.
final class MulticastTransport: Sendable {
    /// The IPv4 socket, and the IPv6 one unless the host has no IPv6.
    let sockets: [MulticastSocket]
    let interfaces: InterfaceSet

    /// Sockets joined on `interfaces`. Throws when a socket cannot be made or bound, or a group
    /// cannot be joined on an interface.
    init(interfaces: InterfaceSet, port: UInt16 = MulticastGroup.port) throws(MulticastDNSError) {
        self.interfaces = interfaces
        var sockets: [MulticastSocket] = []
        do {
            sockets.append(try MulticastSocket(family: .v4, port: port))
            do {
                sockets.append(try MulticastSocket(family: .v6, port: port))
            } catch where error.errno == .addressFamilyNotSupported {
                // A host without IPv6 works over IPv4 alone.
            }
            for socket in sockets {
                for member in interfaces.members {
                    try socket.join(socket.family == .v4 ? MulticastGroup.v4 : MulticastGroup.v6,
                                    interface: member.index, interfaceName: member.name)
                }
            }
        } catch {
            throw .system(error)
        }
        self.sockets = sockets
    }

    /// Sends `message` to `destination`. A failure is dropped: it is transient (an interface going
    /// down, a full queue) and the protocol repeats itself (announcements, queries at growing
    /// intervals, answers to the next question).
    func send(_ outgoing: Outgoing) {
        let bytes = outgoing.message.encoded()
        switch outgoing.destination {
        case .multicast(let interface, let family):
            guard let socket = sockets.first(where: { $0.family == family }) else { return }
            var group = family == .v4 ? MulticastGroup.v4 : MulticastGroup.v6
            if family == .v6 { group.scope = interface }
            try? socket.send(bytes, to: group, interface: interface)
        case .unicast(let address, let interface):
            guard let socket = sockets.first(where: { $0.family == address.family }) else { return }
            try? socket.send(bytes, to: address, interface: interface)
        }
    }

    /// The messages waiting on `socket` (at most `limit`, so one busy socket cannot starve the
    /// timers), from the chosen interfaces only, parsed; datagrams that are not DNS messages or
    /// were cut short are dropped.
    func receive(from socket: MulticastSocket, buffer: UnsafeMutableRawBufferPointer, limit: Int = 64) -> [(DNSMessage, PacketSource)] {
        var received: [(DNSMessage, PacketSource)] = []
        for _ in 0..<limit {
            // A receive error other than "nothing queued" is dropped like a bad datagram: the
            // socket stays usable and the next poll tells.
            guard let datagram = try? socket.receive(into: buffer) else { break }
            guard !datagram.truncated, interfaces.contains(datagram.interface) else { continue }
            let bytes = Array(UnsafeRawBufferPointer(rebasing: buffer[..<datagram.count]))
            guard let message = try? DNSMessage(parsing: bytes) else { continue }
            received.append((message, PacketSource(address: datagram.source, interface: datagram.interface)))
        }
        return received
    }
}
