import Atomics
import ProcessTables
import Synchronization
import SystemCalls

/// Named `NotifyCenter`, not `NotificationCenter`: an app importing this module beside Foundation
/// keeps Foundation's `NotificationCenter` (in-process notifications) unambiguous.
///
/// Darwin's notify(3) between processes on Linux, without a daemon: post a name, register for it
/// with a callback, a file descriptor, a signal or a flag to check, and keep a 64-bit state
/// with it. Every process of the user maps one table (``NotificationTable``) in the
/// notification folder; a post is an atomic increment there plus one datagram to each process
/// that registered the name and is not already due a wake (rapid posts coalesce). Each process
/// with registrations runs one delivery thread that receives those datagrams and calls the
/// handlers, one at a time.
///
/// ```swift
/// let center = NotifyCenter.shared
/// let token = try center.register("com.example.notes.changed") { _ in reload() }
/// try center.post("com.example.notes.changed")     // in another process
/// ```
///
/// Names follow ``NotificationName``'s rules (`self.` names stay in the process, `user.uid.N.`
/// names are user N's). A center lives as long as its process.
public final class NotifyCenter: Sendable {
    /// The folder of the table, as given.
    public let directory: String
    /// How long registering waits for another process holding the table lock before it fails
    /// with ``NotificationError/tableBusy(path:holder:stopped:seconds:)``. Posting never waits.
    public let lockTimeout: Double

    let state = Mutex(CenterState())
    /// The delivery thread's start, once per process.
    let deliveryStart = StartOnce<NotificationError>()
    let opened = Mutex<NotificationTable?>(nil)

    /// The center of the default folder (``defaultDirectory()``).
    public static let shared = NotifyCenter(directory: defaultDirectory())

    /// A center over the table in `directory` (created, with mode 0700, when missing).
    public init(directory: String, lockTimeout: Double = 2) {
        self.directory = directory
        self.lockTimeout = lockTimeout
    }

    /// `$DOCUMENT_INTERCHANGE_NOTIFY_DIR`, else `$XDG_RUNTIME_DIR/document-interchange`, else
    /// `/tmp/document-interchange-UID`: one table per user, on a memory file system where the
    /// system provides one.
    public static func defaultDirectory() -> String {
        InterprocessFolder.defaultPath()
    }

    func table() throws(NotificationError) -> NotificationTable {
        if let table = opened.withLock({ $0 }) { return table }
        do throws(SystemCallError) {
            try InterprocessFolder.prepare(directory)
            let table = try NotificationTable(path: directory + "/notify.table")
            return opened.withLock { current in
                if let current { return current }
                current = table
                return table
            }
        } catch {
            throw .system(error)
        }
    }

    // MARK: Posting

    /// Posts `name`: every registration for it, in every process, is told (once for several
    /// rapid posts). Posting a name nobody registered does nothing. `notify_post`.
    public func post(_ name: String) throws(NotificationError) {
        if try NotificationName.validate(name) == .process { return postLocally(name) }
        let table = try table()
        let bytes = Array(name.utf8)
        guard let slot = table.countPost(bytes, hash: NotificationTable.hash(bytes)) else { return }
        wakeHolders(of: slot, in: table)
    }

    private func wakeHolders(of slot: Int, in table: NotificationTable) {
        for index in 0..<NotificationTable.holdersPerName {
            let word = table.holder(slot, index).load(ordering: .sequentiallyConsistent)
            guard word & 1 == 1 else { continue }
            // Disarm first: only the poster that disarms sends, so rapid posts coalesce.
            guard table.holder(slot, index).compareExchange(expected: word, desired: word & ~1, ordering: .sequentiallyConsistent).exchanged else { continue }
            let process = Int((word >> 16) & 0xFFFF) - 1
            let destination = table.records.mailboxName(process: process, generation: UInt32(truncatingIfNeeded: word >> 32))
            do {
                try sender().send(slotMessage(slot), to: destination, timeout: 0)
            } catch where error.errno == .connectionRefused {
                // The process is gone: its word goes (the slot is released when registering next).
                _ = table.holder(slot, index).compareExchange(expected: word & ~1, desired: 0, ordering: .sequentiallyConsistent)
            } catch {
                // Its queue is full: it has datagrams to read, and will rescan everything once
                // it sees the overflow flag. One more try covers a queue drained meanwhile.
                table.records.word(.overflow, of: process).store(1, ordering: .sequentiallyConsistent)
                try? sender().send(slotMessage(UInt32.max), to: destination, timeout: 0)
            }
        }
    }

    func slotMessage(_ slot: Int) -> [UInt8] { slotMessage(UInt32(slot)) }
    func slotMessage(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }

    private let sending = Mutex<DatagramSocket?>(nil)
    func sender() throws(SystemCallError) -> DatagramSocket {
        if let socket = sending.withLock({ $0 }) { return socket }
        let socket = try DatagramSocket(name: nil)
        return sending.withLock { current in
            if let current { return current }
            current = socket
            return socket
        }
    }

    func postLocally(_ name: String) {
        let wake = state.withLock { state -> Bool in
            state.localCounters[name, default: 0] &+= 1
            return state.registrations.values.contains { $0.localName == name && $0.kind.wantsWakes }
        }
        if wake, let mailbox = state.withLock({ $0.mailbox }) {
            try? mailbox.send(slotMessage(UInt32.max - 1), to: mailbox.name, timeout: 1)
        }
    }
}
