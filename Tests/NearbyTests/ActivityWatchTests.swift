import Foundation
import Handoff
import Nearby
import PropertyLists
import Synchronization
import TestHelpers
import Testing

/// Handoff between devices, the receiver's side (docs/handoff.md): a paired device watching this
/// device's activities gets each offer as it is made and withdrawn, byte-identical; a device this
/// one has not paired is refused and told nothing. (Across network namespaces with real
/// processes, and the figures: not built yet.)
@Suite(.serialized) struct ActivityWatchTests {
    typealias Device = TransferTests.Device
    /// Its own thread: on the shared one, a test of another suite that blocks it stalled this
    /// test's receiver and watcher for more than 30 s in the full suite.
    static let executor = ThreadExecutor.dedicated("activity-watch-tests")

    @Test func aPairedDeviceSeesOffersComeAndGoAndAnUnpairedOneNothing() async throws {
        let a = try Device(), b = try Device(), c = try Device()
        try a.pair(with: b, as: "b"); try b.pair(with: a, as: "a")
        try c.pair(with: a, as: "a")  // C knows A; A has not paired C
        let board = CurrentActivities(root: a.root.path)
        let offer = ActivityOffer(activityType: "com.example.notes.editing", bundleIdentifier: "com.example.notes", title: "Shopping list",
                                  userInfo: .dictionary(["lines": .array([.string("milk"), .string("bread")]), "cursor": .integer(7)]),
                                  webpageURL: "https://example.com/notes/1", processIdentifier: ProcessInfo.processInfo.processIdentifier)
        try await TransferTests.withReceiver(a, mode: .everyone, executor: Self.executor) { port, _ in
            let target = SendTarget(host: "127.0.0.1", port: port, expected: a.identity.fingerprint)
            let seen = Mutex<[[ActivityOffer]]>([])
            let watching = Task(executorPreference: Self.executor) {
                try await ActivityWatcher(root: b.root).watch(target) { offers in
                    seen.withLock { $0.append(offers) }
                    return seen.withLock { $0.count } < 3
                }
            }
            #expect(await eventually(30) { seen.withLock { $0.count } == 1 })
            let publication = try board.publish(offer)
            #expect(await eventually(30) { seen.withLock { $0.count } == 2 })
            publication.withdraw()
            try await watching.value
            let views = seen.withLock { $0 }
            #expect(views.count == 3 && views[0].isEmpty && views[2].isEmpty)
            // What arrived is what was offered, userInfo and all, byte for byte.
            #expect(views[1] == [offer])
            #expect(views[1].first?.encoded() == offer.encoded())

            // C connects (everyone-mode lets its certificate in) and is refused before anything is read.
            let shown = Mutex(0)
            let refusal = await #expect(throws: NearbyError.self) {
                try await ActivityWatcher(root: c.root).watch(target) { _ in shown.withLock { $0 += 1 }; return false }
            }
            #expect("\(refusal.map { "\($0)" } ?? "")".contains("offers its activities to paired devices only"), "\(String(describing: refusal))")
            #expect(shown.withLock { $0 } == 0)
        }
        // In paired mode C does not get past the handshake.
        try await TransferTests.withReceiver(a, executor: Self.executor) { port, events in
            await #expect(throws: NearbyError.self) {
                try await ActivityWatcher(root: c.root).watch(SendTarget(host: "127.0.0.1", port: port, expected: a.identity.fingerprint)) { _ in false }
            }
            #expect(await eventually(10) { events.refusals == 1 })
        }
    }
}
