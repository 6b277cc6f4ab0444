import Testing
@testable import Notifications
import SystemCalls

/// The shared table's named fields (``NotificationTable/SlotField``, ``NotificationTable/RecordField``)
/// fit their slot and record without overlapping: a field moved onto another, or past the end,
/// fails here before two processes disagree about the table. (Every field is written and read
/// back by real processes in the other notification tests.)
@Suite struct NotificationTableLayoutTests {
    @Test func slotFieldsFitAndDoNotOverlap() {
        typealias T = NotificationTable
        let sizes: [T.SlotField: Int] = [.counter: 8, .state: 8, .hash: 8, .length: 4, .inUse: 4,
                                         .holders: 8 * T.holdersPerName, .name: NotificationName.maximumLength]
        let spans = T.SlotField.allCases.map { ($0.rawValue, $0.rawValue + sizes[$0]!) }.sorted { $0.0 < $1.0 }
        for (a, b) in zip(spans, spans.dropFirst()) { #expect(a.1 <= b.0, "\(a) overlaps \(b)") }
        #expect(spans.last!.1 <= T.slotSize)
        #expect(T.SlotField.allCases.allSatisfy { $0.rawValue % ($0 == .name ? 1 : 4) == 0 })
    }

    @Test func recordFieldsFitAndDoNotOverlap() {
        typealias T = NotificationTable
        let mutexEnd = T.RecordField.generation.rawValue
        let spans = [(T.RecordField.mutex.rawValue, mutexEnd)] + T.RecordField.allCases.filter { $0 != .mutex }.map { ($0.rawValue, $0.rawValue + 4) }
        let sorted = spans.sorted { $0.0 < $1.0 }
        for (a, b) in zip(sorted, sorted.dropFirst()) { #expect(a.1 <= b.0, "\(a) overlaps \(b)") }
        #expect(sorted.last!.1 <= T.processRecordSize)
        #expect(SharedMutex.size <= mutexEnd)
    }
}
