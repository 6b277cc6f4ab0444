import Testing
@testable import Notifications

/// The shared table's named slot fields (``NotificationTable/SlotField``) fit their slot without
/// overlapping, and its parts start where layout version 1 says: a field moved onto another, or
/// past the end, fails here before two processes disagree about the table. (Every field is
/// written and read back by real processes in the other notification tests; the process records
/// are ProcessTablesTests'.)
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

    @Test func partsStartWhereVersionOneSays() {
        typealias T = NotificationTable
        #expect(T.bucketsOffset == 69_632)
        #expect(T.slotsOffset == 102_400)
        #expect(T.size == 102_400 + 4096 * 1088)
    }
}
