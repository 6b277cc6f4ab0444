import SystemCalls

/// The addresses of the interfaces, read with `getifaddrs` at most once a second: a responder
/// answers each question with the addresses of the interface it came in on (an address of another
/// interface may be unreachable from there), and a burst of questions must not cost a netlink dump
/// each. Lives on the engine's thread.
final class AddressBook {
    private var read: (Double, [UInt32: [IPAddress]])?
    private let lookup: () -> [UInt32: [IPAddress]]

    /// A book reading the host's interfaces.
    convenience init() {
        self.init {
            var result: [UInt32: [IPAddress]] = [:]
            // A failed listing answers with no addresses until the next second's try.
            for interface in (try? NetworkInterface.all()) ?? [] {
                result[interface.index] = interface.addresses.compactMap { IPAddress(bytes: $0.address) }
            }
            return result
        }
    }

    /// A book reading `lookup` (tests give fixed addresses).
    init(lookup: @escaping () -> [UInt32: [IPAddress]]) {
        self.lookup = lookup
    }

    /// The addresses of interface `index`, IPv4 first.
    func addresses(of index: UInt32, now: Double) -> [IPAddress] {
        let table: [UInt32: [IPAddress]]
        if let (time, cached) = read, now >= time, now - time < 1 {
            table = cached
        } else {
            table = lookup()
            read = (now, table)
        }
        let addresses = table[index] ?? []
        return addresses.filter(\.isIPv4) + addresses.filter { !$0.isIPv4 }
    }
}
