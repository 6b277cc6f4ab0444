import MulticastDNS
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization
import SystemCalls

/// The receiver: listens for senders, lets in the certificates its mode allows (in the TLS
/// handshake), and runs each admitted sender's session (``IncomingSession``): connections are
/// capped per address and in all (``ConnectionLimits``), unpaired senders' sessions at
/// ``ReceiverConfiguration/maximumSessions`` at once, paired devices' not at all.
public final class NearbyReceiver: Sendable {
    /// How it runs.
    public let configuration: ReceiverConfiguration
    /// The port it listens on (the one asked for, or the one the system chose for 0).
    public let port: Int
    let server: Connection.Listener
    let connections: AcceptLoop<Connection.Accepted>
    let identity: DeviceIdentity
    let prompt: (@Sendable (IncomingAsk) async -> Bool)?
    let events: @Sendable (ReceiverEvent) -> Void
    /// What a stranger asking for Handoff's messages is told.
    static let pairedOnly = "this device offers its activities to paired devices only"
    /// Unpaired senders' sessions being served.
    let strangers = Atomic<Int>(0)
    let claims = TransferClaims()
    let askLimits: AskLimits
    /// LocalSend's receiver, in everyone-mode when configured.
    let localSend: LocalSendReceiver?
    /// The port LocalSend is served on, when it is.
    public var localSendPort: Int? { localSend?.port }
    /// AirDrop's receiver, in everyone-mode when configured.
    let airDrop: AirDropReceiver?
    /// The port AirDrop's protocol is served on, when it is.
    public var airDropPort: Int? { airDrop?.port }
    /// How long a delivered transfer's markers are kept (a week).
    static let deliveredRetention: Double = 7 * 86_400

    /// Binds the listening socket (nothing is accepted until ``run()``).
    /// - Parameters:
    ///   - prompt: asks the user about an unpaired sender in everyone-mode (`nil`: declined,
    ///     unless ``ReceiverConfiguration/autoAccept``).
    ///   - events: told what happens.
    public init(_ configuration: ReceiverConfiguration, prompt: (@Sendable (IncomingAsk) async -> Bool)? = nil,
                events: @escaping @Sendable (ReceiverEvent) -> Void = { _ in }) async throws {
        guard configuration.mode != .off else { throw NearbyError.declined("receiving is off") }
        let folder = NearbyFolder(root: configuration.root)
        let identity = try DeviceIdentity.loadOrCreate(in: folder)
        self.identity = identity
        Spool.purge(base: folder.spool, olderThan: Self.deliveredRetention, now: Clock.system.now())
        let mode = configuration.mode
        let connections = Connection.acceptLoop()
        self.connections = connections
        server = try await Connection.listen(host: configuration.host, port: configuration.port, identity: identity,
                                             idle: configuration.idleTimeout, connections: connections,
                                             limits: configuration.connectionLimits) {
            // The pins are read for every connection: a device paired or unpaired while the
            // receiver runs counts at once.
            PeerCheck(.receiving(mode, folder))
        }
        port = server.channel.localAddress?.port ?? configuration.port
        self.configuration = configuration
        askLimits = AskLimits(limit: configuration.asksPerPeer, window: configuration.askWindow)
        self.prompt = prompt
        self.events = events
        let policy = AskPolicy(configuration: configuration, prompt: prompt, askLimits: askLimits)
        do {
            localSend = mode == .everyone ? try await configuration.localSend.asyncMap {
                try await LocalSendReceiver(configuration: configuration, settings: $0, identity: identity, policy: policy, events: events)
            } : nil
        } catch {
            try? await server.channel.close()
            throw error
        }
        do {
            airDrop = mode == .everyone ? try await configuration.airDrop.asyncMap {
                try await AirDropReceiver(configuration: configuration, settings: $0, identity: identity, policy: policy, events: events)
            } : nil
        } catch {
            try? await server.channel.close()
            try? await localSend?.server.channel.close()
            throw error
        }
    }

    /// Serves until the task is cancelled or, in everyone-mode, its minutes run out (then it
    /// returns); throws when a part it cannot go on without fails (a listening socket closed),
    /// after closing the others.
    public func run() async throws {
        let responder = configuration.announces ? try announce() : nil
        defer { responder?.stop() }
        events(.listening(port: port))
        let port = self.port
        try await withThrowingTaskGroup(of: Void.self) { group in
            // A listener's loop ends only when cancelled; ending otherwise, its socket closed.
            group.addTask {
                try await self.accept()
                throw NearbyError.connection("the listening socket on port \(port) closed")
            }
            if let localSend {
                group.addTask {
                    try await localSend.run()
                    throw NearbyError.connection("LocalSend's listening socket on port \(localSend.port) closed")
                }
            }
            if let airDrop {
                group.addTask {
                    try await airDrop.run()
                    throw NearbyError.connection("AirDrop's listening socket on port \(airDrop.port) closed")
                }
            }
            if responder != nil {
                // Where it announces, it also watches which paired devices are in reach, for the
                // chooser's sheet (DevicesInReach).
                let watch = ReachWatch(root: configuration.root, interfaces: configuration.interfaces)
                group.addTask {
                    await watch.run { self.events(.failed($0)) }
                    // It returns only when cancelled; a plain return would end the receiver (the
                    // first child to finish does).
                    throw CancellationError()
                }
            }
            if let responder {
                // A device paired or unpaired while the receiver runs: announced for at once (the
                // tags it recognises), not at the next epoch, up to 15 minutes later.
                let changes: AsyncStream<Void>?
                do { changes = try PairingChanges.stream(NearbyFolder(root: configuration.root)) } catch {
                    changes = nil
                    events(.warning("pairings made while receiving are announced only from the next discovery epoch: \(error)"))
                }
                group.addTask {
                    var keys = self.pairedKeys()
                    for await _ in changes ?? AsyncStream(unfolding: { nil }) {
                        let now = self.pairedKeys()
                        guard now != keys else { continue }
                        keys = now
                        responder.update([try self.instance()])
                    }
                    // Ended only by cancellation: returning would end the receiver.
                    while (try? await Task.sleep(for: .seconds(3600))) != nil {}
                    throw CancellationError()
                }
                // A new instance each epoch: new random names, new tags (and the paired list as it is now).
                group.addTask {
                    while true {
                        let now = Clock.system.now()
                        let next = Double(DiscoveryTag.epoch(at: now) + 1) * DiscoveryTag.epochLength
                        try await Task.sleep(for: .seconds(next - now + 0.01))
                        responder.update([try self.instance()])
                    }
                }
            }
            if configuration.mode == .everyone {
                let minutes = configuration.everyoneMinutes
                group.addTask {
                    try await Task.sleep(for: .seconds(minutes * 60))
                    self.events(.expired)
                }
            }
            // The first to finish (expiry, or a part failing) ends the receiver; cancelled (a
            // signal), the parts' endings are only that.
            do {
                try await group.next()
                group.cancelAll()
                try? await server.channel.close()
            } catch {
                group.cancelAll()
                try? await server.channel.close()
                if Task.isCancelled { return }
                throw error
            }
        }
    }

    /// The announcement for now.
    func instance() throws -> ServiceInstance {
        let paired = (try? PairedDevices.load(from: NearbyFolder(root: configuration.root)).devices) ?? []
        return try Announcement.instance(mode: configuration.mode, deviceName: configuration.deviceName, identity: identity.fingerprint,
                                         port: port, paired: paired, now: Clock.system.now())
    }

    /// The paired devices' discovery keys, by fingerprint: what the announcement's tags depend on
    /// (an address noted after a send changes the list, not the tags).
    func pairedKeys() -> [Fingerprint: [UInt8]] {
        let paired = (try? PairedDevices.load(from: NearbyFolder(root: configuration.root)).devices) ?? []
        return Dictionary(paired.compactMap { device in device.discoveryKey.map { (device.fingerprint, $0) } }) { first, _ in first }
    }

    /// Starts announcing.
    func announce() throws -> MulticastResponder {
        try MulticastResponder(instances: [try instance()], interfaces: configuration.interfaces)
    }

    func accept() async throws {
        try await connections.run(server) { connection, check in await self.serve(connection, check) }
    }

    func serve(_ connection: NIOAsyncChannel<Frame, Frame>, _ check: PeerCheck) async {
        do {
            try await connection.executeThenClose { inbound, outbound in
                var frames = inbound.makeAsyncIterator()
                // The handshake completes before the first frame arrives: an unpaired certificate
                // in paired mode fails it, and this throws.
                let first = try await frames.next()
                guard let first, let peer = check.fingerprint else { return }
                let paired = try PairedDevices.load(from: NearbyFolder(root: configuration.root)).device(with: peer)
                // Counted only once the certificate is known: a stranger holding connections open
                // filled a global count of 8 and locked paired devices out (attack-lab.sh).
                if paired == nil {
                    guard strangers.add(1, ordering: .relaxed).newValue <= configuration.maximumSessions else {
                        strangers.subtract(1, ordering: .relaxed)
                        return
                    }
                }
                defer { if paired == nil { strangers.subtract(1, ordering: .relaxed) } }
                // Handoff's messages are dispatched only with a paired device in hand: the handlers
                // take one, so none can be reached by a stranger everyone-mode lets connect.
                if first.kind == .message {
                    let message = try IncomingSession.message(first)
                    if message.isForPairedDevicesOnly {
                        guard let paired else {
                            try await outbound.write(SessionMessage.refused(Self.pairedOnly).frame)
                            return
                        }
                        let relay = ActivityRelay(root: configuration.root.path, paired: paired, heartbeat: configuration.streamHeartbeat)
                        switch message {
                        case .watchActivities: try await ActivityWatch(root: configuration.root.path, paired: paired).run(connection.channel, outbound)
                        case .continued(let offer): try await relay.continued(offer, outbound)
                        case .openStreams(let offer): try await relay.openStreams(offer, &frames, outbound, remoteChannel: connection.channel)
                        default: break
                        }
                        return
                    }
                }
                var replay = ReplayFirst(first: first, rest: frames)
                let session = IncomingSession(configuration: configuration, peer: peer, paired: paired, prompt: prompt, events: events,
                                              claims: claims, askLimits: askLimits, channel: connection.channel)
                do {
                    try await session.run(&replay, outbound)
                } catch let error as NearbyError {
                    // Told why, unless the connection is what failed (a write to it would wait); in
                    // words a stranger may hear (``NearbyError/publicReason``).
                    if case .connection = error {} else { try? await outbound.write(SessionMessage.refused(error.publicReason).frame) }
                    throw error
                }
            }
        } catch {
            // A certificate the check let in: the session itself failed (a dropped connection,
            // a protocol violation). Otherwise the handshake refused the device; a connection that
            // ended before showing a certificate is no device (a flood's made a line each).
            guard let seen = check.fingerprint else { return }
            if check.accepts(seen) { events(.failed("\(error)")) } else { events(.refusedPeer(seen)) }
        }
    }
}

/// The session's frames with the first one (already read, to learn the peer) put back in front.
struct ReplayFirst: FrameSource {
    var first: Frame?
    var rest: NIOAsyncChannelInboundStream<Frame>.AsyncIterator

    mutating func next() async throws -> Frame? {
        if let frame = first { first = nil; return frame }
        return try await rest.next()
    }
}

/// Where a session reads its frames from.
protocol FrameSource {
    mutating func next() async throws -> Frame?
}

extension NIOAsyncChannelInboundStream<Frame>.AsyncIterator: FrameSource {}

extension Optional {
    /// The wrapped value through an async `transform`, or `nil`.
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
