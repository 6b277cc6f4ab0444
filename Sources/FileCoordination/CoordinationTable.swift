import ProcessTables
import SystemCalls

/// The table every coordinating process of a user maps (`coordination.table` in the space's
/// folder): claims (items being read or written, each with a robust mutex its holder keeps
/// locked while it works), registered presenters, and one record per process that has
/// presenters. Changed and read only under the table's robust mutex; a waiter blocks on the
/// conflicting claim's own mutex, so it wakes when that claim ends, or when its holder dies
/// (the kernel hands the mutex on, marked), or gives up at its timeout.
///
/// Layout (version 1, native byte order, offsets in bytes):
/// - header, 4096: magic `DICOORD1`, version, boot id, table id, the mutex at 64, the next
///   ticket at 128, the pid of the last lock holder at 136, high-water marks of claims (140)
///   and presenters (144) so that scans stop where no entry was ever used, and the claim slot
///   freed last (148), not handed out again at once;
/// - process records at 4096: 1024 × 64 (``SharedProcessRecords``: mutex held by the
///   process's delivery thread, generation, pid, an overflow word left 0, in use);
/// - claims at 69,632: 512 × 336 (mutex, in use, kind 1 read / 2 write, ticket, pid, depth,
///   thread, 32 prefix hashes);
/// - presenters at 241,664: 1024 × 288 (in use, process record, generation, depth, local id,
///   32 prefix hashes).
///
/// Tickets order claims: a claim waits only for conflicting claims with smaller tickets, so
/// waits are first come, first served (a stream of readers cannot starve a writer) and never
/// circular (no deadlock between processes coordinating several items).
final class CoordinationTable: @unchecked Sendable {
    static let magic: UInt64 = 0x3144_524F_4F43_4944 // "DICOORD1" little-endian
    static let version: UInt32 = 1
    static let claimCount = 512
    static let claimSize = 336
    static let presenterCount = 1024
    static let presenterSize = 288
    static let claimsOffset = SharedProcessRecords.end
    static let presentersOffset = claimsOffset + claimCount * claimSize
    static let size = presentersOffset + presenterCount * presenterSize

    /// Header words past the shared prefix (magic, version, boot id, table id, mutex), in bytes.
    enum HeaderField: Int, CaseIterable {
        /// UInt64: the last ticket handed out.
        case ticket = 128
        /// UInt32: the pid of the last lock holder.
        case lockHolder = 136
        /// UInt32 each: how many claim and presenter slots were ever used (scans stop there).
        case claimsInUse = 140, presentersInUse = 144
        /// UInt32: the claim slot freed last, not handed out again at once.
        case lastFreedClaim = 148
    }

    /// A claim's fields, in bytes from its start (``claimSize`` each).
    enum ClaimField: Int, CaseIterable {
        /// The robust mutex its holder keeps locked while it works.
        case mutex = 0
        /// UInt32: 1 in use; UInt32: 1 read, 2 write.
        case inUse = 40, kind = 44
        /// UInt64: its ticket.
        case ticket = 48
        /// UInt32: the holder's pid; UInt32: how many prefix hashes.
        case pid = 56, depth = 60
        /// UInt64: the holder's thread.
        case thread = 64
        /// 32 UInt64 prefix hashes.
        case hashes = 72
    }

    /// A presenter's fields, in bytes from its start (``presenterSize`` each).
    enum PresenterField: Int, CaseIterable {
        /// UInt32 each: in use, its process record, that record's generation, how many hashes.
        case inUse = 0, process = 4, generation = 8, depth = 12
        /// UInt64: the presenter's id in its process.
        case localID = 16
        /// 32 UInt64 prefix hashes.
        case hashes = 24
    }

    let mapping: SharedMemoryFile
    let path: String
    let base: UnsafeMutableRawPointer
    let mutex: SharedMutex
    /// The processes that have presenters, each with its mailbox.
    let records: SharedProcessRecords

    init(path: String) throws(SystemCallError) {
        self.path = path
        mapping = try SharedMemoryFile.table(path: path, size: Self.size, magic: Self.magic, version: Self.version) { (base) throws(SystemCallError) in
            try SharedProcessRecords.initialize(at: base)
            for index in 0..<Self.claimCount { try SharedMutex.initialize(at: base + Self.claimsOffset + index * Self.claimSize) }
        }
        base = mapping.base
        mutex = mapping.tableMutex
        records = SharedProcessRecords(base: base, tableID: mapping.tableID, mailboxPrefix: "di-coordination")
    }

    // MARK: Fields

    func u32(_ offset: Int) -> UInt32 { base.load(fromByteOffset: offset, as: UInt32.self) }
    func setU32(_ offset: Int, _ value: UInt32) { base.storeBytes(of: value, toByteOffset: offset, as: UInt32.self) }
    func u64(_ offset: Int) -> UInt64 { base.load(fromByteOffset: offset, as: UInt64.self) }
    func setU64(_ offset: Int, _ value: UInt64) { base.storeBytes(of: value, toByteOffset: offset, as: UInt64.self) }

    func claimOffset(_ claim: Int) -> Int { Self.claimsOffset + claim * Self.claimSize }
    func presenterOffset(_ presenter: Int) -> Int { Self.presentersOffset + presenter * Self.presenterSize }
    func claimMutex(_ claim: Int) -> SharedMutex { SharedMutex(at: base + claimOffset(claim) + ClaimField.mutex.rawValue) }

    func hashes(at offset: Int, depth: Int) -> [UInt64] { (0..<min(depth, ItemPath.maximumDepth)).map { u64(offset + $0 * 8) } }
    func setHashes(at offset: Int, _ hashes: [UInt64]) { for (index, hash) in hashes.prefix(ItemPath.maximumDepth).enumerated() { setU64(offset + index * 8, hash) } }

    // MARK: Lock

    /// Runs `body` under the table lock, waiting at most `timeout` seconds for it.
    func locked<T>(timeout: Double, _ body: () throws(CoordinationError) -> T) throws(CoordinationError) -> T {
        do {
            _ = try mutex.lock(timeout: timeout)
        } catch where error.errno == .timedOut {
            let holder = Int32(bitPattern: u32(HeaderField.lockHolder.rawValue))
            throw .timedOut(path: path, holder: holder, stopped: ProcessSignals.state(of: holder) == .stopped, seconds: timeout)
        } catch {
            throw .system(error)
        }
        setU32(HeaderField.lockHolder.rawValue, UInt32(bitPattern: CurrentProcess.id))
        defer { mutex.unlock() }
        return try body()
    }

    // MARK: Claims (under the lock)

    /// One claim as the table holds it.
    struct Claim {
        var index: Int
        var writing: Bool
        var ticket: UInt64
        var pid: Int32
        var thread: UInt64
        var hashes: [UInt64]
    }

    /// Claims and presenters at or above these indexes were never used.
    var claimsInUse: Int { Int(u32(HeaderField.claimsInUse.rawValue)) }
    var presentersInUse: Int { Int(u32(HeaderField.presentersInUse.rawValue)) }

    func claim(_ index: Int) -> Claim? {
        let offset = claimOffset(index)
        guard u32(offset + ClaimField.inUse.rawValue) == 1 else { return nil }
        return Claim(index: index, writing: u32(offset + ClaimField.kind.rawValue) == 2, ticket: u64(offset + ClaimField.ticket.rawValue), pid: Int32(bitPattern: u32(offset + ClaimField.pid.rawValue)),
                     thread: u64(offset + ClaimField.thread.rawValue), hashes: hashes(at: offset + ClaimField.hashes.rawValue, depth: Int(u32(offset + ClaimField.depth.rawValue))))
    }

    /// Frees claims whose holders died (their mutex is free, or handed to us marked).
    func reapDeadClaims() {
        for index in 0..<claimsInUse where u32(claimOffset(index) + ClaimField.inUse.rawValue) == 1 {
            if (try? claimMutex(index).tryLock()) != nil {
                setU32(claimOffset(index) + ClaimField.inUse.rawValue, 0)
                claimMutex(index).unlock()
            }
        }
    }

    /// Adds claims for `items` with one new ticket, each locked by this thread; their indexes.
    /// The lowest free slots are used (scans stop at the high-water mark), except the slot freed
    /// last: a waiter may be about to wait on its old claim's mutex. Claims of dead holders are
    /// reaped when the table looks full, and by waiters that find a holder dead.
    func addClaims(_ items: [(hashes: [UInt64], writing: Bool)], thread: UInt64) throws(CoordinationError) -> (ticket: UInt64, claims: [Int]) {
        let ticket = u64(HeaderField.ticket.rawValue) &+ 1
        setU64(HeaderField.ticket.rawValue, ticket)
        let lastFreed = Int(u32(HeaderField.lastFreedClaim.rawValue))
        var taken: [Int] = []
        for item in items {
            var found = freeClaim(excluding: taken, lastFreed: lastFreed)
            if found == nil {
                reapDeadClaims()
                found = freeClaim(excluding: taken, lastFreed: -1)
            }
            guard let index = found else {
                removeClaims(taken)
                throw .tableFull(path: path, limit: "\(Self.claimCount) items in use at once")
            }
            do { _ = try claimMutex(index).lock(timeout: 1) } catch { throw .system(error) }
            let offset = claimOffset(index)
            setU32(offset + ClaimField.kind.rawValue, item.writing ? 2 : 1)
            setU64(offset + ClaimField.ticket.rawValue, ticket)
            setU32(offset + ClaimField.pid.rawValue, UInt32(bitPattern: CurrentProcess.id))
            setU32(offset + ClaimField.depth.rawValue, UInt32(item.hashes.count))
            setU64(offset + ClaimField.thread.rawValue, thread)
            setHashes(at: offset + ClaimField.hashes.rawValue, item.hashes)
            setU32(offset + ClaimField.inUse.rawValue, 1)
            if index >= claimsInUse { setU32(HeaderField.claimsInUse.rawValue, UInt32(index + 1)) }
            taken.append(index)
        }
        return (ticket, taken)
    }

    private func freeClaim(excluding taken: [Int], lastFreed: Int) -> Int? {
        for index in 0..<Self.claimCount where index != lastFreed && u32(claimOffset(index) + ClaimField.inUse.rawValue) == 0 && !taken.contains(index) { return index }
        return nil
    }

    /// The oldest claim that conflicts with one of `mine` and came before them.
    func blocker(of mine: [Int], ticket: UInt64, thread: UInt64) -> Claim? {
        let own = mine.compactMap(claim)
        var oldest: Claim?
        for index in 0..<claimsInUse where !mine.contains(index) {
            guard let other = claim(index), other.ticket < ticket else { continue }
            // Nested coordination on one thread (an accessor coordinating again) does not wait for itself.
            if other.pid == CurrentProcess.id && other.thread == thread { continue }
            for claim in own where (claim.writing || other.writing) && ItemPath.related(claim.hashes, other.hashes) {
                if oldest == nil || other.ticket < oldest!.ticket { oldest = other }
            }
        }
        return oldest
    }

    /// Frees `claims` (held by this thread).
    func removeClaims(_ claims: [Int]) {
        for index in claims {
            setU32(claimOffset(index) + ClaimField.inUse.rawValue, 0)
            setU32(HeaderField.lastFreedClaim.rawValue, UInt32(index))
            claimMutex(index).unlock()
        }
    }

    // MARK: Processes and presenters (under the lock)

    /// Claims a process record for this process; its index and generation.
    func claimProcessRecord() throws(CoordinationError) -> (Int, UInt32) {
        guard let claimed = records.claim() else { throw .tableFull(path: path, limit: "\(SharedProcessRecords.count) processes with presenters") }
        return claimed
    }

    /// A registered presenter as the table holds it.
    struct Presenter {
        var index: Int
        var process: Int
        var generation: UInt32
        var localID: UInt64
        var hashes: [UInt64]
        var pid: Int32
    }

    func presenter(_ index: Int) -> Presenter? {
        let offset = presenterOffset(index)
        guard u32(offset + PresenterField.inUse.rawValue) == 1 else { return nil }
        let process = Int(u32(offset + PresenterField.process.rawValue))
        let generation = u32(offset + PresenterField.generation.rawValue)
        // A presenter of a process that is gone, or whose record was reused, is dropped.
        guard records.isLive(process, generation: generation) else {
            setU32(offset + PresenterField.inUse.rawValue, 0)
            return nil
        }
        return Presenter(index: index, process: process, generation: generation, localID: u64(offset + PresenterField.localID.rawValue),
                         hashes: hashes(at: offset + PresenterField.hashes.rawValue, depth: Int(u32(offset + PresenterField.depth.rawValue))), pid: records.pid(of: process))
    }

    func addPresenter(process: Int, generation: UInt32, localID: UInt64, hashes: [UInt64]) throws(CoordinationError) -> Int {
        for index in 0..<Self.presenterCount where presenter(index) == nil {
            let offset = presenterOffset(index)
            setU32(offset + PresenterField.process.rawValue, UInt32(process))
            setU32(offset + PresenterField.generation.rawValue, generation)
            setU32(offset + PresenterField.depth.rawValue, UInt32(hashes.count))
            setU64(offset + PresenterField.localID.rawValue, localID)
            setHashes(at: offset + PresenterField.hashes.rawValue, hashes)
            setU32(offset + PresenterField.inUse.rawValue, 1)
            if index >= presentersInUse { setU32(HeaderField.presentersInUse.rawValue, UInt32(index + 1)) }
            return index
        }
        throw .tableFull(path: path, limit: "\(Self.presenterCount) presenters")
    }

    func updatePresenter(_ index: Int, hashes: [UInt64]) {
        let offset = presenterOffset(index)
        setU32(offset + PresenterField.depth.rawValue, UInt32(hashes.count))
        setHashes(at: offset + PresenterField.hashes.rawValue, hashes)
    }

    func removePresenter(_ index: Int) { setU32(presenterOffset(index) + PresenterField.inUse.rawValue, 0) }

    /// Every live presenter related to `hashes` (the item, inside it, or containing it).
    func presenters(relatedTo hashes: [UInt64]) -> [Presenter] {
        (0..<presentersInUse).compactMap { index in
            guard let presenter = presenter(index), ItemPath.related(presenter.hashes, hashes) else { return nil }
            return presenter
        }
    }
}
