import AppRegistry
import MulticastDNS
import NIOCore
import SystemCalls
import UniformTypes

/// An AirDrop receiver found on an interface: its name (from `Discover`) and where it listens.
public struct AirDropFound: Sendable, Equatable {
    /// `ReceiverComputerName`.
    public var name: String
    /// Its address (a link-local IPv6 address carries its interface: `fe80::1%awdl0`).
    public var host: String
    /// Its HTTPS port.
    public var port: Int
    /// Its service identifier (the instance name).
    public var identifier: String
    /// The certificate its `Discover` answer came with: the send's later connections must show
    /// it again. AirDrop pins nothing between sends (a receiver's certificate is self-signed and
    /// new to every sender), so this binds one send together, no more.
    public var certificate: Fingerprint?

    /// A receiver at `host`:`port`.
    public init(name: String, host: String, port: Int, identifier: String, certificate: Fingerprint? = nil) {
        self.name = name
        self.host = host
        self.port = port
        self.identifier = identifier
        self.certificate = certificate
    }
}

/// Sends items to an AirDrop receiver the way OpenDrop does (HTTPS, `Discover`, `Ask`, then the
/// files in one gzip'd odc cpio archive, `Upload`ed chunked), so that an OpenDrop receiver takes
/// them. Apple's own devices are out of reach: they need AWDL, BLE adverts and Apple-signed records.
public struct AirDropSender: Sendable {
    /// This device's root (its identity).
    public var root: DeviceRoot
    /// `SenderComputerName`.
    public var deviceName: String
    /// The sending app (`BundleID`).
    public var senderApp = "org.document-interchange.nearby"
    /// Seconds to wait for a connection and each reply.
    public var timeout: Double = 10
    /// Seconds to wait for the person to answer the Ask.
    public var answerPatience: Double = 300

    /// A sender on `root`.
    public init(root: DeviceRoot, deviceName: String) {
        self.root = root
        self.deviceName = deviceName
    }

    /// The receivers announcing `_airdrop._tcp` on `interface` that answer `Discover` with a name,
    /// within `timeout` seconds, or sooner the first called `name`.
    public func find(name: String? = nil, interface: String, timeout: Double = 5) async throws -> [AirDropFound] {
        let browser = try MulticastBrowser(type: "_airdrop._tcp", interfaces: [interface])
        defer { browser.stop() }
        let client = try self.client()
        let deadline = Clock.monotonic() + timeout
        var found: [AirDropFound] = []
        var asked = Set<String>()
        // Polled: the browser's list holds each instance resolved (port and addresses) once seen.
        while Clock.monotonic() < deadline {
            for service in browser.services where !asked.contains(service.name) {
                guard let address = service.addresses.first(where: { $0.bytes.count == 16 }) ?? service.addresses.first else { continue }
                asked.insert(service.name)
                var host = address.description
                if host.hasPrefix("fe80") { host += "%" + interface }
                let port = Int(service.port)
                let check = PeerCheck(.anyoneRecorded)
                guard let reply = try? await client.request(.POST, host: host, port: port, secure: true, path: "/Discover",
                                                            body: .bytes(AirDropPlist.empty, contentType: "application/octet-stream"),
                                                            check: check),
                      reply.status == 200, let info = try? AirDropReceiverInfo.decode(reply.body) else { continue }
                let receiver = AirDropFound(name: info.name, host: host, port: port, identifier: service.name, certificate: check.fingerprint)
                found.append(receiver)
                if receiver.name == name { return found }
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return found
    }

    func client() throws -> HTTPClient {
        var client = HTTPClient(identity: try DeviceIdentity.loadOrCreate(in: NearbyFolder(root: root)))
        client.timeout = timeout
        return client
    }

    /// Asks `receiver` to take `items`, then uploads them in one archive; every item counts as
    /// delivered when the upload is answered 200 (AirDrop says no more). The `Ask` must show the
    /// certificate `Discover` showed (when the receiver was found), and the `Upload` the one the
    /// `Ask` showed: a device in the middle of a later connection gets no name, PIN or byte of it.
    public func send(_ items: [OutgoingItem], to receiver: AirDropFound,
                     progress: @escaping @Sendable (SendProgress) -> Void = { _ in }) async throws -> SendReport {
        do { return try await pinnedSend(items, to: receiver, progress: progress) } catch NearbyError.pinMismatch(let first?, let got) {
            throw NearbyError.certificateChangedDuringSend(device: "the AirDrop receiver at \(receiver.host):\(receiver.port)", first: first, got: got)
        }
    }

    func pinnedSend(_ items: [OutgoingItem], to receiver: AirDropFound,
                    progress: @escaping @Sendable (SendProgress) -> Void) async throws -> SendReport {
        var asking = try client()
        asking.timeout = answerPatience
        let check = PeerCheck(receiver.certificate.map { .pinned($0) } ?? .anyoneRecorded)
        let ask = AirDropAsk(senderName: deviceName, senderModel: "nearby", senderID: Fingerprint.hex((0..<6).map { _ in UInt8.random(in: 0...255) }),
                             bundleID: senderApp, files: items.map { AirDropAsk.File(name: $0.name, type: $0.type) })
        progress(.waiting)
        let answer = try await asking.request(.POST, host: receiver.host, port: receiver.port, secure: true, path: "/Ask",
                                              body: .bytes(ask.encoded(), contentType: "application/octet-stream"), check: check)
        guard let seen = check.fingerprint else { throw NearbyError.connection("no certificate from \(receiver.host):\(receiver.port)") }
        progress(.connected(seen))
        guard answer.status == 200 else { throw NearbyError.declined("AirDrop receiver '\(ItemName.safe(receiver.name))' declined (\(answer.status))") }
        progress(.answered(accepted: true, held: items.map { _ in 0 }))
        let upload = try await self.client().request(.POST, host: receiver.host, port: receiver.port, secure: true, path: "/Upload",
                                                     body: .stream(contentType: "application/x-cpio") { emit in try await Self.archive(items, emit) },
                                                     check: PeerCheck(.pinned(seen))) { sent in
            progress(.bytes(item: 0, sent: sent, of: items.reduce(0) { $0 + $1.size }))
        }
        guard upload.status == 200 else { throw NearbyError.declined("AirDrop receiver '\(ItemName.safe(receiver.name))' refused the upload (\(upload.status))") }
        for index in items.indices { progress(.delivered(item: index, destination: receiver.name)) }
        return SendReport(destinations: items.map { _ in receiver.name }, bytesSent: items.reduce(0) { $0 + $1.size }, bytesResumed: 0)
    }

    /// The items as one gzip'd odc cpio archive, made as it is sent (never whole in memory, as
    /// OpenDrop builds its own).
    static func archive(_ items: [OutgoingItem], _ emit: (ByteBuffer) async throws -> Void) async throws {
        let deflater = try GzipDeflater()
        var writer = CPIOWriter()
        var pending: [[UInt8]] = []
        func gather(_ bytes: [UInt8]) throws { try bytes.withUnsafeBytes { try deflater.feed($0) { pending.append($0) } } }
        func flush() async throws {
            for piece in pending { try await emit(ByteBuffer(bytes: piece)) }
            pending.removeAll()
        }
        var buffer = [UInt8](repeating: 0, count: Frame.maximumData)
        for item in items {
            try gather(writer.header(name: ItemName.safe(item.name), size: item.size))
            let file: OwnedDescriptor
            do { file = try OwnedDescriptor.open(item.path, .readOnly, options: [.noControllingTerminal]) } catch { throw NearbyError.system(error) }
            var position: Int64 = 0
            while position < item.size {
                let want = Int(min(Int64(buffer.count), item.size - position))
                let n = try buffer.withUnsafeMutableBytes { bytes in
                    do { return try file.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[..<want]), at: position) } catch let error as SystemCallError {
                        throw NearbyError.system(error)
                    }
                }
                guard n > 0 else { throw NearbyError.connection("\(item.path) became shorter while it was sent") }
                try buffer.withUnsafeBytes { try deflater.feed(UnsafeRawBufferPointer(rebasing: $0[..<n])) { pending.append($0) } }
                position += Int64(n)
                try await flush()
            }
        }
        try gather(CPIOWriter.trailer)
        try deflater.finish { pending.append($0) }
        try await flush()
    }
}
