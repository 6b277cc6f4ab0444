import PropertyLists
import SystemCalls

/// The LocalSend devices this one has sent to (`ROOT/Nearby/LocalSend.plist`, 0600, replaced
/// atomically): per device its alias, the fingerprint of the certificate it presented and where
/// it was reached. LocalSend itself pins nothing; we remember the first certificate a device
/// showed and refuse a different one under the same alias or at the same address until the user
/// accepts it (``NearbyError/pinMismatch(expected:got:)``).
struct LocalSendPeers: Sendable {
    /// One remembered device.
    struct Peer: Sendable, Equatable {
        var alias: String
        var fingerprint: Fingerprint
        var address: String
    }

    private(set) var peers: [Peer] = []

    static func path(_ folder: NearbyFolder) -> String { folder.path + "/LocalSend.plist" }

    /// The devices remembered in `folder` (none when the file does not exist).
    static func load(from folder: NearbyFolder) throws(NearbyError) -> LocalSendPeers {
        let path = Self.path(folder)
        guard FileSystem.exists(path) else { return LocalSendPeers() }
        let value: PropertyList
        do { value = try PropertyListReader.read(contentsOf: path).value } catch { throw .corruptState(path: path, detail: "\(error)") }
        guard case .dictionary(let top) = value, case .array(let entries)? = top["Devices"] else {
            throw .corruptState(path: path, detail: "no Devices array")
        }
        var result = LocalSendPeers()
        for (index, entry) in entries.enumerated() {
            guard case .dictionary(let d) = entry, case .string(let alias)? = d["Alias"], case .data(let bytes)? = d["Fingerprint"],
                  let fingerprint = Fingerprint(bytes: bytes), case .string(let address)? = d["Address"] else {
                throw .corruptState(path: path, detail: "Devices[\(index)] needs an Alias, a 32-byte Fingerprint and an Address")
            }
            result.peers.append(Peer(alias: alias, fingerprint: fingerprint, address: address))
        }
        return result
    }

    /// Stores the list in `folder`.
    func save(to folder: NearbyFolder) throws(NearbyError) {
        try folder.create()
        let entries: [PropertyList] = peers.map {
            .dictionary(["Address": .string($0.address), "Alias": .string($0.alias), "Fingerprint": .data($0.fingerprint.bytes)])
        }
        let path = Self.path(folder)
        let bytes: [UInt8]
        do { bytes = try XMLPropertyListWriter().write(.dictionary(["Devices": .array(entries)])) } catch {
            throw .corruptState(path: path, detail: "\(error)")
        }
        do { try AtomicFile.write(bytes, to: path, permissions: 0o600) } catch { throw .system(error) }
    }

    /// The fingerprint remembered for `alias` or for `address`, when it is not `seen`.
    func conflict(alias: String, address: String, seen: Fingerprint) -> Peer? {
        peers.first { ($0.alias == alias || $0.address == address) && $0.fingerprint != seen }
    }

    /// Remembers `peer`, replacing what was remembered under its alias, its address or its certificate.
    mutating func remember(_ peer: Peer) {
        peers.removeAll { $0.alias == peer.alias || $0.address == peer.address || $0.fingerprint == peer.fingerprint }
        peers.append(peer)
    }
}
