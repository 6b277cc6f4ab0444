import Atomics
import Hashing
import ProcessTables
import SystemCalls

/// The shared table every process of a user maps (`notify.table` in the notification folder):
/// names with their post counters, 64-bit states and the processes registered for each, plus one
/// record per registered process. Posting reads it without a lock (an atomic increment, then a
/// wake datagram to each registered process that is waiting); registering and cancelling change
/// it under a robust shared mutex (``SharedMutex``), so a process killed half-way never leaves
/// it locked.
///
/// Layout (version 1, native byte order, offsets in bytes):
/// - header, 4096: magic `DINOTFY1`, version, boot id, table id, the mutex at 64, the pid of
///   the last lock holder at 128;
/// - process records at 4096: 1024 × 64 (``SharedProcessRecords``: a mutex the process's
///   delivery thread holds while the process lives, generation, pid, overflow flag, in use);
/// - name index at 69,632: 8192 UInt32 buckets (slot + 1; 0 empty; all ones a removed name),
///   linear probing on a 64-bit FNV-1a hash;
/// - name slots at 102,400: 4096 × 1088 (counter: slot generation << 40 | posts; state; hash;
///   length; in use; 64 holder words; the name, up to 512 bytes).
///
/// A holder word names one registered process: bit 0 "armed" (it is waiting for a wake
/// datagram), bit 1 "wants wakes", bits 16-31 the process record + 1, bits 32-63 the record's
/// generation. A poster clears "armed" before sending, the receiver sets it again before it
/// reads the counter: rapid posts coalesce into one wake, and none is missed.
final class NotificationTable: @unchecked Sendable {
    static let magic: UInt64 = 0x3159_4654_4F4E_4944 // "DINOTFY1" little-endian
    static let version: UInt32 = 1
    static let bucketCount = 8192
    static let slotCount = 4096
    static let holdersPerName = 64
    static let slotSize = 1088
    static let bucketsOffset = SharedProcessRecords.end
    static let slotsOffset = bucketsOffset + bucketCount * 4
    static let size = slotsOffset + slotCount * slotSize
    static let countMask: UInt64 = (1 << 40) - 1

    /// Where each field of a name slot is, in bytes from the slot's start (``slotSize`` each).
    enum SlotField: Int, CaseIterable {
        /// UInt64: slot generation << 40 | posts.
        case counter = 0
        /// UInt64: the name's state.
        case state = 8
        /// UInt64: the name's FNV-1a 64 hash.
        case hash = 16
        /// UInt32: the name's length in bytes.
        case length = 24
        /// UInt32: 1 while the slot holds a name.
        case inUse = 28
        /// ``holdersPerName`` UInt64 holder words.
        case holders = 64
        /// The name's bytes, up to ``NotificationName/maximumLength``.
        case name = 576
    }

    static let removedBucket: UInt32 = .max

    let mapping: SharedMemoryFile
    let path: String
    let base: UnsafeMutableRawPointer
    let mutex: SharedMutex
    /// The registered processes, each with its mailbox.
    let records: SharedProcessRecords

    init(path: String) throws(SystemCallError) {
        self.path = path
        mapping = try SharedMemoryFile.table(path: path, size: Self.size, magic: Self.magic, version: Self.version) { (base) throws(SystemCallError) in
            try SharedProcessRecords.initialize(at: base)
        }
        base = mapping.base
        mutex = mapping.tableMutex
        // The table id is random, so that socket names of two tables (two test folders) never meet.
        records = SharedProcessRecords(base: base, tableID: mapping.tableID, mailboxPrefix: "di-notify")
    }

    // MARK: Words

    func atomic(_ offset: Int) -> UnsafeAtomic<UInt64> {
        UnsafeAtomic(at: (base + offset).assumingMemoryBound(to: UInt64.AtomicRepresentation.self))
    }

    func atomic32(_ offset: Int) -> UnsafeAtomic<UInt32> {
        UnsafeAtomic(at: (base + offset).assumingMemoryBound(to: UInt32.AtomicRepresentation.self))
    }

    func slotOffset(_ slot: Int) -> Int { Self.slotsOffset + slot * Self.slotSize }
    func counter(_ slot: Int) -> UnsafeAtomic<UInt64> { atomic(slotOffset(slot) + SlotField.counter.rawValue) }
    func state(_ slot: Int) -> UnsafeAtomic<UInt64> { atomic(slotOffset(slot) + SlotField.state.rawValue) }
    func holder(_ slot: Int, _ index: Int) -> UnsafeAtomic<UInt64> { atomic(slotOffset(slot) + SlotField.holders.rawValue + index * 8) }
    func slotInUse(_ slot: Int) -> UnsafeAtomic<UInt32> { atomic32(slotOffset(slot) + SlotField.inUse.rawValue) }
    func bucket(_ index: Int) -> UnsafeAtomic<UInt32> { atomic32(Self.bucketsOffset + index * 4) }

    static func hash(_ name: [UInt8]) -> UInt64 { FNV1a64.hash(name) }

    // MARK: Lookup (no lock)

    /// The slot holding `name` and its counter word then; `nil` when no process registered it.
    func find(_ name: [UInt8], hash: UInt64) -> (slot: Int, counter: UInt64)? {
        var index = Int(hash % UInt64(Self.bucketCount))
        for _ in 0..<Self.bucketCount {
            let value = bucket(index).load(ordering: .acquiring)
            if value == 0 { return nil }
            if value != Self.removedBucket {
                let slot = Int(value - 1)
                let word = counter(slot).load(ordering: .acquiring)
                if matches(slot, name, hash: hash) { return (slot, word) }
            }
            index = (index + 1) % Self.bucketCount
        }
        return nil
    }

    func matches(_ slot: Int, _ name: [UInt8], hash: UInt64) -> Bool {
        let offset = slotOffset(slot)
        guard slotInUse(slot).load(ordering: .acquiring) == 1,
              base.load(fromByteOffset: offset + SlotField.hash.rawValue, as: UInt64.self) == hash,
              Int(base.load(fromByteOffset: offset + SlotField.length.rawValue, as: UInt32.self)) == name.count else { return false }
        return name.withUnsafeBytes { bytes in memcmpEqual(base + offset + SlotField.name.rawValue, bytes) }
    }

    private func memcmpEqual(_ pointer: UnsafeMutableRawPointer, _ bytes: UnsafeRawBufferPointer) -> Bool {
        for index in 0..<bytes.count where pointer.load(fromByteOffset: index, as: UInt8.self) != bytes[index] { return false }
        return true
    }

    /// The name in `slot`.
    func name(of slot: Int) -> String {
        let offset = slotOffset(slot)
        let length = Int(base.load(fromByteOffset: offset + SlotField.length.rawValue, as: UInt32.self))
        return String(decoding: UnsafeRawBufferPointer(start: base + offset + SlotField.name.rawValue, count: min(length, NotificationName.maximumLength)), as: UTF8.self)
    }

    // MARK: Changes (under the table lock)

    /// Runs `body` holding the table lock; a lock left by a dead holder is taken over (every
    /// change below keeps the table consistent at each store, so there is nothing to repair).
    func locked<T>(timeout: Double, _ body: () throws(NotificationError) -> T) throws(NotificationError) -> T {
        do {
            _ = try mutex.lock(timeout: timeout)
        } catch where error.errno == .timedOut {
            let holder = Int32(bitPattern: base.load(fromByteOffset: 128, as: UInt32.self))
            throw .tableBusy(path: path, holder: holder, stopped: ProcessSignals.state(of: holder) == .stopped, seconds: timeout)
        } catch {
            throw .system(error)
        }
        base.storeBytes(of: UInt32(bitPattern: CurrentProcess.id), toByteOffset: 128, as: UInt32.self)
        defer { mutex.unlock() }
        return try body()
    }

    /// Whether the process of holder word `word` still exists (its record mutex is held by its
    /// delivery thread; a dead holder's lock is handed to us marked so).
    func isLive(_ word: UInt64) -> Bool {
        records.isLive(Int((word >> 16) & 0xFFFF) - 1, generation: UInt32(truncatingIfNeeded: word >> 32))
    }

    /// Claims a process record for this process (under the lock); its index and generation.
    func claimProcessRecord() throws(NotificationError) -> (Int, UInt32) {
        guard let claimed = records.claim() else { throw .tableFull(path: path, limit: "\(SharedProcessRecords.count) processes") }
        return claimed
    }

    /// The slot for `name`, added when missing (under the lock). A name whose every holder is
    /// gone was released: its state starts again at 0, as notifyd forgets a name with its last
    /// registration.
    func slotForRegistering(_ name: [UInt8], hash: UInt64) throws(NotificationError) -> Int {
        if let (slot, _) = find(name, hash: hash) {
            var anyLive = false
            for index in 0..<Self.holdersPerName {
                let word = holder(slot, index).load(ordering: .acquiring)
                if word == 0 { continue }
                if isLive(word) { anyLive = true } else { holder(slot, index).store(0, ordering: .releasing) }
            }
            if !anyLive { state(slot).store(0, ordering: .releasing) }
            return slot
        }
        // A free slot: never used, or released (in use 0).
        var chosen: Int?
        for slot in 0..<Self.slotCount where slotInUse(slot).load(ordering: .acquiring) == 0 { chosen = slot; break }
        if chosen == nil { chosen = reclaimAbandonedSlot() }
        guard let slot = chosen else { throw .tableFull(path: path, limit: "\(Self.slotCount) names registered at once") }
        let offset = slotOffset(slot)
        // A new generation first, so that a poster still holding this slot's old counter word
        // fails its increment instead of counting a post of the old name against the new one.
        let generation = ((counter(slot).load(ordering: .acquiring) >> 40) &+ 1) & 0xFF_FFFF
        counter(slot).store(generation << 40, ordering: .sequentiallyConsistent)
        state(slot).store(0, ordering: .releasing)
        base.storeBytes(of: hash, toByteOffset: offset + SlotField.hash.rawValue, as: UInt64.self)
        base.storeBytes(of: UInt32(name.count), toByteOffset: offset + SlotField.length.rawValue, as: UInt32.self)
        for index in 0..<Self.holdersPerName { holder(slot, index).store(0, ordering: .relaxed) }
        name.withUnsafeBytes { (base + offset + SlotField.name.rawValue).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        slotInUse(slot).store(1, ordering: .sequentiallyConsistent)
        var index = Int(hash % UInt64(Self.bucketCount))
        while true {
            let value = bucket(index).load(ordering: .acquiring)
            if value == 0 || value == Self.removedBucket { break }
            index = (index + 1) % Self.bucketCount
        }
        bucket(index).store(UInt32(slot + 1), ordering: .releasing)
        return slot
    }

    /// A slot whose holders are all gone (their processes died without cancelling), released
    /// for reuse; `nil` when every name has a live holder.
    private func reclaimAbandonedSlot() -> Int? {
        for slot in 0..<Self.slotCount where slotInUse(slot).load(ordering: .acquiring) == 1 {
            var anyLive = false
            for index in 0..<Self.holdersPerName {
                let word = holder(slot, index).load(ordering: .acquiring)
                if word != 0 && isLive(word) { anyLive = true; break }
            }
            if !anyLive { release(slot); return slot }
        }
        return nil
    }

    /// Sets this process's holder word in `slot` (under the lock).
    func hold(_ slot: Int, process: Int, generation: UInt32, wantsWakes: Bool) throws(NotificationError) {
        let mine = UInt64(generation) << 32 | UInt64(process + 1) << 16
        var free: Int?
        for index in 0..<Self.holdersPerName {
            let word = holder(slot, index).load(ordering: .acquiring)
            if word & ~0xFFFF == mine {
                if wantsWakes && word & 2 == 0 { holder(slot, index).store(mine | 3, ordering: .sequentiallyConsistent) }
                return
            }
            if free == nil && (word == 0 || !isLive(word)) { free = index }
        }
        guard let index = free else { throw .tableFull(path: path, limit: "\(Self.holdersPerName) processes registered for '\(name(of: slot))'") }
        holder(slot, index).store(mine | (wantsWakes ? 3 : 0), ordering: .sequentiallyConsistent)
    }

    /// Removes this process's holder word from `slot`; the slot is released when no live holder
    /// is left (under the lock).
    func unhold(_ slot: Int, process: Int, generation: UInt32) {
        let mine = UInt64(generation) << 32 | UInt64(process + 1) << 16
        var anyLive = false
        for index in 0..<Self.holdersPerName {
            let word = holder(slot, index).load(ordering: .acquiring)
            if word == 0 { continue }
            if word & ~0xFFFF == mine { holder(slot, index).store(0, ordering: .releasing); continue }
            if isLive(word) { anyLive = true }
        }
        if !anyLive { release(slot) }
    }

    private func release(_ slot: Int) {
        let generation = ((counter(slot).load(ordering: .acquiring) >> 40) &+ 1) & 0xFF_FFFF
        counter(slot).store(generation << 40, ordering: .sequentiallyConsistent)
        slotInUse(slot).store(0, ordering: .sequentiallyConsistent)
        for index in 0..<Self.bucketCount where bucket(index).load(ordering: .acquiring) == UInt32(slot + 1) {
            bucket(index).store(Self.removedBucket, ordering: .releasing)
        }
    }
}
