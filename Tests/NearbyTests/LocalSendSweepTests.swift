import Foundation
import Synchronization
@testable import Nearby
import TestHelpers
import Testing

/// LocalSend's sweep for networks that drop multicast: which addresses are asked, and a sweep of
/// several addresses finding a real receiver (on loopback, where one address of many serves).
@Suite struct LocalSendSweepTests {
    @Test func eachInterfacesOwnSlash24IsAskedOnceWithoutOurselvesOrLoopback() {
        let hosts = LocalSendSweep.hosts(of: [("lo", "127.0.0.1"), ("eth0", "192.168.1.30"), ("wlan0", "192.168.1.31"), ("eth1", "10.0.7.254")],
                                         named: nil)
        // Two /24s: 192.168.1 without .30 and .31 (both ours), 10.0.7 without .254.
        #expect(hosts.count == 252 + 253)
        #expect(Set(hosts).count == hosts.count)
        #expect(hosts.contains("192.168.1.1") && hosts.contains("192.168.1.254") && hosts.contains("10.0.7.253"))
        #expect(!hosts.contains("192.168.1.30") && !hosts.contains("192.168.1.31") && !hosts.contains("10.0.7.254"))
        #expect(!hosts.contains("192.168.1.0") && !hosts.contains("192.168.1.255") && !hosts.contains { $0.hasPrefix("127.") })
        let named = LocalSendSweep.hosts(of: [("eth0", "192.168.1.30"), ("eth1", "10.0.7.254")], named: ["eth1"])
        #expect(named.count == 253 && named.allSatisfy { $0.hasPrefix("10.0.7.") })
        #expect(LocalSendSweep.hosts(of: [("eth0", "not an address")], named: nil).isEmpty)
    }

    /// Six loopback addresses, one of them a LocalSend receiver (HTTPS): the sweep hears it, with
    /// the port it was reached on, and none of the others; a device answering with our own
    /// fingerprint is not reported. (A bound on a hang, not a figure: the other addresses refuse
    /// at once, and a loaded full suite can hold a TLS handshake for seconds.)
    @Test func aSweepFindsTheOneAddressThatServes() async throws {
        let b = try TransferTests.Device()
        try await LocalSendTests.withLocalSend(b, secure: true) { port, _ in
            let identity = try DeviceIdentity.loadOrCreate(in: NearbyFolder(root: try TransferTests.Device().root))
            let me = LocalSendDevice(alias: "Sweeper", fingerprint: identity.fingerprint.hex.uppercased(), port: 53317, protocol: "https")
            let heard = Heard()
            let hosts = ["127.0.0.2", "127.0.0.3", "127.0.0.1", "127.0.0.4", "127.0.0.5", "127.0.0.6"]
            await LocalSendSweep.sweep(hosts: hosts, port: port, me: me, identity: identity, timeout: 30) { device, host in
                heard.add(device, host)
                return false
            }
            let all = heard.all
            #expect(all.count == 1 && all.first?.host == "127.0.0.1", "\(all)")
            #expect(all.first?.device.alias == "Bea's desktop" && all.first?.device.port == port)
            #expect(all.first?.device.fingerprint == b.identity.fingerprint.hex.uppercased())
            // Its own description comes back from a device that is us: not a device found.
            let self_ = LocalSendDevice(alias: "Sweeper", fingerprint: b.identity.fingerprint.hex.uppercased(), port: 53317, protocol: "https")
            let ours = Heard()
            await LocalSendSweep.sweep(hosts: ["127.0.0.1"], port: port, me: self_, identity: identity, timeout: 30) { device, host in
                ours.add(device, host)
                return false
            }
            #expect(ours.all.isEmpty)
        }
    }

    final class Heard: Sendable {
        let list = Mutex<[(device: LocalSendDevice, host: String)]>([])
        func add(_ device: LocalSendDevice, _ host: String) { list.withLock { $0.append((device, host)) } }
        var all: [(device: LocalSendDevice, host: String)] { list.withLock { $0 } }
    }
}
