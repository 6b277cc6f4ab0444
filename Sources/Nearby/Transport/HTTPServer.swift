import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// The HTTP/1.1 server under the foreign protocols nearby speaks (LocalSend, AirDrop's): NIO's
/// codec behind TLS (or none), an idle timeout, connections adopted by an ``AcceptLoop``, and one
/// request after another per connection, each answered by a ``Reply``.
enum HTTPServer {
    /// A served connection.
    typealias Connection = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>
    /// The listening socket.
    typealias Listener = NIOAsyncChannel<Connection, Never>
    /// A request's parts as they come.
    typealias Parts = NIOAsyncChannelInboundStream<HTTPServerRequestPart>.AsyncIterator

    /// A reply.
    struct Reply {
        var status: HTTPResponseStatus
        var body: [UInt8] = []
        var contentType = "application/json"
        /// Close the connection after it (the request's body was not read to its end).
        var close = false

        static func json(_ bytes: [UInt8]) -> Reply { Reply(status: .ok, body: bytes) }
        static func error(_ status: HTTPResponseStatus, _ message: String, close: Bool = false) -> Reply {
            Reply(status: status, body: LocalSendJSON.encode(["message": message]), close: close)
        }

        /// The reply to a request that failed with `error`: the peer's own mistake is a 400 that
        /// says what it was, the receiver's failure a 500 that says only its kind
        /// (``NearbyError/publicReason``): the peer may be anyone, and local paths stay here.
        static func failure(_ error: any Error) -> Reply {
            if let mistake = error as? PeerMistake { return .error(.badRequest, "protocol: \(mistake)", close: true) }
            let nearby = error as? NearbyError
            let status: HTTPResponseStatus = switch nearby {
            case .protocolViolation?, .declined?, .timedOut?: .badRequest
            default: .internalServerError
            }
            return .error(status, nearby?.publicReason ?? "the receiving device failed", close: true)
        }
    }

    /// Binds `host`:`port` (`what` names it in an error).
    /// `grace`: ``AcceptLoop/grace``. `holds`: the requests whose bodies wait for
    /// ``takeBody(of:into:)`` (``HeldBodyHandler``).
    static func bind(host: String, port: Int, tls: NIOSSLContext?, idle: Double, what: String, grace: Double = 0,
                     limits: ConnectionLimits = ConnectionLimits(),
                     holds: @escaping @Sendable (HTTPRequestHead) -> Bool = { _ in false }) async throws -> (Listener, AcceptLoop<Connection>) {
        let address: SocketAddress
        do { address = try SocketAddress.makeAddressResolvingHost(host, port: port) } catch {
            throw NearbyError.connection("\(what) \(port): \(host) is not an address: \(error)")
        }
        return try await bind(address, tls: tls, idle: idle, what: what, grace: grace, limits: limits, holds: holds)
    }

    /// Binds `address` (an IPv6 link-local one with its interface), as ``bind(host:port:tls:idle:what:grace:holds:)``.
    static func bind(_ address: SocketAddress, tls: NIOSSLContext?, idle: Double, what: String, grace: Double = 0,
                     limits: ConnectionLimits = ConnectionLimits(),
                     holds: @escaping @Sendable (HTTPRequestHead) -> Bool = { _ in false }) async throws -> (Listener, AcceptLoop<Connection>) {
        let port = address.port ?? 0
        let caps = ConnectionCaps(limits)
        let connections = AcceptLoop<Connection>(channel: { $0.channel }, grace: grace) { try? await $0.executeThenClose { _, _ in } }
        do {
            let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.backlog, value: 64)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
                .bind(to: address) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let sync = channel.pipeline.syncOperations
                        try sync.addHandler(caps.handler(for: channel))
                        if let tls { try sync.addHandler(NIOSSLServerHandler(context: tls)) }
                        try sync.addHandler(IdleTimeout(seconds: idle))
                        try sync.configureHTTPServerPipeline(withPipeliningAssistance: true, withErrorHandling: true)
                        try sync.addHandler(HeldBodyHandler(holds: holds))
                        return connections.adopt(try Connection(wrappingChannelSynchronously: channel))
                    }
                }
            return (server, connections)
        } catch {
            throw NearbyError.connection("\(what) \(port): \(Nearby.Connection.describe(error))")
        }
    }

    /// Answers the connection's requests one after another with `respond` (which reads each
    /// request's body, or takes it with ``takeBody(of:into:)`` from the channel it is given);
    /// `failed` hears what went wrong, with the peer's address first.
    static func serve(_ connection: Connection, failed: @escaping @Sendable (String) -> Void,
                      respond: @escaping (HTTPRequestHead, inout Parts, String, any Channel) async throws -> Reply) async {
        let address = connection.channel.remoteAddress?.ipAddress ?? ""
        try? await connection.executeThenClose { inbound, outbound in
            var parts = inbound.makeAsyncIterator()
            while let part = try await parts.next() {
                guard case .head(let head) = part else { continue }
                let reply: Reply
                do { reply = try await respond(head, &parts, address, connection.channel) } catch {
                    failed("\(address): \(error)")
                    reply = .failure(error)
                }
                let close = reply.close || !head.isKeepAlive
                var response = HTTPResponseHead(version: head.version, status: reply.status)
                response.headers.add(name: "Content-Length", value: String(reply.body.count))
                if !reply.body.isEmpty { response.headers.add(name: "Content-Type", value: reply.contentType) }
                if close { response.headers.add(name: "Connection", value: "close") }
                // Written even when the receiver is stopping: a person's "no" (or the receiver
                // stopping) reaches the sender as a reply, not as a closed connection.
                let written = response, body = reply.body
                try await uncancelled {
                    try await outbound.write(.head(written))
                    if !body.isEmpty { try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body)))) }
                    try await outbound.write(.end(nil))
                }
                if close || Task.isCancelled { return }
            }
        }
    }

    /// Reads the request's body to its end without keeping it (a reply decided before the body, such
    /// as a wrong PIN's, still lets the sender read it: a connection closed with bytes unread is
    /// reset, and the reset can throw the reply away); `false` when it holds more than `limit`
    /// bytes (the connection is then closed after the reply).
    static func discardBody(_ parts: inout Parts, limit: Int) async throws -> Bool {
        var count = 0
        while let part = try await parts.next() {
            switch part {
            case .head: throw NearbyError.protocolViolation("a request inside a request")
            case .body(let buffer):
                count += buffer.readableBytes
                if count > limit { return false }
            case .end: return true
            }
        }
        throw NearbyError.connection("the sender closed the connection in the middle of a request")
    }

    /// The request's body, read to its end; `nil` when it holds more than `limit` bytes (the rest
    /// is not read: the reply closes the connection).
    static func body(_ parts: inout Parts, limit: Int) async throws -> [UInt8]? {
        var bytes: [UInt8] = []
        while let part = try await parts.next() {
            switch part {
            case .head: throw NearbyError.protocolViolation("a request inside a request")
            case .body(let buffer):
                guard bytes.count + buffer.readableBytes <= limit else { return nil }
                bytes += buffer.readableBytesView
            case .end: return bytes
            }
        }
        throw NearbyError.connection("the sender closed the connection in the middle of a request")
    }
}
