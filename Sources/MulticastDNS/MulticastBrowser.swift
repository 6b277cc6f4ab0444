import Synchronization
import SystemCalls

/// Finds and resolves the instances of one DNS-SD service type over Multicast DNS on chosen
/// interfaces, and reports each addition, change and removal: through the machine's avahi-daemon
/// when one runs, otherwise with a built-in engine on a thread of its own (see `BrowserRole` in
/// the source for the protocol details, and ``DiscoveryBackend`` for the choice).
///
/// ```swift
/// let browser = try MulticastBrowser(type: "_di-nearby._tcp", interfaces: ["eth0"]) { event in
///     print(event)            // on the browser's thread
/// }
/// for await event in browser.events { … }   // or as a stream
/// browser.stop()
///
/// let found = try MulticastBrowser.browse(type: "_di-nearby._tcp", timeout: 1.5)
/// ```
public final class MulticastBrowser: Sendable {
    private struct State {
        var avahi: (connection: AvahiConnection, sessions: [AvahiBrowseSession])?
        var engine: Engine<Never>?
        /// The connection a return to the daemon works on (``stop()`` closes it).
        var returning: AvahiConnection?
        var fallbackReason: String?
        var stopped = false
    }

    private let state: Mutex<State>
    private let snapshot: ServiceList
    private let continuation: AsyncStream<BrowseEvent>.Continuation
    private let interfaceSet: InterfaceSet
    /// The interfaces of the Avahi browse sessions: each chosen one, or `nil` alone for every one.
    private let avahiInterfaces: [UInt32?]
    private let maximumQueryInterval: Double
    private let deliver: @Sendable (BrowseEvent) -> Void
    /// The type browsed for.
    public let type: ServiceType
    /// The names of the interfaces it browses on (through Avahi without `interfaces:`, the daemon
    /// works on those it uses, as they come and go; these are the ones up when it started).
    public let interfaces: [String]
    /// Every event, in order (the newest 1024 are kept while nobody reads); it ends when the
    /// browser stops.
    public let events: AsyncStream<BrowseEvent>

    /// Starts browsing for `type` (`_di-nearby._tcp`) on the interfaces called `interfaces`
    /// (`nil`: every interface that is up, multicast-capable and not the loopback; through Avahi,
    /// every interface the daemon uses), through `backend`. The built-in engine asks at once,
    /// then after 1, 2, 4… seconds up to `maximumQueryInterval`; through Avahi the daemon asks,
    /// and answers at once from its cache what it has seen already. Either way each instance is
    /// reported resolved (port, TXT record, every address its host has on that interface), and
    /// should the daemon go away, the browser reports its instances removed and goes on with the
    /// built-in engine, which finds them again (see ``fallbackReason``); when the daemon returns
    /// (tried every 2 s), the same the other way.
    ///
    /// `onEvent` is called with each change, in order, on the browser's thread (the engine's, or
    /// the daemon client's; the removals of a return to the daemon on the thread that makes it);
    /// it must return quickly, and may call ``stop()``. Throws when the type is not a service type, an interface
    /// does not exist, the sockets cannot be set up, the daemon refuses to browse, or `backend` is
    /// ``DiscoveryBackend/avahi`` and no daemon is reachable.
    public init(type: String, interfaces: [String]? = nil, maximumQueryInterval: Double = 3600, backend: DiscoveryBackend = .automatic,
                onEvent: (@Sendable (BrowseEvent) -> Void)? = nil) throws(MulticastDNSError) {
        let serviceType = try ServiceType(type)
        let set = try InterfaceSet(names: interfaces)
        self.type = serviceType
        self.interfaces = set.members.map(\.name)
        interfaceSet = set
        avahiInterfaces = interfaces == nil ? [nil] : set.members.map(\.index)
        self.maximumQueryInterval = maximumQueryInterval
        let (stream, continuation) = AsyncStream<BrowseEvent>.makeStream(bufferingPolicy: .bufferingNewest(1024))
        events = stream
        self.continuation = continuation
        let snapshot = ServiceList()
        self.snapshot = snapshot
        let deliver: @Sendable (BrowseEvent) -> Void = { event in
            snapshot.apply(event)
            onEvent?(event)
            continuation.yield(event)
        }
        self.deliver = deliver
        let (connection, reason) = try backend.connect()
        guard let connection else {
            state = Mutex(State(engine: try Self.builtIn(serviceType, set, maximumQueryInterval, deliver), fallbackReason: reason))
            return
        }
        var sessions: [AvahiBrowseSession] = []
        do {
            for index in avahiInterfaces {
                sessions.append(try AvahiBrowseSession(connection: connection, type: serviceType, interface: index, report: deliver))
            }
        } catch {
            for session in sessions { session.stop(reportRemovals: false) }
            connection.close()
            throw error
        }
        state = Mutex(State(avahi: (connection, sessions)))
        connection.onFailure { [weak self] reason in self?.fallBack(reason) }
    }

    private static func builtIn(_ type: ServiceType, _ set: InterfaceSet, _ maximumQueryInterval: Double,
                                _ deliver: @escaping @Sendable (BrowseEvent) -> Void) throws(MulticastDNSError) -> Engine<Never> {
        let transport = try MulticastTransport(interfaces: set)
        return try Engine(transport: transport) {
            BrowserRole(type: type, interfaces: set, addressBook: AddressBook(), maximumQueryInterval: maximumQueryInterval, report: deliver)
        }
    }

    /// The daemon went away: what it had found is reported removed (nothing keeps it current any
    /// more), and the built-in engine browses until the daemon comes back, finding again whatever
    /// is still there; then the daemon does again. The failed connection is closed (on the poll's
    /// thread, ``AvahiConnection/close()`` hands that to a thread of its own).
    private func fallBack(_ reason: String) {
        let sessions = state.withLock { $0.avahi?.sessions ?? [] }
        for session in sessions { session.stop(reportRemovals: true) }
        let (started, failed) = state.withLock { state -> (Bool, AvahiConnection?) in
            guard !state.stopped, state.engine == nil else { return (false, nil) }
            defer { state.avahi = nil }
            do throws(MulticastDNSError) {
                state.engine = try Self.builtIn(type, interfaceSet, maximumQueryInterval, deliver)
                state.fallbackReason = "avahi-daemon went away (\(reason)); browsing with the built-in engine"
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

    /// The daemon is back: browse through it again. The built-in engine stops, what it found is
    /// reported removed, as at the fallback, and the daemon's sessions report again what is still
    /// there. Whether it is done (false: the daemon refused, and the built-in engine browses
    /// again). Events on this thread, as on the daemon's and the engine's threads, end once
    /// ``stop()`` has marked the browser stopped.
    private func resume(through connection: AvahiConnection) -> Bool {
        let taken = state.withLock { state -> Engine<Never>?? in
            guard !state.stopped, state.returning == nil else { return nil }
            state.returning = connection
            return .some(state.engine)
        }
        guard let engine = taken else {
            connection.close()
            return true
        }
        // Kept in the state until it has stopped, so that a stop meanwhile waits for it.
        engine?.stop()
        state.withLock { state in if state.engine === engine { state.engine = nil } }
        for service in snapshot.services {
            guard !state.withLock({ $0.stopped }) else { break }
            deliver(.removed(service))
        }
        var sessions: [AvahiBrowseSession] = []
        do throws(MulticastDNSError) {
            for index in avahiInterfaces {
                sessions.append(try AvahiBrowseSession(connection: connection, type: type, interface: index, report: deliver))
            }
        } catch {
            // Also what a stop meanwhile leads to: it closed the connection.
            for session in sessions { session.stop(reportRemovals: false) }
            connection.close()
            state.withLock { state in
                state.returning = nil
                guard !state.stopped, state.engine == nil else { return }
                state.engine = try? Self.builtIn(type, interfaceSet, maximumQueryInterval, deliver)
                state.fallbackReason = "avahi-daemon came back but refused to browse (\(error)); browsing with the built-in engine"
            }
            return false
        }
        let kept = state.withLock { state -> Bool in
            state.returning = nil
            guard !state.stopped else { return false }
            state.avahi = (connection, sessions)
            state.fallbackReason = nil
            return true
        }
        guard kept else {
            for session in sessions { session.stop(reportRemovals: false) }
            connection.close()
            return true
        }
        connection.onFailure { [weak self] reason in self?.fallBack(reason) }
        return true
    }

    /// What browses now: ``DiscoveryBackend/avahi`` or ``DiscoveryBackend/builtIn``.
    public var backend: DiscoveryBackend {
        state.withLock { $0.engine == nil && $0.avahi != nil ? .avahi : .builtIn }
    }

    /// Why the built-in engine browses although Avahi was asked for or tried: no daemon was
    /// reachable at the start (automatic), or it went away later. `nil` otherwise.
    public var fallbackReason: String? { state.withLock { $0.fallbackReason } }

    /// The instances resolved now, by name.
    public var services: [ResolvedService] { snapshot.services }

    /// Stops browsing: when it returns (unless called from `onEvent`), the thread has ended and
    /// the sockets are closed or the Avahi client is gone, and ``events`` has finished. Calling
    /// it again does nothing.
    public func stop() {
        let (avahi, engine, returning, first) = state.withLock { state in
            defer { state.stopped = true }
            return (state.avahi, state.engine, state.returning, !state.stopped)
        }
        guard first else { return }
        // A return to the daemon under way fails on the closed connection (and reports nothing).
        returning?.close()
        if let avahi {
            for session in avahi.sessions { session.stop(reportRemovals: false) }
            avahi.connection.close()
        }
        engine?.stop()
        continuation.finish()
    }

    deinit {
        stop()
    }

    /// Browses for `type` for `timeout` seconds through `backend` and returns what was resolved
    /// by then, blocking the calling thread: for a command-line tool's one-shot lookup.
    public static func browse(type: String, interfaces: [String]? = nil, timeout: Double,
                              backend: DiscoveryBackend = .automatic) throws(MulticastDNSError) -> [ResolvedService] {
        let browser = try MulticastBrowser(type: type, interfaces: interfaces, backend: backend)
        Clock.sleep(max(0, timeout))
        let found = browser.services
        browser.stop()
        return found
    }
}
