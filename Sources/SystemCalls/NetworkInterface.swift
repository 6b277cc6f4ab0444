#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A network interface of this host (in this network namespace) and its IP addresses, as
/// `getifaddrs` lists them at the moment of the call.
package struct NetworkInterface: Sendable, Hashable {
    /// Its name (`eth0`).
    package var name: String
    /// Its index, which packets received carry (`IP_PKTINFO`) and sends name.
    package var index: UInt32
    /// Whether it is up (`IFF_UP`).
    package var isUp: Bool
    /// Whether it is the loopback interface (`IFF_LOOPBACK`).
    package var isLoopback: Bool
    /// Whether it can send and receive multicast (`IFF_MULTICAST`).
    package var supportsMulticast: Bool
    /// Its IPv4 and IPv6 addresses (port 0; IPv6 link-local ones with this interface as scope),
    /// in the order the kernel lists them.
    package var addresses: [SocketAddress]

    /// Every interface with its addresses. The corresponding C function is `getifaddrs`.
    package static func all() throws(SystemCallError) -> [NetworkInterface] {
        var list: UnsafeMutablePointer<ifaddrs>?
        _ = try invoke(.getifaddrs) { getifaddrs(&list) }
        defer { freeifaddrs(list) }
        var found: [NetworkInterface] = []
        var next = list
        while let entry = next?.pointee {
            next = entry.ifa_next
            guard let cName = entry.ifa_name else { continue }
            let name = String(cString: cName)
            let flags = entry.ifa_flags
            if !found.contains(where: { $0.name == name }) {
                // An interface that went away between the two calls has index 0: left out.
                let index = if_nametoindex(cName)
                guard index != 0 else { continue }
                found.append(NetworkInterface(name: name, index: index, isUp: flags & UInt32(IFF_UP) != 0,
                                              isLoopback: flags & UInt32(IFF_LOOPBACK) != 0,
                                              supportsMulticast: flags & UInt32(IFF_MULTICAST) != 0, addresses: []))
            }
            guard let position = found.firstIndex(where: { $0.name == name }),
                  let raw = entry.ifa_addr else { continue }
            var storage = sockaddr_storage()
            let family = Int32(raw.pointee.sa_family)
            let size = family == AF_INET ? MemoryLayout<sockaddr_in>.size : family == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : 0
            guard size > 0 else { continue }
            withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: UnsafeRawBufferPointer(start: raw, count: size)) }
            if var address = SocketAddress(storage, length: socklen_t(size)) {
                if address.family == .v6 && address.isLinkLocal && address.scope == 0 { address.scope = found[position].index }
                found[position].addresses.append(address)
            }
        }
        return found
    }

    /// The index of the interface called `name`. Throws `ENODEV` when there is none. The
    /// corresponding C function is `if_nametoindex`.
    package static func index(named name: String) throws(SystemCallError) -> UInt32 {
        // if_nametoindex returns 0 (not -1) on failure, with errno set.
        let index = try invoke(.interfaceIndex, path: name) { () -> Int32 in
            let found = if_nametoindex(name)
            return found == 0 ? -1 : Int32(bitPattern: found)
        }
        return UInt32(bitPattern: index)
    }
}
