import Atomics
import SystemCalls

/// The process records of a shared table (``SharedMemoryFile/table(path:size:magic:version:initialize:)``):
/// one record per process that takes part (receives wake datagrams, has presenters), right
/// after the table's 4096-byte header. The notification table and the coordination table both
/// keep their processes here, so the record, its claim and its liveness are written once.
///
/// Layout (native byte order, offsets in bytes from the table's start): ``count`` records of
/// ``size`` bytes at ``offset``, each as ``Field`` says: a robust mutex the process's delivery
/// thread holds while the process lives, then UInt32 words generation, pid, overflow and in use.
///
/// A record is live while its mutex is held: the kernel hands a dead holder's mutex on, so a
/// process killed with SIGKILL frees its record without anyone cleaning up. The words are read
/// and written atomically, as posting notifications reads them without the table lock; the
/// coordination table, which reads them under its lock, loses nothing by it.
package struct SharedProcessRecords {
    /// Where the first record is, in bytes from the table's start (the header's end).
    package static let offset = 4096
    /// How many records a table has (processes taking part at once).
    package static let count = 1024
    /// The bytes of one record.
    package static let size = 64
    /// The first byte past the last record, where the table's next part starts (69,632).
    package static let end = offset + count * size

    /// Where each field of a record is, in bytes from the record's start (``size`` each).
    package enum Field: Int, CaseIterable, Sendable {
        /// The robust mutex the process's delivery thread holds while the process lives.
        case mutex = 0
        /// UInt32: bumped at each claim, so that a reused record is told from its last owner.
        case generation = 40
        /// UInt32: the owner's pid.
        case pid = 44
        /// UInt32: 1 when a notification poster found the owner's mailbox full (it rescans
        /// everything); the coordination table leaves it 0.
        case overflow = 48
        /// UInt32: 1 while a process owns the record (it may since have died).
        case inUse = 52
    }

    /// The table's first byte.
    let base: UnsafeMutableRawPointer
    /// The table's random id (``SharedMemoryFile/tableID``), in the mailbox names.
    let tableID: UInt64
    /// The kind of table in the mailbox names (`di-notify`, `di-coordination`), so that two
    /// kinds of table never share a socket name.
    let mailboxPrefix: String

    /// The records of the table at `base` (mapped with ``initialize(at:)`` run on it).
    /// - Parameters:
    ///   - base: the table's first byte.
    ///   - tableID: the table's random id (``SharedMemoryFile/tableID``).
    ///   - mailboxPrefix: the kind of table, first in its mailbox names.
    package init(base: UnsafeMutableRawPointer, tableID: UInt64, mailboxPrefix: String) {
        self.base = base
        self.tableID = tableID
        self.mailboxPrefix = mailboxPrefix
    }

    /// Sets up every record's mutex in a new table at `base` (its bytes zeros otherwise: no
    /// record in use), before other processes can see it.
    /// - Throws: `SystemCallError` when a mutex cannot be set up.
    package static func initialize(at base: UnsafeMutableRawPointer) throws(SystemCallError) {
        for process in 0..<count { try SharedMutex.initialize(at: base + offset + process * size + Field.mutex.rawValue) }
    }

    // MARK: Fields

    /// The mutex of record `process`, held by its owner's delivery thread.
    package func mutex(_ process: Int) -> SharedMutex {
        SharedMutex(at: base + Self.offset + process * Self.size + Field.mutex.rawValue)
    }

    /// The UInt32 word `field` of record `process` (any field but ``Field/mutex``).
    package func word(_ field: Field, of process: Int) -> UnsafeAtomic<UInt32> {
        precondition(field != .mutex, "the mutex is not a word")
        return UnsafeAtomic(at: (base + Self.offset + process * Self.size + field.rawValue).assumingMemoryBound(to: UInt32.AtomicRepresentation.self))
    }

    /// The generation of record `process`.
    package func generation(of process: Int) -> UInt32 { word(.generation, of: process).load(ordering: .acquiring) }

    /// The pid of record `process`'s owner.
    package func pid(of process: Int) -> Int32 { Int32(bitPattern: word(.pid, of: process).load(ordering: .acquiring)) }

    // MARK: Liveness

    /// Whether record `process` is owned by a process that still exists. A record in use whose
    /// owner is gone is freed on the way (in use 0).
    package func isLive(_ process: Int) -> Bool {
        guard word(.inUse, of: process).load(ordering: .acquiring) == 1 else { return false }
        return ownerHoldsMutex(process)
    }

    /// Whether record `process` is still owned, in `generation`, by a process that still
    /// exists; `false` for an index outside the table. A record in use whose owner is gone is
    /// freed on the way.
    package func isLive(_ process: Int, generation: UInt32) -> Bool {
        guard process >= 0, process < Self.count,
              word(.inUse, of: process).load(ordering: .acquiring) == 1,
              self.generation(of: process) == generation else { return false }
        return ownerHoldsMutex(process)
    }

    /// Whether the owner's delivery thread holds the record's mutex. A free mutex (or one
    /// handed to us marked, its holder dead) means the owner is gone: it is given back free and
    /// the record freed. A mutex we cannot try counts as held: a live process is never dropped.
    private func ownerHoldsMutex(_ process: Int) -> Bool {
        guard (try? mutex(process).tryLock()) != nil else { return true }
        mutex(process).unlock()
        word(.inUse, of: process).store(0, ordering: .releasing)
        return false
    }

    // MARK: Claiming (under the table lock)

    /// Claims the first record not owned by a live process for this process: a new generation,
    /// this pid, no overflow, in use. The caller then locks ``mutex(_:)`` from its delivery
    /// thread, and holds it for the life of the process. Call it under the table's lock.
    /// - Returns: the record and its generation; `nil` when every record has a live owner.
    package func claim() -> (process: Int, generation: UInt32)? {
        for process in 0..<Self.count where !isLive(process) {
            let generation = word(.generation, of: process).load(ordering: .relaxed) &+ 1
            word(.generation, of: process).store(generation, ordering: .releasing)
            word(.pid, of: process).store(UInt32(bitPattern: CurrentProcess.id), ordering: .relaxed)
            word(.overflow, of: process).store(0, ordering: .relaxed)
            word(.inUse, of: process).store(1, ordering: .releasing)
            return (process, generation)
        }
        return nil
    }

    // MARK: Mailboxes

    /// The abstract socket name of record `process` in `generation`: where its owner's delivery
    /// thread receives datagrams. A new generation gets a new name, so a datagram meant for a
    /// record's last owner never reaches the next.
    package func mailboxName(process: Int, generation: UInt32) -> [UInt8] {
        Array("\(mailboxPrefix)/\(String(tableID, radix: 16))/\(process).\(generation)".utf8)
    }
}
