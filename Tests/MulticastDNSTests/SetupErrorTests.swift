import SystemCalls
import Testing
@testable import MulticastDNS

/// What starting a responder or browser says when it cannot: the interface by name, the failing
/// system call with the socket and option (forced with fault injection, on the loopback
/// interface: nothing is ever sent).
struct SetupErrorTests {
    @Test func anUnknownInterfaceIsNamed() throws {
        let instance = try ServiceInstance(name: "x", type: "_di-nearby._tcp", port: 1, hostLabel: "x")
        #expect(throws: MulticastDNSError.noSuchInterface("no-such-if0")) {
            try MulticastResponder(instances: [instance], interfaces: ["no-such-if0"])
        }
        #expect(throws: MulticastDNSError.invalidServiceType("_x._sctp")) { try MulticastBrowser(type: "_x._sctp", interfaces: ["lo"]) }
    }

    @Test func aFailedSocketOptionNamesTheSocketAndTheOption() throws {
        let error = SystemCallError(.setsockopt, path: "udp 0.0.0.0:5353 (SO_REUSEADDR)", errno: .permissionDenied)
        #expect(throws: MulticastDNSError.system(error)) {
            try FaultInjection.with([.fail(.setsockopt, errno: .permissionDenied)]) {
                try MulticastBrowser(type: "_di-nearby._tcp", interfaces: ["lo"], backend: .builtIn)
            }
        }
        #expect(MulticastDNSError.system(error).description == "cannot set an option of udp 0.0.0.0:5353 (SO_REUSEADDR): Permission denied")
        let listing = SystemCallError(.getifaddrs, errno: .noMemory)
        #expect(throws: MulticastDNSError.system(listing)) {
            try FaultInjection.with([.fail(.getifaddrs, errno: .noMemory)]) { try MulticastBrowser(type: "_di-nearby._tcp") }
        }
    }

    @Test func interfacesAreListedWithTheirAddresses() throws {
        let loopback = try #require(try NetworkInterface.all().first { $0.isLoopback })
        #expect(loopback.isUp && loopback.addresses.contains { $0.address == [127, 0, 0, 1] })
        #expect(try NetworkInterface.index(named: loopback.name) == loopback.index)
        #expect(throws: SystemCallError(.interfaceIndex, path: "no-such-if0", errno: .operationNotSupportedByDevice)) {
            try NetworkInterface.index(named: "no-such-if0")
        }
        #expect(SocketAddress.bytes(of: "fe80::1") == [0xfe, 0x80] + [UInt8](repeating: 0, count: 13) + [1])
        #expect(SocketAddress(v6: SocketAddress.bytes(of: "fe80::1")!, port: 5353, scope: 2)?.description == "[fe80::1%2]:5353")
    }
}
