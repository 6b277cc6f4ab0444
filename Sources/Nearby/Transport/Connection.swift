import AppRegistry
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
import SystemPackage

/// The two ends of a nearby connection as async channels of ``Frame``s: mutual TLS 1.3
/// (``TLSSetup``) judged by a ``PeerCheck``, closed after `idle` seconds of silence.
enum Connection {
    /// A listening socket; each accepted connection comes with the check that judged it.
    typealias Listener = NIOAsyncChannel<Accepted, Never>
    /// An accepted connection and the check that judged it.
    typealias Accepted = (NIOAsyncChannel<Frame, Frame>, PeerCheck)

    /// The accept loop for a listener.
    static func acceptLoop() -> AcceptLoop<Accepted> {
        AcceptLoop(channel: { $0.0.channel }) { try? await $0.0.executeThenClose { _, _ in } }
    }

    /// Listens on `host`:`port`; `check` makes each connection's check (read per connection).
    /// - Parameter connections: adopts each connection as it is wrapped (``AcceptLoop``).
    /// - Parameter limits: how many connections are served at once (``ConnectionCaps``).
    static func listen(host: String, port: Int, identity: DeviceIdentity, idle: Double, connections: AcceptLoop<Accepted>,
                       limits: ConnectionLimits = ConnectionLimits(), check: @escaping @Sendable () -> PeerCheck) async throws -> Listener {
        let context = try TLSSetup.context(identity, server: true)
        let caps = ConnectionCaps(limits)
        return try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .bind(host: host, port: port) { channel in
                let check = check()
                return channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    try sync.addHandler(caps.handler(for: channel))
                    try sync.addHandler(NIOSSLServerHandler(context: context, customVerificationCallback: TLSSetup.verifier(check)))
                    try sync.addHandler(IdleTimeout(seconds: idle))
                    try sync.addHandler(ByteToMessageHandler(FrameDecoder()))
                    try sync.addHandler(FrameEncoder())
                    return connections.adopt((try NIOAsyncChannel<Frame, Frame>(wrappingChannelSynchronously: channel), check))
                }
            }
    }

    /// Connects from `root`'s identity to `target`, whose certificate must be the target's
    /// expected one, else any paired device's: the one rule for the sender and the activity
    /// watcher. Returns the channel and the check (which saw the peer's fingerprint).
    static func connect(from root: DeviceRoot, to target: SendTarget, timeout: Double, idle: Double) async throws -> (NIOAsyncChannel<Frame, Frame>, PeerCheck) {
        let folder = NearbyFolder(root: root)
        let identity = try DeviceIdentity.loadOrCreate(in: folder)
        let check = PeerCheck(target.expected.map { .pinned($0) } ?? .paired(folder))
        let channel = try await connect(host: target.host, port: target.port, identity: identity, check: check, timeout: timeout, idle: idle)
        return (channel, check)
    }

    /// Connects to `host`:`port`.
    /// - Parameter awaitingHandshake: return only once the TLS handshake completed, so that
    ///   `check` holds the peer's fingerprint before anything is written (numeric comparison
    ///   commits to it in its first message). Otherwise writes wait for the handshake in the pipeline.
    static func connect(host: String, port: Int, identity: DeviceIdentity, check: PeerCheck, timeout: Double,
                        idle: Double, awaitingHandshake: Bool = false) async throws -> NIOAsyncChannel<Frame, Frame> {
        let context = try TLSSetup.context(identity, server: false)
        let handshake = MultiThreadedEventLoopGroup.singleton.next().makePromise(of: Void.self)
        do {
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.milliseconds(Int64(timeout * 1000)))
                .channelOption(.tcpOption(.tcp_nodelay), value: 1)
                .connect(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let sync = channel.pipeline.syncOperations
                        try sync.addHandler(try NIOSSLClientHandler(context: context, serverHostname: nil,
                                                                    customVerificationCallback: TLSSetup.verifier(check)))
                        try sync.addHandler(HandshakeWatch(handshake))
                        try sync.addHandler(IdleTimeout(seconds: idle))
                        try sync.addHandler(ByteToMessageHandler(FrameDecoder()))
                        try sync.addHandler(FrameEncoder())
                        return try NIOAsyncChannel<Frame, Frame>(wrappingChannelSynchronously: channel)
                    }
                }
            if awaitingHandshake {
                do { try await handshake.futureResult.get() } catch {
                    try? await channel.channel.close()
                    throw error
                }
            }
            return channel
        } catch {
            handshake.fail(ChannelError.ioOnClosedChannel)
            throw NearbyError.connection("\(SendTarget(host: host, port: port, expected: nil).address): \(describe(error))")
        }
    }

    /// Connects to `target` and completes the TLS handshake, which must show `target`'s expected
    /// certificate; then closes without a word (the receiver takes a connection that ends before
    /// its first frame as nothing). Throws why it could not.
    static func probe(_ target: SendTarget, identity: DeviceIdentity, timeout: Double) async throws {
        guard let expected = target.expected else { throw NearbyError.connection("\(target.address): no certificate to probe for") }
        let check = PeerCheck(.pinned(expected))
        let channel = try await connect(host: target.host, port: target.port, identity: identity, check: check, timeout: timeout,
                                        idle: timeout, awaitingHandshake: true)
        try? await channel.executeThenClose { _, _ in }
    }

    /// What went wrong in words: the system's reason for a failed connect (NIO's error value
    /// lists every address tried, with its internals).
    static func describe(_ error: any Error) -> String {
        if let nearby = error as? NearbyError { return nearby.description }
        if let failed = error as? NIOConnectionError, let first = failed.connectionErrors.first {
            return describe(first.error)
        }
        if let io = error as? IOError {
            return Errno(rawValue: io.errnoCode).description.lowercased()
        }
        // NIO's and BoringSSL's own words ("I/O on closed channel", "uncleanShutdown") said what
        // they mean to a person.
        if let channel = error as? ChannelError {
            switch channel {
            case .connectTimeout: return "no answer (timed out)"
            case .ioOnClosedChannel, .alreadyClosed, .eof, .outputClosed, .inputClosed: return "the connection was closed"
            default: return "the connection failed (\(channel))"
            }
        }
        if let tls = error as? NIOSSLError {
            switch tls {
            case .uncleanShutdown: return "the other device closed the connection without ending it"
            case .handshakeFailed: return "the secure connection could not be set up (TLS handshake failed)"
            default: return "the secure connection failed (\(tls))"
            }
        }
        if error is CancellationError { return "stopped" }
        return "\(error)"
    }
}

/// Completes a promise when the TLS handshake completes, fails it when the connection ends or
/// fails first (a promise left pending is a leak NIO reports).
final class HandshakeWatch: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    let promise: EventLoopPromise<Void>

    init(_ promise: EventLoopPromise<Void>) { self.promise = promise }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case TLSUserEvent.handshakeCompleted = event { promise.succeed() }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        promise.fail(error)
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise.fail(ChannelError.ioOnClosedChannel)
        context.fireChannelInactive()
    }
}

/// Closes a connection that has been silent for too long (a stalled peer holds no session).
/// Silent means in both directions: a receiver asking its user writes ``SessionMessage/asking``
/// and reads nothing meanwhile. A sender's bulk writes cannot hide a stalled peer: they pass
/// this handler only while the socket drains (the async writer waits for writability).
///
/// While the person here decides about an ask that has no "still asking" message of its own
/// (LocalSend's `prepare-upload`, AirDrop's `/Ask`: the peer waits for the reply, nothing flows)
/// the count is held (``holding(_:_:)``): it closed LocalSend's question after 30 s, while the
/// sender was willing to wait 300.
final class IdleTimeout: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    typealias OutboundIn = NIOAny
    let seconds: Double
    var timer: Scheduled<Void>?
    var held = false

    /// Sent down the pipeline (`triggerUserOutboundEvent`) to hold the count, or to start it again.
    enum Hold: Sendable { case hold, resume }

    /// Runs `body` with `channel`'s idle count held.
    static func holding<T>(_ channel: any Channel, _ body: () async throws -> T) async rethrows -> T {
        try? await channel.triggerUserOutboundEvent(Hold.hold).get()
        defer { channel.triggerUserOutboundEvent(Hold.resume, promise: nil) }
        return try await body()
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard let hold = event as? Hold else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        held = hold == .hold
        if held { timer?.cancel() } else { arm(context) }
        promise?.succeed()
    }

    init(seconds: Double) { self.seconds = seconds }

    func handlerAdded(context: ChannelHandlerContext) { arm(context) }
    func handlerRemoved(context: ChannelHandlerContext) { timer?.cancel() }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        arm(context)
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        arm(context)
        context.write(data, promise: promise)
    }

    func arm(_ context: ChannelHandlerContext) {
        timer?.cancel()
        guard !held else { return }
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: .milliseconds(Int64(seconds * 1000))) {
            loopBound.value.close(promise: nil)
        }
    }
}
