import AppRegistry
import Crypto
import NIOHTTP1
import SystemCalls
import UniformTypes

/// Where a LocalSend device listens.
public struct LocalSendTarget: Sendable, Equatable {
    /// Its address.
    public var host: String
    /// Its server's port (LocalSend's 53317 unless it says otherwise).
    public var port: Int
    /// HTTPS (LocalSend's default) or plain HTTP.
    public var secure: Bool

    /// A target.
    public init(host: String, port: Int = 53317, secure: Bool = true) {
        self.host = host
        self.port = port
        self.secure = secure
    }

    /// `HOST:PORT` (IPv6 in brackets).
    public var address: String { SendTarget(host: host, port: port, expected: nil).address }
}

/// Sends items to a LocalSend device (protocol v2): asks for its `info`, checks the certificate it
/// presents against the one remembered for it (``LocalSendPeers``; LocalSend itself pins nothing),
/// `prepare-upload` with each item's MIME type and SHA-256, then one `upload` per item with a
/// `Content-Length` body. A failure after the session began cancels it.
public struct LocalSendSender: Sendable {
    /// This device's root (identity, remembered LocalSend devices).
    public var root: DeviceRoot
    /// The alias this device gives.
    public var deviceName: String
    /// The PIN the receiver asks for, if it does.
    public var pin: String?
    /// Accept a certificate that differs from the one remembered for the device (reinstalled).
    public var acceptNewCertificate = false
    /// Seconds to wait for a connection and for each reply (and between body bytes).
    public var timeout: Double = 10
    /// Seconds to wait for `prepare-upload`'s answer, which waits for the person there.
    public var answerPatience: Double = 300

    /// A sender on `root`.
    public init(root: DeviceRoot, deviceName: String) {
        self.root = root
        self.deviceName = deviceName
    }

    /// Sends `items` to `target`; the report names the device for each item it took. Over HTTPS,
    /// a connection after the first that shows another certificate ends the send with
    /// ``NearbyError/certificateChangedDuringSend(device:first:got:)`` before its request.
    public func send(_ items: [OutgoingItem], to target: LocalSendTarget,
                     progress: @escaping @Sendable (SendProgress) -> Void = { _ in }) async throws -> SendReport {
        do { return try await pinnedSend(items, to: target, progress: progress) } catch NearbyError.pinMismatch(let first?, let got) {
            throw NearbyError.certificateChangedDuringSend(device: "the LocalSend device at \(target.address)", first: first, got: got)
        }
    }

    func pinnedSend(_ items: [OutgoingItem], to target: LocalSendTarget,
                    progress: @escaping @Sendable (SendProgress) -> Void) async throws -> SendReport {
        let folder = NearbyFolder(root: root)
        let identity = try DeviceIdentity.loadOrCreate(in: folder)
        var client = HTTPClient(identity: identity)
        client.timeout = timeout
        // The first connection takes any certificate and records it; it is judged against the
        // remembered devices below, and every later connection of this send is pinned to it.
        let first = PeerCheck(.anyoneRecorded)
        var reply = try await client.request(.GET, host: target.host, port: target.port, secure: target.secure, path: "/api/localsend/v2/info", check: first)
        if reply.status == 404 {
            reply = try await client.request(.GET, host: target.host, port: target.port, secure: target.secure, path: "/api/localsend/v1/info", check: first)
        }
        guard reply.status == 200 else { throw NearbyError.protocolViolation("\(target.address) answered info with \(reply.status)") }
        let device = try LocalSendDevice.decode(reply.body)
        let name = "LocalSend device '\(ItemName.safe(device.alias))' at \(target.address)"
        var check = PeerCheck(.anyoneRecorded)
        if target.secure {
            guard let seen = first.fingerprint else { throw NearbyError.connection("no certificate from \(target.address)") }
            // LocalSend's fingerprint is its certificate's SHA-256: a device that names another is not what it says.
            guard Fingerprint(hex: device.fingerprint) == seen else {
                throw NearbyError.protocolViolation("\(name) names the fingerprint \(device.fingerprint.prefix(16))… but presents \(seen.hex.prefix(16))…")
            }
            var peers = try LocalSendPeers.load(from: folder)
            if let before = peers.conflict(alias: device.alias, address: target.address, seen: seen), !acceptNewCertificate {
                throw NearbyError.certificateChanged(device: name, remembered: before.fingerprint, got: seen)
            }
            peers.remember(.init(alias: device.alias, fingerprint: seen, address: target.address))
            try peers.save(to: folder)
            progress(.connected(seen))
            check = PeerCheck(.pinned(seen))
        }
        let registry = try? RegistryStore.forQuery(root: root)
        var files: [String: LocalSendPrepareUpload.File] = [:]
        var ids: [String] = []
        for item in items {
            let id = LocalSendReceiver.randomHex(16)
            ids.append(id)
            let mime = registry.flatMap { UTType(item.type, in: $0)?.preferredMIMEType } ?? "application/octet-stream"
            files[id] = .init(id: id, fileName: item.name, size: item.size, fileType: mime, sha256: try Self.sha256(of: item))
        }
        let me = LocalSendDevice(alias: deviceName, deviceModel: "Linux", deviceType: "desktop",
                                 fingerprint: identity.fingerprint.hex.uppercased(), port: 53317, protocol: "https", download: false)
        var asking = client
        asking.timeout = answerPatience
        progress(.waiting)
        let prepared = try await asking.request(.POST, host: target.host, port: target.port, secure: target.secure, path: "/api/localsend/v2/prepare-upload",
                                                query: pin.map { [("pin", $0)] } ?? [], body: .json(LocalSendJSON.encode(LocalSendPrepareUpload(info: me, files: files))),
                                                check: check)
        var report = SendReport(destinations: Array(repeating: nil, count: items.count), bytesSent: 0, bytesResumed: 0)
        switch prepared.status {
        case 200: break
        case 204:
            // "Finished, no file transfer needed": the device holds them already.
            progress(.answered(accepted: true, held: items.map(\.size)))
            report.destinations = items.map { _ in device.alias }
            return report
        case 401: throw NearbyError.declined("\(name) wants a PIN" + (pin == nil ? " (--localsend-pin)" : ", and not this one"))
        case 403: throw NearbyError.declined("\(name) refused" + (Self.message(prepared.body).map { ": \($0)" } ?? ""))
        case 409: throw NearbyError.declined("\(name) is busy with another session")
        case 429: throw NearbyError.declined("\(name) refuses this device for a while after wrong PINs" + (Self.message(prepared.body).map { ": \($0)" } ?? ""))
        default: throw NearbyError.protocolViolation("\(name) answered prepare-upload with \(prepared.status)")
        }
        let session = try LocalSendJSON.decode(LocalSendPrepared.self, from: prepared.body, what: "a prepare-upload reply")
        progress(.answered(accepted: true, held: items.map { _ in 0 }))
        do {
            for (index, item) in items.enumerated() {
                // A file the device did not take gets no token: not delivered.
                guard let token = session.files[ids[index]] else { continue }
                let query = [("sessionId", session.sessionId), ("fileId", ids[index]), ("token", token)]
                let uploaded = try await client.request(.POST, host: target.host, port: target.port, secure: target.secure, path: "/api/localsend/v2/upload",
                                                        query: query, body: .file(path: item.path, length: item.size), check: check) { sent in
                    progress(.bytes(item: index, sent: sent, of: item.size))
                }
                guard uploaded.status == 200 else {
                    throw NearbyError.declined("\(name) did not take \(item.name) (\(uploaded.status)" + (Self.message(uploaded.body).map { ": \($0)" } ?? "") + ")")
                }
                report.bytesSent += item.size
                report.destinations[index] = device.alias
                progress(.delivered(item: index, destination: device.alias))
            }
        } catch {
            _ = try? await client.request(.POST, host: target.host, port: target.port, secure: target.secure, path: "/api/localsend/v2/cancel",
                                          query: [("sessionId", session.sessionId)], check: check)
            throw error
        }
        return report
    }

    /// The item's SHA-256 in hex (the receiver checks it, where it checks anything).
    static func sha256(of item: OutgoingItem) throws(NearbyError) -> String {
        let file: OwnedDescriptor
        do { file = try OwnedDescriptor.open(item.path, .readOnly, options: [.noControllingTerminal]) } catch { throw .system(error) }
        var hasher = SHA256()
        try FileHash.update(&hasher, from: file, length: item.size)
        return Fingerprint.hex(Array(hasher.finalize()))
    }

    /// The `message` of a JSON error body, if it has one.
    static func message(_ body: [UInt8]) -> String? {
        struct Message: Decodable { var message: String }
        return (try? LocalSendJSON.decode(Message.self, from: body, what: "an error"))?.message
    }
}
