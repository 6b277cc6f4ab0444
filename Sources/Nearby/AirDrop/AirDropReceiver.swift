import AppRegistry
import Crypto
import MulticastDNS
import NIOCore
import NIOHTTP1
import PropertyLists
import Synchronization
import SystemCalls
import UniformTypes

/// The receiving side of AirDrop's HTTP protocol, as OpenDrop (and above AWDL, Apple's devices)
/// speak it: `_airdrop._tcp` announced on one interface, an HTTPS server with `POST /Discover`,
/// `/Ask` (the receiver's ``AskPolicy``: the person, the limits) and `/Upload` (a gzip'd odc cpio
/// archive, chunked). The archive is read here (``GzipInflater``, ``CPIOReader``) and only file
/// bytes are kept: never an archive's path, link, device node or mode. Each regular file under a
/// name the Ask offered becomes an item, under a safe name, delivered as nearby items are (the
/// Ask's UTI, else its extension, to the app that takes it; the Ask's `BundleID` as the sending
/// app); anything else in the archive is read past and dropped.
final class AirDropReceiver: Sendable {
    let configuration: ReceiverConfiguration
    let settings: AirDropSettings
    let policy: AskPolicy
    let events: @Sendable (ReceiverEvent) -> Void
    let server: HTTPServer.Listener
    let connections: AcceptLoop<HTTPServer.Connection>
    /// The port the server listens on.
    let port: Int
    /// The service's random identifier (12 hex digits, as AirDrop's).
    let identifier: String
    /// Accepted asks waiting for their upload, by the asking address.
    let accepted = Mutex<[String: Accepted]>([:])

    /// An accepted ask.
    struct Accepted: Sendable {
        var ask: AirDropAsk
        var sender: Fingerprint
        var until: Double
    }

    /// Seconds an accepted ask waits for its upload.
    static let uploadWindow: Double = 120

    /// Binds the server (nothing is announced or served until ``run()``).
    init(configuration: ReceiverConfiguration, settings: AirDropSettings, identity: DeviceIdentity, policy: AskPolicy,
         events: @escaping @Sendable (ReceiverEvent) -> Void) async throws {
        (server, connections) = try await HTTPServer.bind(try Self.listeningAddress(on: settings.interface, port: settings.port),
                                                          tls: try TLSSetup.localSendContext(identity, server: true),
                                                          idle: configuration.idleTimeout, what: "AirDrop port", limits: configuration.connectionLimits)
        port = server.channel.localAddress?.port ?? settings.port
        self.configuration = configuration
        self.settings = settings
        self.policy = policy
        self.events = events
        identifier = String(Fingerprint.hex((0..<6).map { _ in UInt8.random(in: 0...255) }))
    }

    /// Where the server listens: the interface's IPv6 link-local address, the one announced (as
    /// on AWDL), else its first IPv6 address (loopback's `::1`, in tests); never every address,
    /// so that the port is not reached from the machine's other networks.
    static func listeningAddress(on interface: String, port: Int) throws -> NIOCore.SocketAddress {
        let found: NetworkInterface?
        do { found = try NetworkInterface.all().first { $0.name == interface } } catch {
            throw NearbyError.connection("AirDrop: the network interfaces could not be listed: \(error)")
        }
        guard let found else { throw NearbyError.connection("AirDrop: there is no network interface \(interface)") }
        let v6 = found.addresses.filter { $0.family == .v6 }
        guard let chosen = v6.first(where: \.isLinkLocal) ?? v6.first else {
            throw NearbyError.connection("AirDrop: \(interface) has no IPv6 address (AirDrop runs on a link-local IPv6 link)")
        }
        // As text with its interface (`fe80::1%awdl0`), which getaddrinfo turns into the scope.
        let host = SystemCalls.SocketAddress.text(of: chosen.address) + (chosen.isLinkLocal ? "%" + interface : "")
        do { return try NIOCore.SocketAddress.makeAddressResolvingHost(host, port: port) } catch {
            throw NearbyError.connection("AirDrop: \(host) is not an address to listen on: \(error)")
        }
    }

    var info: AirDropReceiverInfo { AirDropReceiverInfo(name: configuration.deviceName, model: settings.model) }

    /// Announces and serves until cancelled.
    func run() async throws {
        let instance = try ServiceInstance(name: identifier, type: "_airdrop._tcp", port: UInt16(port), txt: try TXTRecord(["flags": "136"]),
                                           hostLabel: "di-" + identifier)
        let responder = settings.announces ? try MulticastResponder(instances: [instance], interfaces: [settings.interface]) : nil
        defer { responder?.stop() }
        events(.listeningAirDrop(port: port, interface: settings.interface))
        try await connections.run(server) { connection in
            await HTTPServer.serve(connection, failed: { self.events(.failed("AirDrop from \($0)")) }) { head, parts, address, channel in
                try await self.respond(to: head, parts: &parts, from: address, channel: channel)
            }
        }
    }

    /// The most of a refused upload's body passed over before its refusal is sent; a longer body
    /// closes the connection after the reply instead.
    static let refusedBodyAllowance = 1 << 20

    /// `reply` to an upload refused before its body: the body is read and dropped first (up to
    /// ``refusedBodyAllowance``), so that the sender reads the refusal. Closed with bytes unread,
    /// the connection was reset, and a loaded machine's sender saw "closed the connection before
    /// its reply ended" instead of the 403.
    static func refusing(_ reply: HTTPServer.Reply, parts: inout HTTPServer.Parts) async throws -> HTTPServer.Reply {
        var reply = reply
        reply.close = try await !HTTPServer.discardBody(&parts, limit: refusedBodyAllowance)
        return reply
    }

    func respond(to head: HTTPRequestHead, parts: inout HTTPServer.Parts, from address: String, channel: any Channel) async throws -> HTTPServer.Reply {
        func plist(_ bytes: [UInt8]) -> HTTPServer.Reply { HTTPServer.Reply(status: .ok, body: bytes, contentType: "application/octet-stream") }
        switch (head.method, head.uri) {
        case (.POST, "/Discover"):
            guard let body = try await HTTPServer.body(&parts, limit: AirDropPlist.maximumBody) else { return .error(.payloadTooLarge, "too large", close: true) }
            _ = try AirDropPlist.dictionary(body, what: "a Discover")
            return plist(info.discoverReply)
        case (.POST, "/Ask"):
            guard let body = try await HTTPServer.body(&parts, limit: AirDropPlist.maximumBody) else { return .error(.payloadTooLarge, "too large", close: true) }
            let ask: AirDropAsk
            do { ask = try AirDropAsk.decode(body) } catch { return .failure(error) }
            return try await decide(ask, from: address, channel: channel) ?? plist(info.askReply)
        case (.POST, "/Upload"):
            guard head.headers["Content-Type"].first?.lowercased() == "application/x-cpio" else {
                return try await Self.refusing(.error(.notAcceptable, "an upload is application/x-cpio"), parts: &parts)
            }
            let now = Clock.monotonic()
            let waiting = accepted.withLock { accepted in accepted.removeValue(forKey: address).flatMap { $0.until > now ? $0 : nil } }
            guard let waiting else { return try await Self.refusing(.error(.forbidden, "no accepted Ask from this address"), parts: &parts) }
            return try await upload(waiting, from: address, parts: &parts)
        default:
            return .error(.notFound, "not found", close: true)
        }
    }

    /// Decides an Ask; `nil` when it is accepted (its upload is then awaited from `address`).
    func decide(_ ask: AirDropAsk, from address: String, channel: any Channel) async throws -> HTTPServer.Reply? {
        let sender = Fingerprint(bytes: Array(SHA256.hash(data: Array(("airdrop:" + (ask.senderID ?? address)).utf8))))!
        let registry = try? RegistryStore.forQuery(root: configuration.root)
        let chooser = Destination.chooser(root: configuration.root, registry: registry)
        let names = ask.files.map { ItemName.safe($0.name) }
        let types = zip(ask.files, names).map { file, name in Self.type(of: file, name: name, registry: registry) }
        let destinations = zip(types, names).map { type, name in
            Destination.choose(type: type, name: name, targetApp: nil, chooser: chooser, downloads: configuration.downloads)
        }
        let items = ask.files.indices.map { i in
            (names[i], types[i], Int64?.none, ask.files[i].isDirectory ? "a folder's files" : destinations[i].label)
        }
        let incoming = IncomingAsk(senderName: ask.senderName, senderApp: ask.bundleID ?? AirDropSettings.unnamedApp, fingerprint: sender,
                                   pairedName: nil, items: items)
        // Sizes come only with the archive: checked there, entry by entry.
        // The sender waits for the reply while the person decides (as for LocalSend's prepare-upload).
        let refusal = try await IdleTimeout.holding(channel) {
            try await policy.refusal(incoming, sizes: ask.files.map { _ in 0 }, names: ask.files.map(\.name), destinations: destinations,
                                     trusted: false, keys: ["fp:" + sender.hex, "ip:" + address], senderGone: { await closed(channel) })
        }
        if let refusal {
            events(.asked(incoming, accepted: false, reason: refusal.description))
            return .error(.forbidden, refusal.publicReason)
        }
        events(.asked(incoming, accepted: true, reason: nil))
        let now = Clock.monotonic()
        accepted.withLock { accepted in
            accepted = accepted.filter { $0.value.until > now }
            accepted[address] = Accepted(ask: ask, sender: sender, until: now + Self.uploadWindow)
        }
        return nil
    }

    /// A file's UTI: the name's extension's when that is a kind of the one the Ask gives (OpenDrop
    /// sends `public.content` for what its magic-number sniffing does not know, text among it);
    /// else the Ask's when this device knows it; else the extension's.
    static func type(of file: AirDropAsk.File, name: String, registry: TypeRegistry?) -> String {
        guard let registry else { return "public.data" }
        let byName = ReceivedItemType.identifier(name: name, registry: registry)
        guard let declared = file.type, let asked = UTType(declared, in: registry), !asked.isDynamic else { return byName }
        if let named = UTType(byName, in: registry), named.conforms(to: asked) { return byName }
        return asked.identifier
    }

    /// Reads the archive as it streams in, delivering each accepted file as its bytes end.
    func upload(_ waiting: Accepted, from address: String, parts: inout HTTPServer.Parts) async throws -> HTTPServer.Reply {
        let sink = try UploadSink(receiver: self, waiting: waiting)
        let started = Clock.monotonic()
        var received: Int64 = 0
        do {
            while let part = try await parts.next() {
                switch part {
                case .head: throw NearbyError.protocolViolation("a request inside an upload")
                case .body(let buffer):
                    received += Int64(buffer.readableBytes)
                    // The slowest average taken, as for every session here (a trickle holds nothing for long).
                    guard Clock.monotonic() - started <= configuration.sessionGrace + Double(received) / Double(max(1, configuration.minimumRate)) else {
                        throw NearbyError.timedOut("the upload is slower than the receiver's minimum rate")
                    }
                    try buffer.withUnsafeReadableBytes { try sink.feed($0) }
                case .end:
                    try sink.finish()
                    return HTTPServer.Reply(status: .ok)
                }
            }
            throw NearbyError.connection("the sender stopped in the middle of the upload")
        } catch {
            sink.abandon()
            events(.failed("AirDrop from \(address): \(error)"))
            return .failure(error)
        }
    }
}
