import CSystemShims
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A UDP socket on a port that other processes on the host use too (Multicast DNS on 5353, where
/// avahi-daemon or python-zeroconf may already listen), joined to multicast groups on chosen
/// interfaces. Non-blocking; every datagram received says which interface it came in on, and every
/// send names the interface it goes out of.
///
/// What it sets, and why:
/// - `SO_REUSEADDR` and `SO_REUSEPORT`: binding succeeds beside another responder and never takes
///   the port from it (on Linux, `SO_REUSEADDR` on both sockets is what lets two UDP sockets of
///   different users share a port; `SO_REUSEPORT` is what other stacks expect).
/// - `IP_MULTICAST_ALL` off: otherwise a socket bound to the wildcard address receives the groups
///   *any* socket on the host joined, on any interface.
/// - multicast hop limit 255 and unicast TTL 255 (RFC 6762 §11), loop on (two processes on one
///   host see each other's packets).
/// - `IP_PKTINFO` / `IPV6_RECVPKTINFO`: the interface of each received datagram.
package final class MulticastSocket: Sendable {
    /// The socket.
    package let descriptor: OwnedDescriptor
    /// IPv4 or IPv6.
    package let family: SocketAddress.Family
    /// The port it is bound to.
    package let port: UInt16

    /// A socket of `family` bound to the wildcard address and `port`. Fails with
    /// `EAFNOSUPPORT` when the host has no IPv6. The corresponding C functions are `socket`,
    /// `setsockopt` and `bind`.
    package init(family: SocketAddress.Family, port: UInt16) throws(SystemCallError) {
        let shown = "udp \(family == .v4 ? "0.0.0.0" : "[::]"):\(port)"
        let domain = family == .v4 ? AF_INET : AF_INET6
        let raw = try invoke(.socket, path: shown) {
            socket(domain, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        descriptor = OwnedDescriptor(taking: raw, path: shown)
        self.family = family
        self.port = port
        try set(SOL_SOCKET, SO_REUSEADDR, 1, "SO_REUSEADDR")
        try set(SOL_SOCKET, SO_REUSEPORT, 1, "SO_REUSEPORT")
        switch family {
        case .v4:
            let ip = Int32(IPPROTO_IP)
            try set(ip, IP_MULTICAST_TTL, 255, "IP_MULTICAST_TTL")
            try set(ip, IP_TTL, 255, "IP_TTL")
            try set(ip, IP_MULTICAST_LOOP, 1, "IP_MULTICAST_LOOP")
            try set(ip, IP_PKTINFO, 1, "IP_PKTINFO")
            try set(ip, di_ip_multicast_all, 0, "IP_MULTICAST_ALL")
        case .v6:
            let ipv6 = Int32(IPPROTO_IPV6)
            try set(ipv6, IPV6_V6ONLY, 1, "IPV6_V6ONLY")
            try set(ipv6, IPV6_MULTICAST_HOPS, 255, "IPV6_MULTICAST_HOPS")
            try set(ipv6, IPV6_UNICAST_HOPS, 255, "IPV6_UNICAST_HOPS")
            try set(ipv6, IPV6_MULTICAST_LOOP, 1, "IPV6_MULTICAST_LOOP")
            try set(ipv6, di_ipv6_recvpktinfo, 1, "IPV6_RECVPKTINFO")
            // Linux 4.20 and later; before, the interface check on receipt does the same work.
            try? set(ipv6, di_ipv6_multicast_all, 0, "IPV6_MULTICAST_ALL")
        }
        let any = family == .v4 ? SocketAddress(v4: [0, 0, 0, 0], port: port)! : SocketAddress(v6: [UInt8](repeating: 0, count: 16), port: port)!
        _ = try invoke(.bind, path: shown) { any.withSocketAddress { bind(raw, $0, $1) } }
    }

    private func set(_ level: Int32, _ option: Int32, _ value: Int32, _ name: String) throws(SystemCallError) {
        var value = value
        _ = try descriptor.withRaw { (raw) throws(SystemCallError) -> Int32 in
            try invoke(.setsockopt, path: "\(descriptor.path ?? "socket") (\(name))") {
                setsockopt(raw, level, option, &value, socklen_t(MemoryLayout<Int32>.size))
            }
        }
    }

    /// Joins the multicast `group` (of this socket's family) on the interface `index`, named
    /// `interfaceName` in errors. The corresponding C call is `setsockopt(IP_ADD_MEMBERSHIP)` or
    /// `setsockopt(IPV6_JOIN_GROUP)`.
    package func join(_ group: SocketAddress, interface index: UInt32, interfaceName: String) throws(SystemCallError) {
        let shown = "\(descriptor.path ?? "socket") (join \(SocketAddress.text(of: group.address)) on \(interfaceName))"
        _ = try descriptor.withRaw { (raw) throws(SystemCallError) -> Int32 in
            try invoke(.setsockopt, path: shown) { () -> Int32 in
                switch family {
                case .v4:
                    var request = ip_mreqn()
                    withUnsafeMutableBytes(of: &request.imr_multiaddr) { $0.copyBytes(from: group.address.prefix(4)) }
                    request.imr_ifindex = Int32(bitPattern: index)
                    return setsockopt(raw, Int32(IPPROTO_IP), IP_ADD_MEMBERSHIP, &request, socklen_t(MemoryLayout<ip_mreqn>.size))
                case .v6:
                    var request = ipv6_mreq()
                    withUnsafeMutableBytes(of: &request.ipv6mr_multiaddr) { $0.copyBytes(from: group.address.prefix(16)) }
                    request.ipv6mr_interface = index
                    return setsockopt(raw, Int32(IPPROTO_IPV6), IPV6_JOIN_GROUP, &request, socklen_t(MemoryLayout<ipv6_mreq>.size))
                }
            }
        }
    }

    /// One datagram received: its length, sender and the interface it came in on.
    package struct Datagram: Sendable, Hashable {
        /// The bytes received.
        package var count: Int
        /// Whether it was longer than the buffer (the rest is lost).
        package var truncated: Bool
        /// Who sent it.
        package var source: SocketAddress
        /// The index of the interface it came in on (0 when unknown).
        package var interface: UInt32
    }

    /// Receives one datagram into `buffer`, or `nil` when none is queued. The corresponding C
    /// function is `recvmsg` (with `IP_PKTINFO` / `IPV6_PKTINFO`).
    package func receive(into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Datagram? {
        var from = sockaddr_storage()
        var length: UInt32 = 0
        var interface: UInt32 = 0
        var truncated: Int32 = 0
        let count: Int
        do {
            count = try descriptor.withRaw { (raw) throws(SystemCallError) -> Int in
                try invoke(.receive, path: descriptor.path) {
                    di_recv_with_interface(raw, buffer.baseAddress, UInt(buffer.count), &from, &length, &interface, &truncated)
                }
            }
        } catch where error.errno == .resourceTemporarilyUnavailable {
            return nil
        }
        // A sender of another family cannot reach this socket; skipped if it ever did.
        guard let source = SocketAddress(from, length: socklen_t(length)) else { return try receive(into: buffer) }
        return Datagram(count: count, truncated: truncated != 0, source: source, interface: interface)
    }

    /// Sends `bytes` to `destination` out of the interface `index` (0: as routed). The
    /// corresponding C function is `sendmsg` (with `IP_PKTINFO` / `IPV6_PKTINFO`).
    package func send(_ bytes: [UInt8], to destination: SocketAddress, interface index: UInt32) throws(SystemCallError) {
        _ = try descriptor.withRaw { (raw) throws(SystemCallError) -> Int in
            try invoke(.send, path: destination.description) {
                bytes.withUnsafeBytes { body in
                    destination.withSocketAddress { address, length in
                        di_send_on_interface(raw, body.baseAddress, UInt(body.count), address, UInt32(length), index)
                    }
                }
            }
        }
    }
}
