import Foundation
import AppInterchange
import Handoff
import Nearby
import PropertyLists
import Synchronization
import SystemCalls
import TestHelpers
import Testing

/// Handoff between devices, the receiver's side (docs/handoff.md): a paired device watching this
/// device's activities gets each offer as it is made and withdrawn, byte-identical; a device this
/// one has not paired is refused and told nothing; a paired device that continued an activity
/// tells the offering app, and carries continuation streams to it both ways, each side's end (or
/// death) reaching the other. (Across network namespaces with real processes: HandoffLabTests.)
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

    /// An offering app in this process: its endpoint answering with `handler`, and its offer of
    /// `type` (with streams) on `device`'s board.
    static func offering(on device: Device, type: String, bundle: String, _ handler: @escaping @Sendable (ContinuationEndpoint.Request) -> Void) throws
        -> (CurrentActivities, ContinuationEndpoint, ActivityOffer, Publication) {
        let board = CurrentActivities(root: device.root.path)
        let pid = ProcessInfo.processInfo.processIdentifier
        let endpoint = try ContinuationEndpoint(board: board, processIdentifier: pid, handler: handler)
        let offer = ActivityOffer(activityType: type, bundleIdentifier: bundle, userInfo: .dictionary([:]), supportsContinuationStreams: true, processIdentifier: pid)
        return (board, endpoint, offer, try board.publish(offer))
    }

    @Test func theOfferingAppIsToldAndGetsStreamsThatEndOrBreakOnBothSides() async throws {
        let a = try Device(), b = try Device(), c = try Device()
        try a.pair(with: b, as: "b"); try b.pair(with: a, as: "a")
        try c.pair(with: a, as: "a")
        // The offering app: its endpoint records what reaches it and answers each stream by
        // echoing it back doubled, then closing its side.
        let told = Mutex<[Double]>([])
        let (board, endpoint, offer, publication) = try Self.offering(on: a, type: "com.example.contacts.list", bundle: "com.example.contacts") { request in
            switch request {
            case .continued(let time): told.withLock { $0.append(time) }
            case .streams(_, let channel):
                var received: [UInt8] = []
                while case .data(let bytes)? = try? channel.read() { received += bytes }
                try? channel.write(.data(received + received))
                try? channel.write(.finished)
                channel.close()
            }
        }
        defer { endpoint.close(); publication.withdraw() }
        try await TransferTests.withReceiver(a, executor: Self.executor) { port, events in
            let target = SendTarget(host: "127.0.0.1", port: port, expected: a.identity.fingerprint)
            try await ContinuationClient(root: b.root).tellContinued(offer.identity, on: target)
            // Acknowledged once the process has it; its handler runs on a thread of its own.
            #expect(await eventually(10) { told.withLock { $0 } == [offer.madeCurrent] })
            // An activity no longer offered (another time) is refused, and the app is not told.
            var stale = offer
            stale.madeCurrent += 1
            let staleRefusal = await #expect(throws: NearbyError.self) { try await ContinuationClient(root: b.root).tellContinued(stale.identity, on: target) }
            #expect("\(staleRefusal.map { "\($0)" } ?? "")".contains("com.example.contacts no longer offers that activity"), "\(String(describing: staleRefusal))")
            #expect(told.withLock { $0 }.count == 1)

            // Streams: the continuing app's end is a local socket pair, as the helper has it.
            let (app, helper) = try StreamSocket.pair()
            let appSide = ContinuationChannel(app)
            let relay = Task(executorPreference: Self.executor) {
                try await ContinuationClient(root: b.root).relayStreams(of: offer.identity, on: target, local: ContinuationChannel(helper)) {}
            }
            let payload = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let (back, ended) = try await TestSupport.offPool {
                try appSide.write(.data(Array(payload[..<100_000])))
                try appSide.write(.data(Array(payload[100_000...])))
                try appSide.write(.finished)
                // The app closes its end once it has read everything, as its streams do.
                defer { appSide.close() }
                var back: [UInt8] = []
                while let frame = try appSide.read() {
                    if case .data(let bytes) = frame { back += bytes }
                    if frame == .finished { return (back, true) }
                }
                return (back, false)
            }
            #expect(ended && back == payload + payload, "\(back.count) bytes back; the receiver: \(events.all)")
            try await relay.value

            // An app that supports no streams is refused; so is a device A has not paired.
            var plain = offer
            plain.supportsContinuationStreams = false
            let noStreams = try board.publish(plain, replacing: publication)
            defer { noStreams.withdraw() }
            let (other, otherHelper) = try StreamSocket.pair()
            _ = other
            let streamsRefusal = await #expect(throws: NearbyError.self) {
                try await ContinuationClient(root: b.root).relayStreams(of: plain.identity, on: target, local: ContinuationChannel(otherHelper)) {}
            }
            #expect("\(streamsRefusal.map { "\($0)" } ?? "")".contains("does not support continuation streams"), "\(String(describing: streamsRefusal))")
            await #expect(throws: NearbyError.self) { try await ContinuationClient(root: c.root).tellContinued(plain.identity, on: target) }
        }
    }

    @Test func anAppThatDiesMidStreamEndsTheOtherSideWithAnError() async throws {
        let a = try Device(), b = try Device()
        try a.pair(with: b, as: "b"); try b.pair(with: a, as: "a")
        // The offering app reads one frame, then its connection goes without a finished frame.
        let (_, endpoint, offer, publication) = try Self.offering(on: a, type: "com.example.contacts.list", bundle: "com.example.contacts") { request in
            guard case .streams(_, let channel) = request else { return }
            _ = try? channel.read()
            channel.close()
        }
        defer { endpoint.close(); publication.withdraw() }
        try await TransferTests.withReceiver(a, executor: Self.executor) { port, _ in
            let target = SendTarget(host: "127.0.0.1", port: port, expected: a.identity.fingerprint)
            let (app, helper) = try StreamSocket.pair()
            let appSide = ContinuationChannel(app)
            let relay = Task(executorPreference: Self.executor) {
                try await ContinuationClient(root: b.root).relayStreams(of: offer.identity, on: target, local: ContinuationChannel(helper)) {}
            }
            // The continuing app reads the end of its connection, with no finished frame: an error.
            let after = try await TestSupport.offPool {
                try appSide.write(.data([1, 2, 3]))
                return try appSide.read()
            }
            #expect(after == nil)
            await #expect(throws: NearbyError.self) { try await relay.value }
        }
    }

    /// The same streams as Swift concurrency sees them (AppInterchange): the continuing app, a
    /// real InterchangeApp on B, opens them through the real `nearby streams` helper.
    @Test func anAppOpensStreamsAsAnAsyncSequenceAndAWriter() async throws {
        let a = try Device(), b = try Device()
        try a.pair(with: b, as: "b"); try b.pair(with: a, as: "a")
        let (_, endpoint, offer, publication) = try Self.offering(on: a, type: "com.example.notes.editing", bundle: "com.example.notes") { request in
            guard case .streams(_, let channel) = request else { return }
            var received: [UInt8] = []
            while case .data(let bytes)? = try? channel.read() { received += bytes }
            try? channel.write(.data(received.reversed()))
            try? channel.write(.finished)
            channel.close()
        }
        defer { endpoint.close(); publication.withdraw() }
        // The helper is found on PATH, as an installed nearby is.
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        if !path.split(separator: ":").contains(Substring(TestSupport.productsDirectory.path)) {
            setenv("PATH", TestSupport.productsDirectory.path + ":" + path, 1)
        }
        try await TransferTests.withReceiver(a, executor: Self.executor) { port, _ in
            let app = try InterchangeApp(bundleIdentifier: "com.example.notes", root: b.root)
            let streams = try await app.openStreams(for: IncomingActivity(offer: offer, originDevice: "127.0.0.1:\(port)"))
            defer { streams.close() }
            let payload = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            try await streams.write(Array(payload[..<50_000]))
            try await streams.write(Array(payload[50_000...]))
            try await streams.finish()
            var back: [UInt8] = []
            for try await chunk in streams.incoming { back += chunk }
            streams.close()
            #expect(back == payload.reversed())
            // An activity that supports no streams is refused before any helper starts.
            var plain = offer
            plain.supportsContinuationStreams = false
            await #expect(throws: InterchangeError.activity(.streams("com.example.notes.editing does not support continuation streams"))) {
                try await app.openStreams(for: IncomingActivity(offer: plain, originDevice: "127.0.0.1:\(port)"))
            }
        }
    }

    /// The offering side as Swift concurrency sees it (AppInterchange): a real InterchangeApp on
    /// A makes an activity current, is told when B continues it, and gets B's streams as an event;
    /// B's app opens them through the real helper. One current activity per app: a second one
    /// takes the first's place, and a request for the first is refused.
    @Test func anOfferingAppGetsContinuedAndStreamsAsEvents() async throws {
        let a = try Device(), b = try Device()
        try a.pair(with: b, as: "b"); try b.pair(with: a, as: "a")
        let offering = try InterchangeApp(bundleIdentifier: "com.example.notes", root: a.root)
        let board = CurrentActivities(root: a.root.path)
        let first = try offering.becomeCurrent(UserActivity(activityType: "com.example.notes.editing", title: "Draft",
                                                            userInfo: ["note": .string("draft")], supportsContinuationStreams: true))
        #expect(first.warnings.isEmpty && first.isCurrent)
        // Offered on A's device as made: what paired devices get.
        #expect(board.live().filter { $0.bundleIdentifier == "com.example.notes" } == [first.offer])
        let current = try offering.becomeCurrent(UserActivity(activityType: "com.example.notes.editing", title: "Shopping list",
                                                              userInfo: ["lines": .array([.string("milk")])], supportsContinuationStreams: true))
        #expect(!first.isCurrent && current.isCurrent)
        #expect(board.live().filter { $0.bundleIdentifier == "com.example.notes" } == [current.offer])
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        if !path.split(separator: ":").contains(Substring(TestSupport.productsDirectory.path)) {
            setenv("PATH", TestSupport.productsDirectory.path + ":" + path, 1)
        }
        // The offering app answers each stream by echoing it reversed, as an app would.
        let answering = Task {
            var told = 0
            for await event in current.events {
                switch event {
                case .continued: told += 1
                case .streams(let streams):
                    var received: [UInt8] = []
                    for try await chunk in streams.incoming { received += chunk }
                    try await streams.write(received.reversed())
                    try await streams.finish()
                    streams.close()
                    return told
                }
            }
            return told
        }
        try await TransferTests.withReceiver(a, executor: Self.executor) { port, events in
            let target = SendTarget(host: "127.0.0.1", port: port, expected: a.identity.fingerprint)
            try await ContinuationClient(root: b.root).tellContinued(current.offer.identity, on: target)
            // The activity that is no longer current is not told: it was replaced.
            await #expect(throws: NearbyError.self) { try await ContinuationClient(root: b.root).tellContinued(first.offer.identity, on: target) }
            let continuing = try InterchangeApp(bundleIdentifier: "com.example.notes", root: b.root)
            let streams = try await continuing.openStreams(for: IncomingActivity(offer: current.offer, originDevice: "127.0.0.1:\(port)"))
            defer { streams.close() }
            let payload = (0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
            try await streams.write(payload)
            try await streams.finish()
            var back: [UInt8] = []
            for try await chunk in streams.incoming { back += chunk }
            #expect(back == payload.reversed(), "\(back.count) bytes back; the receiver: \(events.all)")
            #expect(try await answering.value == 1)
        }
        current.resignCurrent()
        #expect(!current.isCurrent && board.live().filter { $0.bundleIdentifier == "com.example.notes" }.isEmpty)
        // Over the limit: refused with the size, and nothing offered.
        let big = UserActivity(activityType: "com.example.notes.editing", userInfo: ["payload": .data([UInt8](repeating: 1, count: UserInfoSize.limit))])
        let size = UserInfoSize.size(of: .dictionary(["payload": .data([UInt8](repeating: 1, count: UserInfoSize.limit))]))
        #expect(throws: InterchangeError.activity(.tooLarge(size))) { try offering.becomeCurrent(big) }
        #expect(board.live().filter { $0.bundleIdentifier == "com.example.notes" }.isEmpty)
        // A type the app does not declare is offered, with a warning that says so.
        let odd = try offering.becomeCurrent(UserActivity(activityType: "com.example.notes.browsing"))
        defer { odd.resignCurrent() }
        #expect(odd.warnings == ["com.example.notes.browsing is not in com.example.notes's NSUserActivityTypes: no device can continue it"])
    }

    /// A stream that carries nothing for longer than the receiver's idle timeout stays open (the
    /// relays' heartbeats), and one whose other device goes silent without closing ends with an
    /// error on the app's side (the silence limit), never a wait. Timings scaled down: idle 3 s,
    /// a heartbeat every 0.5 s (idle 1 s and 0.2 s ended the quiet stream in a loaded full suite).
    @Test func aQuietStreamOutlivesTheIdleTimeoutAndASilentDeviceEndsIt() async throws {
        let a = try Device(), b = try Device()
        try a.pair(with: b, as: "b"); try b.pair(with: a, as: "a")
        // The offering app thinks for 7 s (over two idle timeouts) before it reads and answers.
        let (_, endpoint, offer, publication) = try Self.offering(on: a, type: "com.example.notes.editing", bundle: "com.example.notes") { request in
            guard case .streams(_, let channel) = request else { return }
            Thread.sleep(forTimeInterval: 7)
            var received: [UInt8] = []
            while case .data(let bytes)? = try? channel.read() { received += bytes }
            try? channel.write(.data(received))
            try? channel.write(.finished)
            // And waits for the relay to close first, as an app that never closes its input
            // stream does: the relay waits for it no longer than its close wait (10 s).
            _ = try? channel.read()
            channel.close()
        }
        defer { endpoint.close(); publication.withdraw() }
        try await TransferTests.withReceiver(a, executor: Self.executor, configure: { $0.idleTimeout = 3; $0.streamHeartbeat = 0.5 }) { port, events in
            let target = SendTarget(host: "127.0.0.1", port: port, expected: a.identity.fingerprint)
            func relay(heartbeat: Double) throws -> (ContinuationChannel, Task<Void, any Error>) {
                let (app, helper) = try StreamSocket.pair()
                var client = ContinuationClient(root: b.root)
                client.streamHeartbeat = heartbeat
                let task = Task(executorPreference: Self.executor) {
                    try await client.relayStreams(of: offer.identity, on: target, local: ContinuationChannel(helper)) {}
                }
                return (ContinuationChannel(app), task)
            }
            let (quiet, quietRelay) = try relay(heartbeat: 0.5)
            let (back, finished) = try await TestSupport.offPool {
                try quiet.write(.data([1, 2, 3]))
                try quiet.write(.finished)
                defer { quiet.close() }
                var back: [UInt8] = []
                while let frame = try quiet.read() {
                    if case .data(let bytes) = frame { back += bytes }
                    if frame == .finished { return (back, true) }
                }
                return (back, false)
            }
            #expect(finished && back == [1, 2, 3], "the receiver: \(events.all)")
            try await quietRelay.value

            // This device's relay stays silent (a heartbeat every 100 s): A's takes it for gone
            // after three of its own heartbeats, and the app here reads the end without a finish.
            let (silent, silentRelay) = try relay(heartbeat: 100)
            let ended = try await TestSupport.offPool { () throws -> ContinuationFrame? in
                try silent.write(.data([4]))
                return try silent.read()
            }
            #expect(ended == nil)
            await #expect(throws: (any Error).self) { try await silentRelay.value }
        }
    }
}
