import Synchronization

/// Publishes DNS-SD service instances over Multicast DNS on chosen interfaces: through the
/// machine's avahi-daemon when one runs, otherwise with a built-in engine on a thread of its own,
/// beside any other responder on the host (python-zeroconf): see `ResponderRole` in the source for
/// what the built-in engine answers and how, and ``DiscoveryBackend`` for the choice.
///
/// ```swift
/// let instance = try ServiceInstance(name: "Alice's laptop", type: "_di-nearby._tcp", port: 53400,
///                                    txt: TXTRecord(["v": "1", "fp": "3fa2…"]), hostLabel: "di-3fa2")
/// let responder = try MulticastResponder(instances: [instance], interfaces: ["eth0"])
/// // … later
/// responder.stop()   // goodbyes, then the thread and sockets (or the Avahi client) are gone
/// ```
public final class MulticastResponder: Sendable {
    private struct State {
        var avahi: (connection: AvahiConnection, publisher: AvahiPublisher)?
        var engine: Engine<ResponderRole.Command>?
        /// The connection a return to the daemon works on (``stop()`` closes it).
        var returning: AvahiConnection?
        var fallbackReason: String?
        var stopped = false
    }

    private let state: Mutex<State>
    private let published: Mutex<[ServiceInstance]>
    private let interfaceSet: InterfaceSet
    /// Whether `interfaces:` was given (else the daemon publishes on every interface it uses).
    private let chosenInterfaces: Bool
    /// The names of the interfaces it answers on (through Avahi without `interfaces:`, the daemon
    /// works on those it uses, as they come and go; these are the ones up when it started).
    public let interfaces: [String]

    /// Starts publishing `instances` on the interfaces called `interfaces` (`nil`: every interface
    /// that is up, multicast-capable and not the loopback, as they are now; through Avahi, every
    /// interface the daemon uses, as they come and go), through `backend`.
    ///
    /// The built-in engine announces at once and again a second later. Through Avahi, the daemon
    /// probes each name first (about 750 ms, RFC 6762 §8.1), and a name another host holds is
    /// replaced by the next one Avahi recommends (`Alice's laptop #2`; see ``instances``). Either
    /// way the SRV record names `hostLabel.local.`, with the addresses of each interface (through
    /// Avahi, published again within 2 s when they change). Should the daemon go away while
    /// publishing, the responder goes on with the built-in engine (see ``fallbackReason``), and
    /// goes back to the daemon when it returns (tried every 2 s).
    ///
    /// Throws when an interface does not exist, the sockets cannot be set up, the daemon refuses a
    /// service, or `backend` is ``DiscoveryBackend/avahi`` and no daemon is reachable.
    public init(instances: [ServiceInstance], interfaces: [String]? = nil, backend: DiscoveryBackend = .automatic) throws(MulticastDNSError) {
        let set = try InterfaceSet(names: interfaces)
        interfaceSet = set
        chosenInterfaces = interfaces != nil
        self.interfaces = set.members.map(\.name)
        published = Mutex(instances)
        let (connection, reason) = try backend.connect()
        guard let connection else {
            state = Mutex(State(engine: try Self.builtIn(instances, set), fallbackReason: reason))
            return
        }
        let publisher: AvahiPublisher
        do {
            publisher = try Self.publisher(connection, instances, set, chosen: interfaces != nil)
        } catch {
            connection.close()
            throw error
        }
        state = Mutex(State(avahi: (connection, publisher)))
        connection.onFailure { [weak self] reason in self?.fallBack(reason) }
    }

    private static func publisher(_ connection: AvahiConnection, _ instances: [ServiceInstance], _ set: InterfaceSet,
                                  chosen: Bool) throws(MulticastDNSError) -> AvahiPublisher {
        try AvahiPublisher(connection: connection, instances: instances, interfaces: chosen ? set.members.map(\.index) : nil,
                           addressInterfaces: set.members.map(\.index))
    }

    private static func builtIn(_ instances: [ServiceInstance], _ set: InterfaceSet) throws(MulticastDNSError) -> Engine<ResponderRole.Command> {
        let transport = try MulticastTransport(interfaces: set)
        return try Engine(transport: transport) {
            ResponderRole(instances: instances, interfaces: set, addressBook: AddressBook())
        }
    }

    /// The daemon went away: publish with the built-in engine until it comes back (its sockets no
    /// longer share udp/5353 with a responder), then through the daemon again. The failed
    /// connection is closed (on the poll's thread, ``AvahiConnection/close()`` hands that to a
    /// thread of its own).
    private func fallBack(_ reason: String) {
        let instances = published.withLock { $0 }
        let (started, failed) = state.withLock { state -> (Bool, AvahiConnection?) in
            guard !state.stopped, state.engine == nil else { return (false, nil) }
            defer { state.avahi = nil }
            do throws(MulticastDNSError) {
                state.engine = try Self.builtIn(instances, interfaceSet)
                state.fallbackReason = "avahi-daemon went away (\(reason)); publishing with the built-in engine"
            } catch {
                state.fallbackReason = "avahi-daemon went away (\(reason)), and the built-in engine did not start: \(error)"
            }
            return (true, state.avahi?.connection)
        }
        failed?.close()
        guard started else { return }
        AvahiReturn.watch(for: self, waiting: { $0.state.withLock { !$0.stopped && $0.fallbackReason != nil } },
                          resume: { $0.resume(through: $1) })
    }

    /// The daemon is back: publish through it again. The daemon probes and announces the same
    /// records the built-in engine answers with (a record differing only in TTL is no conflict,
    /// RFC 6762 §9), and then the engine stops without goodbyes, which would make browsers forget
    /// them. Whether it is done (false: the daemon refused, and the built-in engine goes on).
    private func resume(through connection: AvahiConnection) -> Bool {
        let started = state.withLock { state -> Bool in
            guard !state.stopped, state.returning == nil else { return false }
            state.returning = connection
            return true
        }
        guard started else {
            connection.close()
            return true
        }
        let instances = published.withLock { $0 }
        let publisher: AvahiPublisher
        do throws(MulticastDNSError) {
            publisher = try Self.publisher(connection, instances, interfaceSet, chosen: chosenInterfaces)
        } catch {
            // Also what a stop meanwhile leads to: it closed the connection.
            connection.close()
            state.withLock { state in
                state.returning = nil
                if !state.stopped { state.fallbackReason = "avahi-daemon came back but refused to publish (\(error)); publishing with the built-in engine" }
            }
            return false
        }
        let (kept, engine) = state.withLock { state -> (Bool, Engine<ResponderRole.Command>?) in
            state.returning = nil
            guard !state.stopped else { return (false, nil) }
            state.avahi = (connection, publisher)
            state.fallbackReason = nil
            return (true, state.engine)
        }
        guard kept else {
            publisher.withdraw()
            connection.close()
            return true
        }
        // Kept in the state until it has stopped, so that a stop meanwhile waits for it.
        engine?.stop(goodbyes: false)
        state.withLock { state in if state.engine === engine { state.engine = nil } }
        // An update meanwhile went to the engine: publish what is wanted now.
        let latest = published.withLock { $0 }
        if latest != instances { publisher.update(latest) }
        connection.onFailure { [weak self] reason in self?.fallBack(reason) }
        return true
    }

    /// What publishes now: ``DiscoveryBackend/avahi`` or ``DiscoveryBackend/builtIn``.
    public var backend: DiscoveryBackend {
        state.withLock { $0.engine == nil && $0.avahi != nil ? .avahi : .builtIn }
    }

    /// Why the built-in engine publishes although Avahi was asked for or tried: no daemon was
    /// reachable at the start (automatic), or it went away later. `nil` otherwise.
    public var fallbackReason: String? { state.withLock { $0.fallbackReason } }

    /// The last request avahi-daemon refused after the start, in one sentence: an update, the
    /// re-registration after a name collision, or its withdrawal of an instance or a host name's
    /// addresses (`nil` when none, and with the built-in engine).
    public var problem: String? {
        state.withLock { $0.engine == nil ? $0.avahi : nil }?.publisher.problems.text
    }

    /// The instances published now; through Avahi, under the names in use after collisions.
    public var instances: [ServiceInstance] {
        let avahi = state.withLock { $0.engine == nil ? $0.avahi : nil }
        return avahi?.publisher.published.withLock { $0 } ?? published.withLock { $0 }
    }

    /// Publishes `instances` instead: goodbyes for the records that go away, and announcements of
    /// the new set (twice, a second apart, by the built-in engine; as the daemon announces them
    /// through Avahi).
    public func update(_ instances: [ServiceInstance]) {
        published.withLock { $0 = instances }
        let (avahi, engine) = state.withLock { ($0.avahi, $0.engine) }
        if let engine {
            engine.post(.update(instances))
        } else {
            avahi?.publisher.update(instances)
        }
    }

    /// Says goodbye for every record (TTL 0) and stops: when it returns, the thread has ended and
    /// the sockets are closed, or the daemon has withdrawn the records and the Avahi client is
    /// gone. Calling it again does nothing.
    public func stop() {
        let (avahi, engine, returning, first) = state.withLock { state in
            defer { state.stopped = true }
            return (state.avahi, state.engine, state.returning, !state.stopped)
        }
        guard first else { return }
        // A return to the daemon under way fails on the closed connection (and publishes nothing).
        returning?.close()
        if let avahi {
            avahi.publisher.withdraw()
            avahi.connection.close()
        }
        engine?.stop()
    }

    deinit {
        stop()
    }
}
