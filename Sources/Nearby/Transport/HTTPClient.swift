import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import SystemCalls

/// One HTTP request to a device of a foreign protocol (LocalSend, AirDrop's) and its reply: HTTPS
/// (the device's certificate recorded and judged by a ``PeerCheck``) or plain HTTP, one connection
/// per request, bodies from memory, streamed from a file with a `Content-Length`, or produced as
/// they go and sent chunked; replies bounded.
///
/// Hand-written over NIO's HTTP/1.1 codec rather than with an HTTP client package: the one the
/// machine carries (AsyncHTTPClient) verifies certificates against a CA, which LocalSend's
/// self-signed ones never pass, and cannot report the certificate it saw.
struct HTTPClient: Sendable {
    /// This device's identity (for TLS).
    let identity: DeviceIdentity
    /// Seconds to wait for the connection, and for each reply after the request.
    var timeout: Double = 10
    /// The TLS context for HTTPS requests, made once for many (a sweep's hundreds): otherwise
    /// each request makes its own, which costs milliseconds of CPU.
    var tls: NIOSSLContext?

    /// What a request sends.
    enum Body: Sendable {
        case none
        case json([UInt8])
        /// Bytes of a given type.
        case bytes([UInt8], contentType: String)
        /// Bytes of a given type made as they are sent (chunked): `produce` hands each piece to
        /// the function it is given.
        case stream(contentType: String, produce: @Sendable (_ emit: (ByteBuffer) async throws -> Void) async throws -> Void)
        /// `length` bytes of the file at `path`, from its start.
        case file(path: String, length: Int64)
    }

    /// A reply.
    struct Reply: Sendable {
        var status: Int
        var body: [UInt8]
    }

    /// The largest reply body read.
    static let maximumReply = 1 << 20

    /// Sends `method` `path` with `query` to `host`:`port`; `check` judges (and records) the
    /// server's certificate when `secure`. `progress` hears the body bytes written so far.
    func request(_ method: HTTPMethod, host: String, port: Int, secure: Bool, path: String, query: [(String, String)] = [],
                 body: Body = .none, check: PeerCheck, progress: @escaping @Sendable (Int64) -> Void = { _ in }) async throws -> Reply {
        // Once more when the connection closed before the request went out (nothing reached
        // the device, so nothing is asked twice): OpenDrop's one-at-a-time server was seen to
        // drop a connection made just after another, under load (2 sends of 20 in the lab).
        do {
            return try await attempt(method, host: host, port: port, secure: secure, path: path, query: query, body: body, check: check, progress: progress)
        } catch is NotSent {
            // A certificate the policy refused closes the connection in the handshake, which the
            // request's write may see first: that is the reason, and trying again would not help.
            if let seen = check.fingerprint, !check.accepts(seen) { throw NearbyError.pinMismatch(expected: check.policy.pin, got: seen) }
            try await Task.sleep(for: .milliseconds(200))
            do {
                return try await attempt(method, host: host, port: port, secure: secure, path: path, query: query, body: body, check: check,
                                         progress: progress)
            } catch is NotSent {
                throw NearbyError.connection("\(SendTarget(host: host, port: port, expected: nil).address) closed the connection before the request was sent")
            }
        }
    }

    /// The connection closed before the request's head was written.
    struct NotSent: Error {}

    func attempt(_ method: HTTPMethod, host: String, port: Int, secure: Bool, path: String, query: [(String, String)],
                 body: Body, check: PeerCheck, progress: @escaping @Sendable (Int64) -> Void) async throws -> Reply {
        let context = secure ? try tls ?? TLSSetup.localSendContext(identity, server: false) : nil
        let idle = timeout
        let channel: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.milliseconds(Int64(timeout * 1000)))
                .channelOption(.tcpOption(.tcp_nodelay), value: 1)
                .connect(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let sync = channel.pipeline.syncOperations
                        if let context {
                            try sync.addHandler(try NIOSSLClientHandler(context: context, serverHostname: nil,
                                                                        customVerificationCallback: TLSSetup.verifier(check)))
                        }
                        try sync.addHandler(IdleTimeout(seconds: idle))
                        try sync.addHTTPClientHandlers()
                        return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw NearbyError.connection("\(SendTarget(host: host, port: port, expected: nil).address): \(Connection.describe(error))")
        }
        let target = path + Self.query(query)
        let address = SendTarget(host: host, port: port, expected: nil).address
        do {
            return try await channel.executeThenClose { inbound, outbound in
                var head = HTTPRequestHead(version: .http1_1, method: method, uri: target)
                head.headers.add(name: "Host", value: host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)")
                head.headers.add(name: "Connection", value: "close")
                switch body {
                case .none: head.headers.add(name: "Content-Length", value: "0")
                case .json(let bytes):
                    head.headers.add(name: "Content-Type", value: "application/json")
                    head.headers.add(name: "Content-Length", value: String(bytes.count))
                case .bytes(let bytes, let type):
                    head.headers.add(name: "Content-Type", value: type)
                    head.headers.add(name: "Content-Length", value: String(bytes.count))
                case .file(_, let length):
                    head.headers.add(name: "Content-Type", value: "application/octet-stream")
                    head.headers.add(name: "Content-Length", value: String(length))
                case .stream(let type, _):
                    head.headers.add(name: "Content-Type", value: type)
                    head.headers.add(name: "Transfer-Encoding", value: "chunked")
                }
                do { try await outbound.write(.head(head)) } catch is ChannelError { throw NotSent() }
                switch body {
                case .none: break
                case .json(let bytes), .bytes(let bytes, _): try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: bytes))))
                case .file(let path, let length): try await Self.stream(path, length: length, to: outbound, progress: progress)
                case .stream(_, let produce):
                    var sent: Int64 = 0
                    do {
                        try await produce { buffer in
                            sent += Int64(buffer.readableBytes)
                            try await outbound.write(.body(.byteBuffer(buffer)))
                            progress(sent)
                        }
                    } catch let error as NearbyError { throw error } catch {
                        // A receiver that answers before reading the body's end (OpenDrop does)
                        // may close while the last bytes go: its reply still says what happened.
                        return try await Self.reply(from: inbound, address: address) ?? { throw error }()
                    }
                }
                try await outbound.write(.end(nil))
                guard let reply = try await Self.reply(from: inbound, address: address) else {
                    throw NearbyError.connection("\(address) closed the connection before its reply ended")
                }
                return reply
            }
        } catch let error where error is NIOSSLError || error is BoringSSLError {
            if let seen = check.fingerprint, !check.accepts(seen) { throw NearbyError.pinMismatch(expected: check.policy.pin, got: seen) }
            throw NearbyError.connection("\(address): TLS: \(error)")
        }
    }

    /// The reply, or `nil` when the connection ends before it does.
    static func reply(from inbound: NIOAsyncChannelInboundStream<HTTPClientResponsePart>, address: String) async throws -> Reply? {
        var status = 0
        var reply: [UInt8] = []
        for try await part in inbound {
            switch part {
            case .head(let head): status = Int(head.status.code)
            case .body(let buffer):
                guard reply.count + buffer.readableBytes <= maximumReply else {
                    throw NearbyError.protocolViolation("\(address) replied with more than \(maximumReply) bytes")
                }
                reply += buffer.readableBytesView
            case .end: return Reply(status: status, body: reply)
            }
        }
        return nil
    }

    /// Writes `length` bytes of `path` as body parts, reading no more than one part ahead.
    static func stream(_ path: String, length: Int64, to outbound: NIOAsyncChannelOutboundWriter<HTTPClientRequestPart>,
                       progress: @Sendable (Int64) -> Void) async throws {
        let file: OwnedDescriptor
        do { file = try OwnedDescriptor.open(path, .readOnly, options: [.noControllingTerminal]) } catch { throw NearbyError.system(error) }
        let allocator = ByteBufferAllocator()
        var position: Int64 = 0
        var lastReport: Int64 = 0
        while position < length {
            let want = Int(min(Int64(Frame.maximumData), length - position))
            var buffer = allocator.buffer(capacity: want)
            let n = try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: want) { bytes in
                do { return try file.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[..<want]), at: position) } catch let error as SystemCallError {
                    throw NearbyError.system(error)
                }
            }
            guard n > 0 else { throw NearbyError.connection("\(path) became shorter while it was sent") }
            try await outbound.write(.body(.byteBuffer(buffer)))
            position += Int64(n)
            if position - lastReport >= 4 << 20 || position == length {
                progress(position)
                lastReport = position
            }
        }
    }

    /// `?k=v&…`, percent-encoded, or nothing.
    static func query(_ pairs: [(String, String)]) -> String {
        guard !pairs.isEmpty else { return "" }
        return "?" + pairs.map { LocalSendQuery.escape($0.0) + "=" + LocalSendQuery.escape($0.1) }.joined(separator: "&")
    }
}
