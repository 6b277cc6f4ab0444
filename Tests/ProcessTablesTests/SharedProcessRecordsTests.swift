import Atomics
import ProcessTables
import SystemCalls
import Testing

/// The process records both shared tables keep (``SharedProcessRecords``): every named field is
/// written through its accessor and read back at its byte offset (and the other way), no field
/// touches another's bytes, and the layout stays the one the notification and coordination
/// tables have used since version 1. Claiming and liveness are checked on records whose mutexes
/// this test holds and lets go.
@Suite struct SharedProcessRecordsTests {
    typealias R = SharedProcessRecords

    /// A zeroed table of just the header and the records, with the records' mutexes set up; the
    /// body gets its first byte.
    func withTable<T>(_ body: (UnsafeMutableRawPointer, R) throws -> T) throws -> T {
        let base = UnsafeMutableRawPointer.allocate(byteCount: R.end, alignment: 64)
        defer { base.deallocate() }
        base.initializeMemory(as: UInt8.self, repeating: 0, count: R.end)
        try R.initialize(at: base)
        return try body(base, R(base: base, tableID: 0xABC, mailboxPrefix: "di-test"))
    }

    @Test func layoutIsVersionOnes() {
        #expect(R.offset == 4096 && R.count == 1024 && R.size == 64 && R.end == 69_632)
        #expect(R.Field.allCases.map(\.rawValue) == [0, 40, 44, 48, 52])
        let spans = [(R.Field.mutex.rawValue, R.Field.generation.rawValue)]
            + R.Field.allCases.filter { $0 != .mutex }.map { ($0.rawValue, $0.rawValue + 4) }
        for (a, b) in zip(spans, spans.dropFirst()) { #expect(a.1 <= b.0, "\(a) overlaps \(b)") }
        #expect(spans.last!.1 <= R.size)
        #expect(SharedMutex.size <= R.Field.generation.rawValue)
    }

    @Test(arguments: [0, 517, R.count - 1])
    func everyFieldRoundTripsThroughItsOffset(process: Int) throws {
        try withTable { base, records in
            let start = R.offset + process * R.size
            let before = Array(UnsafeRawBufferPointer(start: base, count: R.end))
            for (index, field) in R.Field.allCases.enumerated() where field != .mutex {
                let value = 0xC0DE_0000 + UInt32(index)
                records.word(field, of: process).store(value, ordering: .relaxed)
                #expect(base.load(fromByteOffset: start + field.rawValue, as: UInt32.self) == value, "\(field)")
                base.storeBytes(of: ~value, toByteOffset: start + field.rawValue, as: UInt32.self)
                #expect(records.word(field, of: process).load(ordering: .relaxed) == ~value, "\(field)")
                // Nothing but the field's own four bytes changed.
                let after = Array(UnsafeRawBufferPointer(start: base, count: R.end))
                let changed = after.indices.filter { after[$0] != before[$0] }
                #expect(changed.allSatisfy { (start + field.rawValue..<start + field.rawValue + 4).contains($0) }, "\(field)")
                base.storeBytes(of: 0, toByteOffset: start + field.rawValue, as: UInt32.self)
            }
            // The named readers read the same bytes.
            base.storeBytes(of: 7, toByteOffset: start + R.Field.generation.rawValue, as: UInt32.self)
            base.storeBytes(of: UInt32(bitPattern: -2), toByteOffset: start + R.Field.pid.rawValue, as: UInt32.self)
            #expect(records.generation(of: process) == 7 && records.pid(of: process) == -2)
            // The mutex is the one at the record's start: held through the raw offset, the
            // record reads as live.
            base.storeBytes(of: 1, toByteOffset: start + R.Field.inUse.rawValue, as: UInt32.self)
            _ = try SharedMutex(at: base + start + R.Field.mutex.rawValue).lock(timeout: 1)
            #expect(records.isLive(process))
            records.mutex(process).unlock()
            #expect(!records.isLive(process))
        }
    }

    @Test func claimTakesRecordsNotOwnedByALiveProcess() throws {
        try withTable { base, records in
            // Nothing held: the first record, first generation, this pid, in use.
            let first = try #require(records.claim())
            #expect(first.process == 0 && first.generation == 1)
            #expect(records.pid(of: 0) == CurrentProcess.id)
            #expect(records.word(.inUse, of: 0).load(ordering: .relaxed) == 1)
            _ = try records.mutex(0).lock(timeout: 1)
            #expect(records.isLive(0) && records.isLive(0, generation: 1))
            #expect(!records.isLive(0, generation: 2) && !records.isLive(-1, generation: 1) && !records.isLive(R.count, generation: 1))
            // A held record is skipped; an overflow flag left by the last owner is cleared.
            records.word(.overflow, of: 1).store(1, ordering: .relaxed)
            // (No `#require` while a mutex is held: a throw would free memory still on this
            // thread's robust list.)
            let second = records.claim()
            #expect(second?.process == 1 && second?.generation == 1)
            #expect(records.word(.overflow, of: 1).load(ordering: .relaxed) == 0)
            // Its owner gone (the mutex free): not live, freed on the way, claimed again in a
            // new generation under a new mailbox name.
            records.mutex(0).unlock()
            #expect(!records.isLive(0, generation: 1))
            #expect(records.word(.inUse, of: 0).load(ordering: .relaxed) == 0)
            let again = try #require(records.claim())
            #expect(again.process == 0 && again.generation == 2)
            #expect(records.mailboxName(process: 0, generation: 2) == Array("di-test/abc/0.2".utf8))
            // Every record held: no claim.
            for process in 0..<R.count { _ = try records.mutex(process).lock(timeout: 1) }
            for process in 0..<R.count { base.storeBytes(of: 1, toByteOffset: R.offset + process * R.size + R.Field.inUse.rawValue, as: UInt32.self) }
            #expect(records.claim() == nil)
            for process in 0..<R.count { records.mutex(process).unlock() }
        }
    }
}
