import Synchronization

/// Publishes DNS-SD service instances over Multicast DNS on chosen interfaces, on a thread of its
/// own, beside any other responder on the host (avahi-daemon, python-zeroconf): see
/// `ResponderRole` in the source for what it answers and how.
///
/// ```swift
/// let instance = try ServiceInstance(name: "Alice's laptop", type: "_di-nearby._tcp", port: 53400,
///                                    txt: TXTRecord(["v": "1", "fp": "3fa2…"]), hostLabel: "di-3fa2")
/// let responder = try MulticastResponder(instances: [instance], interfaces: ["eth0"])
/// // … later
/// responder.stop()   // goodbyes, then the thread and sockets are gone
/// ```
public final class MulticastResponder: Sendable {
    private let engine: Engine<ResponderRole.Command>
    private let published: Mutex<[ServiceInstance]>
    /// The names of the interfaces it answers on.
    public let interfaces: [String]

    /// Starts publishing `instances` on the interfaces called `interfaces` (`nil`: every interface
    /// that is up, multicast-capable and not the loopback, as they are now): announces them at
    /// once and again a second later. Throws when an interface does not exist or the sockets
    /// cannot be set up.
    public init(instances: [ServiceInstance], interfaces: [String]? = nil) throws(MulticastDNSError) {
        let set = try InterfaceSet(names: interfaces)
        let transport = try MulticastTransport(interfaces: set)
        self.interfaces = set.members.map(\.name)
        published = Mutex(instances)
        engine = try Engine(transport: transport) {
            ResponderRole(instances: instances, interfaces: set, addressBook: AddressBook())
        }
    }

    /// The instances published now.
    public var instances: [ServiceInstance] { published.withLock { $0 } }

    /// Publishes `instances` instead: goodbyes for the records that go away, and announcements of
    /// the new set (twice, a second apart).
    public func update(_ instances: [ServiceInstance]) {
        published.withLock { $0 = instances }
        engine.post(.update(instances))
    }

    /// Says goodbye for every record (TTL 0) and stops: when it returns, the thread has ended and
    /// the sockets are closed. Calling it again does nothing.
    public func stop() {
        engine.stop()
    }

    deinit {
        engine.stop()
    }
}
