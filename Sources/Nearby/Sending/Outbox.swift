import Crypto
import SystemCalls

/// Unfinished sends (`ROOT/Nearby/Outbox/KEY`, holding the transfer identifier): the same items
/// sent again to the same place continue the same transfer; a finished send's note goes.
struct Outbox {
    let folder: NearbyFolder
    var path: String { folder.path + "/Outbox" }

    /// The note's name for sending `items` to `target`.
    func key(target: SendTarget, items: [OutgoingItem]) -> String {
        var hasher = SHA256()
        hasher.update(data: Array((target.expected?.hex ?? target.address).utf8))
        for item in items {
            hasher.update(data: Array("\u{0}\(item.name)\u{0}\(item.version)\u{0}".utf8))
        }
        return Fingerprint.hex(Array(hasher.finalize()))
    }

    /// The transfer identifier of the unfinished send `key`, or a new one (noted).
    func transfer(for key: String) throws(NearbyError) -> [UInt8] {
        let note = path + "/" + key
        if let bytes = try? FileSystem.read(note), bytes.count == 16 { return bytes }
        var transfer = [UInt8](repeating: 0, count: 16)
        for i in transfer.indices { transfer[i] = UInt8.random(in: 0...255) }
        do {
            try FileSystem.makeDirectories(path, permissions: 0o700)
            try AtomicFile.write(transfer, to: note, permissions: 0o600)
        } catch { throw .system(error) }
        return transfer
    }

    /// Removes the note of a send that completed.
    func finish(_ key: String) { try? FileSystem.remove(path + "/" + key) }
}
