import KeyedArchives
import Notifications
import SystemCalls

// The queued mode: every message kept, each delivered once, in the order sent. Each message is
// its own file in `IDENTIFIER.queue/` (written under a temporary name, flushed, renamed into
// place: a reader never sees half a message, and a crash leaves the message whole or absent);
// its name starts with the monotonic time of sending, so sorting the names gives the order of
// sending across processes, and each sender's messages in its own order. A reader takes a
// message by renaming it to a name that carries its pid (one reader wins, none is lost), reads
// it, then removes it; a message taken by a reader that died is taken again. The notification is
// `IDENTIFIER.queue`, apart from the single-message one.
extension Wormhole {
    /// The folder of the identifier's queue.
    public func queuePath(forIdentifier identifier: String) throws(WormholeError) -> String {
        directory + "/" + (try Self.fileName(identifier, suffix: ".queue"))
    }

    /// Adds `message` to the identifier's queue and posts `IDENTIFIER.queue`.
    public func enqueueMessage(_ message: ArchivedValue, identifier: String) throws(WormholeError) {
        let folder = try queuePath(forIdentifier: identifier)
        _ = try NotificationName.validateForWormhole(identifier + ".queue")
        let bytes: [UInt8]
        do { bytes = try KeyedArchiver.archivedData(withRootValue: message) } catch { throw .unarchivable(error) }
        do { try FileSystem.makeDirectories(folder) } catch { throw .system(error) }
        let stamp = String(UInt64(Clock.monotonic() * 1e9), radix: 16)
        let sequence = String(Self.sequence.add(1, ordering: .relaxed).newValue, radix: 16)
        let name = String(repeating: "0", count: max(0, 16 - stamp.count)) + stamp + "-" + String(CurrentProcess.id) + "-" + sequence + ".archive"
        try storeMessage(bytes, at: folder + "/" + name)
        do { try notifications.post(identifier + ".queue") } catch { throw .notification(error) }
    }

    /// Takes every message now in the identifier's queue, in the order sent; each message is
    /// returned to one caller only, in any process.
    public func dequeueMessages(identifier: String) throws(WormholeError) -> [ArchivedValue] {
        let folder = try queuePath(forIdentifier: identifier)
        let me = "." + String(CurrentProcess.id) + ".taken-"
        var names: [String] = []
        for name in FileSystem.entries(of: folder) {
            if name.hasSuffix(".archive") && !name.hasPrefix(".") {
                names.append(name)
            } else if name.hasPrefix("."), name.contains(".taken-"), let pid = Int32(name.dropFirst().prefix { $0 != "." }),
                      pid != CurrentProcess.id, ProcessSignals.state(of: pid) == .gone {
                // Taken by a reader that died before removing it: it was never delivered.
                guard let marker = name.firstIndex(of: "-") else { continue }
                let original = String(name[name.index(after: marker)...])
                try? FileSystem.rename(folder + "/" + name, to: folder + "/" + original)
                names.append(original)
            }
        }
        var messages: [ArchivedValue] = []
        for name in names.sorted() {
            let taken = folder + "/" + me + name
            do { try FileSystem.rename(folder + "/" + name, to: taken) } catch { continue } // another reader took it
            guard let bytes = try loadMessage(at: taken) else { continue }
            let message = try Self.decode(bytes, path: taken)
            try remove(taken)
            messages.append(message)
        }
        return messages
    }

    /// Calls `listener` with each queued message once, in order: those already waiting, then
    /// each one sent later (on the notification center's delivery thread).
    public func listenForQueuedMessages(identifier: String, listener: @escaping @Sendable (ArchivedValue) -> Void) throws(WormholeError) {
        _ = try queuePath(forIdentifier: identifier)
        let key = identifier + ".queue"
        stopListeningForMessage(identifier: key)
        do {
            let token = try notifications.register(key) { [self] _ in
                for message in (try? dequeueMessages(identifier: identifier)) ?? [] { listener(message) }
            }
            setListener(token, for: key)
        } catch {
            throw .notification(error)
        }
        for message in try dequeueMessages(identifier: identifier) { listener(message) }
    }

    /// Stops the queued listener of `identifier`.
    public func stopListeningForQueuedMessages(identifier: String) { stopListeningForMessage(identifier: identifier + ".queue") }
}
