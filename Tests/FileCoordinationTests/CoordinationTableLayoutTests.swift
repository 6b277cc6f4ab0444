import Testing
@testable import FileCoordination
import SystemCalls

/// The coordination table's named fields fit their claim and presenter without overlapping, the
/// header's past the shared prefix, and each part starts where layout version 1 says (every
/// field is written and read back by real processes in the other coordination tests; the
/// process records are ProcessTablesTests').
@Suite struct CoordinationTableLayoutTests {
    typealias T = CoordinationTable

    func expectDisjoint(_ spans: [(Int, Int)], within size: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let sorted = spans.sorted { $0.0 < $1.0 }
        for (a, b) in zip(sorted, sorted.dropFirst()) { #expect(a.1 <= b.0, "\(a) overlaps \(b)", sourceLocation: sourceLocation) }
        #expect(sorted.last!.1 <= size, sourceLocation: sourceLocation)
    }

    @Test func fieldsFitAndDoNotOverlap() {
        let hashes = 32 * 8
        expectDisjoint([(T.ClaimField.mutex.rawValue, T.ClaimField.inUse.rawValue)] + [
            (T.ClaimField.inUse.rawValue, 44), (T.ClaimField.kind.rawValue, 48), (T.ClaimField.ticket.rawValue, 56),
            (T.ClaimField.pid.rawValue, 60), (T.ClaimField.depth.rawValue, 64), (T.ClaimField.thread.rawValue, 72),
            (T.ClaimField.hashes.rawValue, T.ClaimField.hashes.rawValue + hashes),
        ], within: T.claimSize)
        #expect(SharedMutex.size <= T.ClaimField.inUse.rawValue)
        expectDisjoint([(0, 4), (4, 8), (8, 12), (12, 16), (16, 24), (T.PresenterField.hashes.rawValue, T.PresenterField.hashes.rawValue + hashes)],
                       within: T.presenterSize)
        // The header ends where the process records start, at 4096.
        expectDisjoint([(128, 136), (136, 140), (140, 144), (144, 148), (148, 152)], within: 4096)
        #expect(T.HeaderField.allCases.map(\.rawValue) == [128, 136, 140, 144, 148])
        #expect(T.PresenterField.allCases.map(\.rawValue) == [0, 4, 8, 12, 16, 24])
        #expect(T.claimsOffset == 69_632 && T.presentersOffset == 241_664)
    }
}
