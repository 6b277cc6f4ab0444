import Synchronization
import SystemCalls

/// Finds and resolves the instances of one DNS-SD service type over Multicast DNS on chosen
/// interfaces, on a thread of its own, and reports each addition, change and removal (see
/// `BrowserRole` in the source for the protocol details).
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
    private let engine: Engine<Never>
    private let snapshot: ServiceList
    private let continuation: AsyncStream<BrowseEvent>.Continuation
    /// The type browsed for.
    public let type: ServiceType
    /// The names of the interfaces it browses on.
    public let interfaces: [String]
    /// Every event, in order (the newest 1024 are kept while nobody reads); it ends when the
    /// browser stops.
    public let events: AsyncStream<BrowseEvent>

    /// Starts browsing for `type` (`_di-nearby._tcp`) on the interfaces called `interfaces`
    /// (`nil`: every interface that is up, multicast-capable and not the loopback): a question at
    /// once, then after 1, 2, 4… seconds up to `maximumQueryInterval`. `onEvent` is called on the
    /// browser's thread with each change, in order; it must return quickly, and may call
    /// ``stop()``. Throws when the type is not a service type, an interface does not exist or the
    /// sockets cannot be set up.
    public init(type: String, interfaces: [String]? = nil, maximumQueryInterval: Double = 3600,
                onEvent: (@Sendable (BrowseEvent) -> Void)? = nil) throws(MulticastDNSError) {
        let serviceType = try ServiceType(type)
        let set = try InterfaceSet(names: interfaces)
        let transport = try MulticastTransport(interfaces: set)
        self.type = serviceType
        self.interfaces = set.members.map(\.name)
        let (stream, continuation) = AsyncStream<BrowseEvent>.makeStream(bufferingPolicy: .bufferingNewest(1024))
        events = stream
        self.continuation = continuation
        let snapshot = ServiceList()
        self.snapshot = snapshot
        engine = try Engine(transport: transport) {
            BrowserRole(type: serviceType, interfaces: set, addressBook: AddressBook(), maximumQueryInterval: maximumQueryInterval) { event in
                snapshot.apply(event)
                onEvent?(event)
                continuation.yield(event)
            }
        }
    }

    /// The instances resolved now, by name.
    public var services: [ResolvedService] { snapshot.services }

    /// Stops browsing: when it returns (unless called from `onEvent`), the thread has ended, the
    /// sockets are closed and ``events`` has finished. Calling it again does nothing.
    public func stop() {
        engine.stop()
        continuation.finish()
    }

    deinit {
        stop()
    }

    /// Browses for `type` for `timeout` seconds and returns what was resolved by then, blocking
    /// the calling thread: for a command-line tool's one-shot lookup.
    public static func browse(type: String, interfaces: [String]? = nil, timeout: Double) throws(MulticastDNSError) -> [ResolvedService] {
        let browser = try MulticastBrowser(type: type, interfaces: interfaces)
        Clock.sleep(max(0, timeout))
        let found = browser.services
        browser.stop()
        return found
    }
}
