import SystemCalls

/// LocalSend's discovery for networks that drop multicast (protocol v2, "HTTP (legacy mode)"):
/// our description is posted to `register` at every other address of each IPv4 interface's /24,
/// as LocalSend's apps sweep, and each device that answers describes itself in its reply.
///
/// Only the interfaces' own /24s are asked, whatever their netmasks say (LocalSend's rule too):
/// a wider network would be thousands of connections, and nothing beyond the link is ever asked.
enum LocalSendSweep {
    /// The addresses to ask: for each IPv4 address of an interface (loopback aside; only those
    /// `named` when given), the others of its /24, `.1` to `.254`, each once.
    static func hosts(of addresses: [(interface: String, address: String)], named: [String]?) -> [String] {
        var hosts: [String] = []
        var seen = Set<String>()
        for (interface, address) in addresses where named.map({ $0.contains(interface) }) ?? true {
            let octets = address.split(separator: ".", omittingEmptySubsequences: false).compactMap { UInt8($0) }
            guard octets.count == 4, octets[0] != 127 else { continue }
            let prefix = octets[0...2].map(String.init).joined(separator: ".")
            for last in 1...254 where last != Int(octets[3]) {
                let host = "\(prefix).\(last)"
                if seen.insert(host).inserted { hosts.append(host) }
            }
        }
        // Our own addresses on other interfaces are not devices to find.
        let own = Set(addresses.map(\.address))
        return hosts.filter { !own.contains($0) }
    }

    /// The IPv4 addresses of this host's interfaces that are up, loopback aside.
    static func interfaceAddresses() -> [(interface: String, address: String)] {
        ((try? NetworkInterface.all()) ?? []).filter { $0.isUp && !$0.isLoopback }.flatMap { interface in
            interface.addresses.filter { $0.family == .v4 }.map { (interface.name, SocketAddress.text(of: $0.address)) }
        }
    }

    /// Connections open at once: a /24 in two waves of unanswered connects.
    static let concurrency = 128

    /// Posts `me` to `register` on `port` at each of `hosts` (HTTPS), `concurrency` at a time,
    /// each given `timeout` seconds; `found` hears every device that answers (the port it was
    /// reached on when its reply names none) and says whether to stop.
    static func sweep(hosts: [String], port: Int, me: LocalSendDevice, identity: DeviceIdentity, timeout: Double,
                      found: @escaping @Sendable (LocalSendDevice, String) -> Bool) async {
        var client = HTTPClient(identity: identity)
        client.timeout = timeout
        client.tls = try? TLSSetup.localSendContext(identity, server: false)
        let asking = client
        await withTaskGroup(of: Bool.self) { group in
            var next = hosts.makeIterator()
            func ask(_ host: String) {
                group.addTask {
                    guard var device = await LocalSendRegister.post(me, to: host, port: port, secure: true, client: asking),
                          device.fingerprint != me.fingerprint else { return false }
                    if device.port == nil { device.port = port }
                    if device.protocol == nil { device.protocol = "https" }
                    return found(device, host)
                }
            }
            for _ in 0..<concurrency { if let host = next.next() { ask(host) } }
            while let done = await group.next() {
                if done || Task.isCancelled { group.cancelAll(); return }
                if let host = next.next() { ask(host) }
            }
        }
    }
}
