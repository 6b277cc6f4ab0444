import Crypto
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import PropertyLists
import SystemCalls
import UniformTypes
import AppRegistry

/// The receiving side of LocalSend protocol v2, for LocalSend's apps on phones and desktops: an
/// HTTP(S) server on LocalSend's port with `info` (v1 and v2), `register`, `prepare-upload`,
/// `upload` (`Content-Length` or chunked bodies) and `cancel`, and the multicast announcements
/// (``LocalSendMulticast``). Asks go through the receiver's own ``AskPolicy`` (the prompt, the
/// limits, free space); accepted files go through the same spool and delivery as nearby items:
/// the MIME type through the type engine to a UTI and so to the app that takes it, the alias
/// naming the sender in the open request.
///
/// What LocalSend's own receivers do with hostile input, this does not: a name is display text
/// only (``ItemName``), a body longer than declared is cut off within one buffer and nothing of it
/// is kept, an upload needs its own file's token from the address that asked, and a `sha256`,
/// when sent, is checked.
final class LocalSendReceiver: Sendable {
    let configuration: ReceiverConfiguration
    let settings: LocalSendSettings
    let identity: DeviceIdentity
    let policy: AskPolicy
    let events: @Sendable (ReceiverEvent) -> Void
    /// Told of every device heard of: by its `register`, its announcement or its reply.
    let heard: @Sendable (LocalSendDevice, String) -> Void
    let server: HTTPServer.Listener
    let connections: AcceptLoop<HTTPServer.Connection>
    let sessions: LocalSendSessions
    /// Wrong PINs per address.
    let pins: PINAttempts
    /// The port the server listens on.
    let port: Int
    /// The fingerprint we give: our certificate's SHA-256 with HTTPS (as LocalSend defines it),
    /// else a random string for this run.
    let fingerprint: String

    /// Binds the server (nothing is served until ``run()``).
    init(configuration: ReceiverConfiguration, settings: LocalSendSettings, identity: DeviceIdentity, policy: AskPolicy,
         events: @escaping @Sendable (ReceiverEvent) -> Void, heard: @escaping @Sendable (LocalSendDevice, String) -> Void = { _, _ in }) async throws {
        let context = settings.secure ? try TLSSetup.localSendContext(identity, server: true) : nil
        (server, connections) = try await HTTPServer.bind(host: configuration.host, port: settings.port, tls: context,
                                                          idle: configuration.idleTimeout, what: "LocalSend port",
                                                          grace: settings.receivesFiles ? 0 : 2, limits: configuration.connectionLimits, holds: Self.isUpload)
        port = server.channel.localAddress?.port ?? settings.port
        self.configuration = configuration
        self.settings = settings
        self.identity = identity
        self.policy = policy
        self.events = events
        self.heard = heard
        sessions = LocalSendSessions(expiry: max(60, configuration.idleTimeout * 4))
        pins = PINAttempts(limit: settings.pinAttempts, lockout: settings.pinLockout)
        fingerprint = settings.secure ? identity.fingerprint.hex.uppercased() : Fingerprint.hex((0..<16).map { _ in UInt8.random(in: 0...255) })
    }

    /// How we describe ourselves; `announce` for a multicast announcement.
    func device(announce: Bool? = nil) -> LocalSendDevice {
        LocalSendDevice(alias: configuration.deviceName, deviceModel: "Linux", deviceType: settings.deviceType, fingerprint: fingerprint,
                        port: port, protocol: settings.secure ? "https" : "http", download: false, announce: announce)
    }

    /// Serves until cancelled.
    func run() async throws {
        events(.listeningLocalSend(port: port, secure: settings.secure))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.accept() }
            if settings.multicast {
                let first = try await LocalSendMulticast(receiver: self)
                group.addTask { await self.discover(starting: first) }
            }
            try await group.next()
            group.cancelAll()
        }
    }

    /// Seconds before multicast discovery starts again after it stopped.
    static let rediscoveryDelay: Double = 5

    /// Runs multicast discovery until cancelled, starting it again when it stops (NIO closes a
    /// datagram socket at a send error such as ENETUNREACH): the server goes on without it
    /// meanwhile, found by senders' announcements and LocalSend's subnet sweep. Never returns
    /// before it is cancelled, so it cannot end the receiver.
    func discover(starting first: LocalSendMulticast) async {
        var multicast: LocalSendMulticast? = first
        while !Task.isCancelled {
            if let running = multicast {
                do { try await running.run() } catch {
                    if Task.isCancelled { return }
                    events(.warning("LocalSend discovery stopped (\(Connection.describe(error))); starting it again in \(Int(Self.rediscoveryDelay)) s"))
                }
            }
            guard (try? await Task.sleep(for: .seconds(Self.rediscoveryDelay))) != nil else { return }
            do { multicast = try await LocalSendMulticast(receiver: self) } catch {
                multicast = nil
                events(.warning("LocalSend discovery could not start again: \(error)"))
            }
        }
    }

    func accept() async throws {
        try await connections.run(server) { await self.serve($0) }
    }

    typealias Reply = HTTPServer.Reply

    func serve(_ connection: HTTPServer.Connection) async {
        await HTTPServer.serve(connection, failed: { self.events(.failed("LocalSend from \($0)")) }) { head, parts, address, channel in
            try await self.respond(to: head, parts: &parts, from: address, channel: channel)
        }
    }

    /// The reply to one request; its body is read here (to its end, unless the reply closes).
    func respond(to head: HTTPRequestHead, parts: inout HTTPServer.Parts,
                 from address: String, channel: any Channel) async throws -> Reply {
        guard let target = LocalSendQuery(head.uri) else {
            return .error(.badRequest, "the request target is not valid", close: true)
        }
        switch (head.method, target.path) {
        case (.GET, "/api/localsend/v1/info"), (.GET, "/api/localsend/v2/info"):
            // Read and ignored: some senders send `{}` even with GET (the PyPI package does).
            guard try await HTTPServer.body(&parts, limit: 1 << 16) != nil else { return .error(.payloadTooLarge, "the body is too large", close: true) }
            return .json(device().json)
        case (.POST, "/api/localsend/v2/register"), (.POST, "/api/localsend/v1/register"):
            guard let body = try await HTTPServer.body(&parts, limit: LocalSendJSON.maximumBody) else {
                return .error(.payloadTooLarge, "the body is too large", close: true)
            }
            heard(try LocalSendDevice.decode(body), address)
            // A discovery ends soon: its connections close after the reply, not at its end.
            var reply = Reply.json(device().json)
            reply.close = !settings.receivesFiles
            return reply
        case (.POST, "/api/localsend/v2/prepare-upload") where !settings.receivesFiles:
            _ = try await HTTPServer.body(&parts, limit: LocalSendJSON.maximumBody)
            return .error(.forbidden, "this device is not receiving")
        case (.POST, "/api/localsend/v2/prepare-upload"):
            // The PIN before the body: a guess's body is passed over, never held (it was buffered
            // whole, up to 4 MiB, before the PIN was looked at).
            if let pin = settings.pin, var refusal = pinRefusal(given: target["pin"], expected: pin, from: address) {
                refusal.close = try await !HTTPServer.discardBody(&parts, limit: LocalSendJSON.maximumBody)
                return refusal
            }
            guard let body = try await HTTPServer.body(&parts, limit: LocalSendJSON.maximumBody) else {
                return .error(.payloadTooLarge, "the body is too large", close: true)
            }
            let request: LocalSendPrepareUpload
            do { request = try LocalSendPrepareUpload.decode(body) } catch { return .failure(error) }
            return try await prepare(request, from: address, channel: channel)
        case (.POST, "/api/localsend/v2/upload"):
            guard let sessionId = target["sessionId"], let fileId = target["fileId"], let token = target["token"] else {
                return .error(.badRequest, "missing parameters", close: true)
            }
            return try await upload(sessionId: sessionId, fileId: fileId, token: token, from: address, channel: channel)
        case (.POST, "/api/localsend/v2/cancel"):
            guard try await HTTPServer.body(&parts, limit: 1 << 16) != nil else { return .error(.payloadTooLarge, "the body is too large", close: true) }
            _ = sessions.cancel(sessionId: target["sessionId"], address: address)
            return Reply(status: .ok)
        default:
            return .error(.notFound, "not found", close: true)
        }
    }

    /// The reply refusing a `prepare-upload` for its PIN (``PINAttempts``), or `nil` when the PIN is right.
    func pinRefusal(given: String?, expected: String, from address: String) -> Reply? {
        switch pins.judge(given, expected: expected, address: address, now: Clock.monotonic()) {
        case .right:
            return nil
        case .wrong:
            return .error(.unauthorized, "PIN required")
        case .wrongAndLocked(let seconds):
            // The person at the receiver learns that someone is guessing, and from where.
            events(.warning("\(address) gave \(settings.pinAttempts) wrong LocalSend PINs: refused for \(Int(seconds)) s"))
            return .error(.unauthorized, "PIN required")
        case .locked(let seconds):
            return .error(.tooManyRequests, "too many wrong PINs; try again in \(Int(seconds.rounded(.up))) s")
        }
    }

    /// Decides a `prepare-upload`: one session at a time, the policy (and the person), then a token per file.
    func prepare(_ request: LocalSendPrepareUpload, from address: String, channel: any Channel) async throws -> Reply {
        guard sessions.reserve(now: Clock.monotonic()) else { return .error(.conflict, "blocked by another session") }
        var reserved = true
        defer { if reserved { sessions.release() } }
        let sender = Self.senderFingerprint(request.info.fingerprint)
        let registry = try? RegistryStore.forQuery(root: configuration.root)
        let chooser = Destination.chooser(root: configuration.root, registry: registry)
        // In a stable order: the spool's item numbers follow it.
        let offers = request.files.values.sorted { $0.id < $1.id }
        let names = offers.map { ItemName.safe($0.fileName) }
        let types = zip(offers, names).map { offer, name in ReceivedItemType.identifier(mimeType: offer.fileType, name: name, registry: registry) }
        let destinations = offers.indices.map { i in
            Destination.choose(type: types[i], name: names[i], targetApp: nil, chooser: chooser, downloads: configuration.downloads)
        }
        let senderName = request.info.alias
        let ask = IncomingAsk(senderName: senderName, senderApp: LocalSendSettings.senderApp, fingerprint: sender, pairedName: nil,
                              items: offers.indices.map { (names[$0], types[$0], offers[$0].size, destinations[$0].label) })
        // The sender waits for the reply while the person decides: no idle count meanwhile, and
        // the question is withdrawn when the sender gives up.
        let refusal = try await IdleTimeout.holding(channel) {
            try await policy.refusal(ask, sizes: offers.map(\.size), names: offers.map(\.fileName), destinations: destinations, trusted: false,
                                     keys: ["fp:" + sender.hex, "ip:" + address], senderGone: { await closed(channel) })
        }
        if let refusal {
            events(.asked(ask, accepted: false, reason: refusal.description))
            return .error(.forbidden, refusal.publicReason)
        }
        let total = offers.reduce(Int64(0)) { $0 &+ $1.size }
        var files: [String: LocalSendSessions.File] = [:]
        for (index, offer) in offers.enumerated() {
            files[offer.id] = .init(index: index, token: Self.randomHex(16), size: offer.size, name: names[index], type: types[index],
                                    destination: destinations[index], sha256: offer.sha256.flatMap(LocalSendPrepareUpload.digest), state: .waiting)
        }
        let id = Self.randomHex(16)
        let now = Clock.monotonic()
        let spool = Spool(base: NearbyFolder(root: configuration.root).spool, sender: sender, transfer: (0..<16).map { _ in UInt8.random(in: 0...255) })
        let annotation: PropertyList = .dictionary(["Nearby": .dictionary([
            "Fingerprint": .string(request.info.fingerprint), "Protocol": .string("LocalSend"), "SenderName": .string(senderName),
        ])])
        sessions.start(.init(id: id, address: address, senderName: senderName, spool: spool, annotation: annotation, files: files,
                             lastRequest: now, deadline: now + configuration.sessionGrace + Double(total) / Double(max(1, configuration.minimumRate))))
        reserved = false
        events(.asked(ask, accepted: true, reason: nil))
        return .json(LocalSendJSON.encode(LocalSendPrepared(sessionId: id, files: files.mapValues(\.token))))
    }

    /// Receives one file's body into the spool (taken on the connection's event loop), checks it,
    /// delivers it.
    func upload(sessionId: String, fileId: String, token: String, from address: String, channel: any Channel) async throws -> Reply {
        let ticket: LocalSendSessions.Ticket
        switch sessions.begin(sessionId: sessionId, fileId: fileId, token: token, address: address, now: Clock.monotonic()) {
        case .success(let t): ticket = t
        case .failure(let refusal): return .error(HTTPResponseStatus(statusCode: refusal.status), refusal.reason, close: true)
        }
        var delivered = false
        defer { sessions.finish(ticket, delivered: delivered, now: Clock.monotonic()) }
        let file = ticket.file
        let upload = LocalSendUpload(sessions: sessions, ticket: ticket,
                                     writer: try ItemWriter(spool: ticket.spool, index: file.index, size: file.size, from: 0))
        do {
            try await HTTPServer.takeBody(of: channel) { try upload.take(&$0) }
        } catch {
            if let refusal = upload.refusal {
                if refusal.status == .badRequest { events(.failed("LocalSend from \(address): \(file.name): \(error)")) }
                return refusal
            }
            guard case NearbyError.connection = error else { throw error }
            throw NearbyError.connection("the sender stopped after \(upload.writer.position) of \(file.size) bytes of \(file.name)")
        }
        let complete: String
        do {
            try upload.flush()
            complete = try upload.writer.complete(name: file.name, expected: file.sha256)
        } catch {
            events(.failed("LocalSend from \(address): \(file.name): \(error)"))
            return .failure(error)
        }
        let path = try ticket.spool.deliver(file.index, file: complete, type: file.type, to: file.destination, root: configuration.root,
                                            senderApp: LocalSendSettings.senderApp, annotation: ticket.annotation,
                                            launch: configuration.launchApps)
        delivered = true
        events(.delivered(name: file.name, destination: file.destination.label, path: path, bytes: file.size, resumedFrom: 0))
        return Reply(status: .ok)
    }

    /// The requests whose bodies are taken on the event loop (``LocalSendUpload``).
    static let isUpload: @Sendable (HTTPRequestHead) -> Bool = { head in
        head.method == .POST && head.uri.hasPrefix("/api/localsend/v2/upload")
    }

    /// The fingerprint a sender claims, as one (LocalSend's HTTPS fingerprint is a SHA-256 in
    /// hex); any other string stands for the SHA-256 of itself.
    static func senderFingerprint(_ claimed: String) -> Fingerprint {
        if claimed.utf8.count == 64, let fingerprint = Fingerprint(hex: claimed) { return fingerprint }
        return Fingerprint(bytes: Array(SHA256.hash(data: Array(claimed.utf8))))!
    }

    static func randomHex(_ count: Int) -> String { Fingerprint.hex((0..<count).map { _ in UInt8.random(in: 0...255) }) }
}
