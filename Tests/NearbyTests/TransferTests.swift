import AppRegistry
import Foundation
@testable import Nearby
import NIOCore
import NIOPosix
import NIOSSL
import OpenRequests
import PropertyLists
import Synchronization
import SystemCalls
import TestHelpers
import Testing

/// Whole sessions over real TLS on the loopback interface, between device roots copied from
/// Samples/: what is delivered where, and who is let in. (The same across network namespaces,
/// with real processes and kill -9: NearbyLabTests.)
@Suite(.serialized) struct TransferTests {
    /// A device root with its identity.
    struct Device {
        let root: DeviceRoot
        let folder: NearbyFolder
        let identity: DeviceIdentity

        init() throws {
            root = DeviceRoot(path: try TestSupport.sampleDevice().path)
            folder = NearbyFolder(root: root)
            identity = try DeviceIdentity.loadOrCreate(in: folder)
        }

        func pair(with other: Device, as name: String) throws {
            var paired = try PairedDevices.load(from: folder)
            paired.pin(PairedDevice(name: name, fingerprint: other.identity.fingerprint, pairedAt: 0))
            try paired.save(to: folder)
        }

        var downloads: String { root.path + "/Downloads" }
        func inbox(_ app: String) -> String { root.path + "/Containers/\(app)/Documents/Inbox" }
        func requests(_ app: String) -> String { root.path + "/Containers/\(app)/Library/OpenRequests" }
    }

    /// Events a receiver reported.
    final class Events: Sendable {
        let list = Mutex<[ReceiverEvent]>([])
        var all: [ReceiverEvent] { list.withLock { $0 } }
        func add(_ event: ReceiverEvent) { list.withLock { $0.append(event) } }
        var refusals: Int { all.filter { if case .refusedPeer = $0 { true } else { false } }.count }
    }

    /// Runs `body` with a receiver for `device` on a free loopback port.
    /// `executor`: where the receiver and `body` run (``ThreadExecutor/shared`` unless the test has its own).
    static func withReceiver<R>(_ device: Device, mode: ReceiveMode = .paired, autoAccept: Bool = false,
                                prompt: (@Sendable (IncomingAsk) async -> Bool)? = nil,
                                executor: ThreadExecutor = .shared,
                                configure: (inout ReceiverConfiguration) -> Void = { _ in },
                                _ body: (Int, Events) async throws -> R) async throws -> R {
        var configuration = ReceiverConfiguration(root: device.root, mode: mode, downloads: device.downloads)
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.autoAccept = autoAccept
        configuration.launchApps = false
        configure(&configuration)
        let events = Events()
        // Receiver and body on a thread of their own (ThreadExecutor says why).
        return try await withTaskExecutorPreference(executor) {
            let receiver = try await NearbyReceiver(configuration, prompt: prompt) { events.add($0) }
            let task = Task(executorPreference: executor) { try await receiver.run() }
            defer { task.cancel() }
            return try await body(receiver.port, events)
        }
    }

    static func sample(_ name: String) -> String { TestSupport.packageRoot.appendingPathComponent("Samples/Documents/\(name)").path }

    @Test func aPairedDeviceSendsIntoTheNamedAppsInboxWithAnOpenRequest() async throws {
        let a = try Device(), b = try Device()
        try a.pair(with: b, as: "b"); try b.pair(with: a, as: "a")
        let item = try OutgoingItem(path: Self.sample("notes.txt"), type: "public.plain-text")
        let report = try await Self.withReceiver(b) { port, _ in
            try await NearbySender(root: a.root, deviceName: "Ann's laptop", senderApp: "com.example.mail")
                .send([item], to: SendTarget(host: "127.0.0.1", port: port, expected: b.identity.fingerprint), targetApp: "com.example.notes")
        }
        #expect(report.complete && report.destinations == ["com.example.notes"])
        #expect(report.bytesSent == item.size && report.bytesResumed == 0)
        let delivered = b.inbox("com.example.notes") + "/notes.txt"
        #expect(FileManager.default.contents(atPath: delivered) == FileManager.default.contents(atPath: Self.sample("notes.txt")))
        let requests = try FileManager.default.contentsOfDirectory(atPath: b.requests("com.example.notes"))
        #expect(requests.count == 1)
        let request = try OpenRequest.read(b.requests("com.example.notes") + "/" + requests[0])
        #expect(request.documentPath == delivered)
        #expect(request.sourceApplication == "com.example.mail")
        #expect(request.documentType == "public.plain-text")
        guard case .dictionary(let top)? = request.annotation, case .dictionary(let nearby)? = top["Nearby"] else {
            Issue.record("no Nearby annotation: \(String(describing: request.annotation))"); return
        }
        #expect(nearby["SenderName"] == .string("Ann's laptop"))
        #expect(nearby["PairedDevice"] == .string("a"))
        #expect(nearby["Fingerprint"] == .string(a.identity.fingerprint.hex))
        // Delivered: the spool keeps only the markers that answer a retry and the record of the
        // move (no bytes); the sender's outbox note is gone.
        let kept = try FileManager.default.subpathsOfDirectory(atPath: b.folder.spool).filter {
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: b.folder.spool + "/" + $0, isDirectory: &isFolder) && !isFolder.boolValue
        }
        #expect(kept.count == 3 && kept.allSatisfy { $0.hasSuffix("/.delivered") || $0.hasSuffix("/.lock") || $0.hasSuffix("/.moving") }, "\(kept)")
        let sizes = try kept.map { try FileManager.default.attributesOfItem(atPath: b.folder.spool + "/" + $0)[.size] as? Int ?? 0 }
        #expect(sizes.allSatisfy { $0 < 1024 }, "\(sizes)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: a.folder.path + "/Outbox"))?.isEmpty ?? true)
    }

    @Test func withoutANamedAppTheTypesFirstAppTakesItAndUnclaimedItemsGoToDownloads() async throws {
        let a = try Device(), b = try Device()
        try a.pair(with: b, as: "b"); try b.pair(with: a, as: "a")
        // Files.app takes any data (public.data): without it, nothing claims the odd type.
        try FileManager.default.removeItem(atPath: b.root.path + "/Apps/Files.app")
        let png = try OutgoingItem(path: Self.sample("photo.png"), type: "public.png")
        let dir = try TestSupport.temporaryDirectory()
        let odd = dir.appendingPathComponent("../../evil.weird").standardizedFileURL
        try Data("not claimed by anyone".utf8).write(to: dir.appendingPathComponent("blob.weird"))
        var blob = try OutgoingItem(path: dir.appendingPathComponent("blob.weird").path, type: "dyn.ah62d4rv4ge80e5pe")
        blob.name = "../../" + odd.lastPathComponent
        let report = try await Self.withReceiver(b) { port, _ in
            try await NearbySender(root: a.root, deviceName: "a", senderApp: "com.example.mail")
                .send([png, blob], to: SendTarget(host: "127.0.0.1", port: port, expected: nil))
        }
        #expect(report.destinations == ["com.example.photos", "downloads"])
        #expect(FileManager.default.fileExists(atPath: b.inbox("com.example.photos") + "/photo.png"))
        // The sender's "../../evil.weird" is a name in the download folder, nothing more.
        #expect(try FileManager.default.contentsOfDirectory(atPath: b.downloads) == ["_._.._evil.weird"])
        #expect(!FileManager.default.fileExists(atPath: b.root.path + "/../evil.weird"))
    }

    /// An item only an app that opens documents in place takes (the sample Files app: any data)
    /// goes into that app's Inbox like any other: a received item has no place of its own. Its
    /// request pointed into the spool, whose file is removed once delivered (the LocalSend lab
    /// lost a file this way).
    @Test func anItemForAnAppThatOpensDocumentsInPlaceLandsInItsInbox() async throws {
        let a = try Device(), b = try Device()
        try a.pair(with: b, as: "b"); try b.pair(with: a, as: "a")
        let dir = try TestSupport.temporaryDirectory()
        let bytes = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try bytes.write(to: dir.appendingPathComponent("blob.bin"))
        let blob = try OutgoingItem(path: dir.appendingPathComponent("blob.bin").path, type: "public.data")
        let report = try await Self.withReceiver(b) { port, _ in
            try await NearbySender(root: a.root, deviceName: "a", senderApp: "com.example.mail")
                .send([blob], to: SendTarget(host: "127.0.0.1", port: port, expected: nil))
        }
        #expect(report.destinations == ["com.example.files"])
        #expect(FileManager.default.contents(atPath: b.inbox("com.example.files") + "/blob.bin") == bytes)
        let requests = b.root.path + "/Containers/com.example.files/Library/OpenRequests"
        let request = try OpenRequest.read(requests + "/" + #require(try FileManager.default.contentsOfDirectory(atPath: requests).first))
        #expect(request.documentPath == b.inbox("com.example.files") + "/blob.bin" && !request.opensInPlace)
    }

    @Test func anUnpairedSenderGetsNothingInPairedMode() async throws {
        let a = try Device(), b = try Device()
        try a.pair(with: b, as: "b")  // a pins b, but b has not paired a
        let item = try OutgoingItem(path: Self.sample("notes.txt"), type: "public.plain-text")
        try await Self.withReceiver(b) { port, events in
            await #expect(throws: NearbyError.self) {
                try await NearbySender(root: a.root, deviceName: "a", senderApp: "x").send([item], to: SendTarget(host: "127.0.0.1", port: port, expected: nil))
            }
            #expect(await eventually(120) { events.refusals == 1 })
            #expect(!events.all.contains { if case .asked = $0 { true } else { false } })
        }
        #expect(!FileManager.default.fileExists(atPath: b.inbox("com.example.notes")))
        #expect((try? FileManager.default.contentsOfDirectory(atPath: b.folder.spool))?.isEmpty ?? true)
    }

    @Test func aReceiverWhoseCertificateIsNotThePinIsRefusedBeforeTheAsk() async throws {
        let a = try Device(), b = try Device(), c = try Device()
        try a.pair(with: b, as: "b"); try b.pair(with: a, as: "a")
        try c.pair(with: a, as: "a")
        let item = try OutgoingItem(path: Self.sample("notes.txt"), type: "public.plain-text")
        // c answers where a expects b.
        try await Self.withReceiver(c) { port, events in
            await #expect {
                try await NearbySender(root: a.root, deviceName: "a", senderApp: "x")
                    .send([item], to: SendTarget(host: "127.0.0.1", port: port, expected: b.identity.fingerprint))
            } throws: { error in
                guard case NearbyError.pinMismatch(let expected, let got) = error else { return false }
                return expected == b.identity.fingerprint && got == c.identity.fingerprint
            }
            #expect(!events.all.contains { if case .asked = $0 { true } else { false } })
        }
        #expect(!FileManager.default.fileExists(atPath: c.inbox("com.example.notes")))
    }

    @Test func everyoneModeAsksAboutAnUnpairedSenderAndHonoursTheAnswer() async throws {
        let a = try Device(), b = try Device()
        let item = try OutgoingItem(path: Self.sample("notes.txt"), type: "public.plain-text")
        let asked = Mutex<[String]>([])
        for answer in [false, true] {
            try await Self.withReceiver(b, mode: .everyone, prompt: { ask in
                asked.withLock { $0.append(ask.senderName) }
                return answer
            }) { port, _ in
                let send = { try await NearbySender(root: a.root, deviceName: "stranger", senderApp: "x")
                    .send([item], to: SendTarget(host: "127.0.0.1", port: port, expected: b.identity.fingerprint)) }
                if answer {
                    let report = try await send()
                    #expect(report.complete)
                } else {
                    await #expect { try await send() } throws: { if case NearbyError.declined = $0 { true } else { false } }
                }
            }
        }
        #expect(asked.withLock { $0 } == ["stranger", "stranger"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: b.inbox("com.example.notes")) == ["notes.txt"])
    }

    /// A person may take longer than either side's idle timeout: the receiver says it is still
    /// asking, the sender waits (and says so), and the answer still counts. A receiver that keeps
    /// saying so holds the sender no longer than its patience.
    @Test func aPersonTakingTheirTimeEndsNothingButPatienceIsBounded() async throws {
        let a = try Device(), b = try Device()
        let item = try OutgoingItem(path: Self.sample("notes.txt"), type: "public.plain-text")
        var sender = NearbySender(root: a.root, deviceName: "stranger", senderApp: "x")
        // Idle timeouts of 3 s against a person taking 7 s; the receiver speaks every 0.3 s (a
        // 1 s idle timeout was missed under the full suite's load).
        sender.idleTimeout = 3
        let slow: @Sendable (Double) -> @Sendable (IncomingAsk) async -> Bool = { seconds in
            { _ in try? await Task.sleep(for: .seconds(seconds)); return true }
        }
        let waits = Mutex(0)
        try await Self.withReceiver(b, mode: .everyone, prompt: slow(7), configure: {
            $0.idleTimeout = 3
            $0.askingInterval = 0.3
        }) { port, _ in
            let report = try await sender.send([item], to: SendTarget(host: "127.0.0.1", port: port, expected: b.identity.fingerprint)) {
                if case .waiting = $0 { waits.withLock { $0 += 1 } }
            }
            #expect(report.complete)
        }
        #expect(waits.withLock { $0 } >= 10)
        #expect(try FileManager.default.contentsOfDirectory(atPath: b.inbox("com.example.notes")) == ["notes.txt"])
        sender.answerPatience = 1
        try await Self.withReceiver(b, mode: .everyone, prompt: slow(30), configure: { $0.askingInterval = 0.3 }) { port, _ in
            let started = Clock.monotonic()
            await #expect { try await sender.send([item], to: SendTarget(host: "127.0.0.1", port: port, expected: b.identity.fingerprint)) }
                throws: { if case NearbyError.timedOut = $0 { true } else { false } }
            #expect(Clock.monotonic() - started < 10)
        }
    }

    @Test func aBodyLongerThanDeclaredIsCutOffAndNothingIsDelivered() async throws {
        let a = try Device(), b = try Device()
        try a.pair(with: b, as: "b"); try b.pair(with: a, as: "a")
        try await Self.withReceiver(b) { port, events in
            try await RawSession.run(a, port: port) { raw in
                try await raw.send(.ask(senderName: "a", senderApp: "x", targetApp: "com.example.notes", transfer: [UInt8](repeating: 3, count: 16),
                                        items: [ItemOffer(name: "t.txt", type: "public.plain-text", size: 10)]))
                guard case .answer(true, _, let token, let held)? = try await raw.receive() else { Issue.record("not accepted"); return }
                #expect(held == [0])
                try await raw.send(.upload(token: token, item: 0, offset: 0))
                try await raw.data(Array(repeating: 0x41, count: 100_000))
                let reply = try await raw.receive()
                guard case .refused(let why)? = reply else { Issue.record("expected a refusal, got \(String(describing: reply))"); return }
                #expect(why.contains("longer than the 10 bytes declared"))
                #expect(await eventually(120) { events.all.contains { if case .failed = $0 { true } else { false } } })
            }
        }
        #expect(!FileManager.default.fileExists(atPath: b.inbox("com.example.notes") + "/t.txt"))
        // Nothing beyond the declared size was written.
        let spooled = try FileManager.default.subpathsOfDirectory(atPath: b.folder.spool).filter { $0.hasSuffix(".partial") }
        for path in spooled {
            #expect((try FileManager.default.attributesOfItem(atPath: b.folder.spool + "/" + path)[.size] as? Int ?? 0) <= 10)
        }
    }

    @Test func anUploadWithAForgedTokenIsRefused() async throws {
        let a = try Device(), b = try Device()
        try a.pair(with: b, as: "b"); try b.pair(with: a, as: "a")
        try await Self.withReceiver(b) { port, _ in
            try await RawSession.run(a, port: port) { raw in
                try await raw.send(.ask(senderName: "a", senderApp: "x", targetApp: nil, transfer: [UInt8](repeating: 4, count: 16),
                                        items: [ItemOffer(name: "h.txt", type: "public.plain-text", size: 5)]))
                guard case .answer(true, _, let token, _)? = try await raw.receive() else { Issue.record("not accepted"); return }
                try await raw.send(.upload(token: token.map { $0 ^ 1 }, item: 0, offset: 0))
                guard case .refused(let why)? = try await raw.receive() else { Issue.record("expected a refusal"); return }
                #expect(why.contains("token that is not this session's"))
            }
        }
        #expect(!FileManager.default.fileExists(atPath: b.inbox("com.example.notes") + "/h.txt"))
    }

    @Test func bytesThatDoNotMatchTheDeclaredDigestAreDiscarded() async throws {
        let a = try Device(), b = try Device()
        try a.pair(with: b, as: "b"); try b.pair(with: a, as: "a")
        try await Self.withReceiver(b) { port, _ in
            try await RawSession.run(a, port: port) { raw in
                try await raw.send(.ask(senderName: "a", senderApp: "x", targetApp: nil, transfer: [UInt8](repeating: 5, count: 16),
                                        items: [ItemOffer(name: "h.txt", type: "public.plain-text", size: 5)]))
                guard case .answer(true, _, let token, _)? = try await raw.receive() else { Issue.record("not accepted"); return }
                try await raw.send(.upload(token: token, item: 0, offset: 0))
                try await raw.data(Array("jello".utf8))
                try await raw.send(.uploaded(item: 0, sha256: RawSession.sha256(Array("hello".utf8))))
                guard case .refused(let why)? = try await raw.receive() else { Issue.record("expected a refusal"); return }
                #expect(why.contains("SHA-256"))
            }
        }
        #expect(!FileManager.default.fileExists(atPath: b.inbox("com.example.notes") + "/h.txt"))
    }

    @Test func anInterruptedUploadResumesFromWhatTheReceiverHolds() async throws {
        let a = try Device(), b = try Device()
        try a.pair(with: b, as: "b"); try b.pair(with: a, as: "a")
        let dir = try TestSupport.temporaryDirectory()
        var bytes = [UInt8](repeating: 0, count: 3 << 20)
        for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: i &* 2_654_435_761 >> 13) }
        let file = dir.appendingPathComponent("big.txt")
        try Data(bytes).write(to: file)
        let item = try OutgoingItem(path: file.path, type: "public.plain-text")
        let sender = NearbySender(root: a.root, deviceName: "a", senderApp: "x")
        let target = { (port: Int) in SendTarget(host: "127.0.0.1", port: port, expected: b.identity.fingerprint) }
        // First run: the sender's own transfer identifier, 1 MiB sent, then the connection drops.
        let outbox = Outbox(folder: a.folder)
        try await Self.withReceiver(b) { port, events in
            let transfer = try outbox.transfer(for: outbox.key(target: target(port), items: [item]))
            try await RawSession.run(a, port: port) { raw in
                try await raw.send(.ask(senderName: "a", senderApp: "x", targetApp: nil, transfer: transfer, items: [item.offer]))
                guard case .answer(true, _, let token, _)? = try await raw.receive() else { Issue.record("not accepted"); return }
                try await raw.send(.upload(token: token, item: 0, offset: 0))
                for chunk in stride(from: 0, to: 1 << 20, by: Frame.maximumData) { try await raw.data(Array(bytes[chunk..<chunk + Frame.maximumData])) }
            }
            // The connection dropped in the middle of the item.
            #expect(await eventually(120) { events.all.contains { if case .failed = $0 { true } else { false } } }, "\(events.all)")
        }
        // Second run, on a new port: the key must not depend on it when the pin is known.
        let report = try await Self.withReceiver(b) { port, _ in try await sender.send([item], to: target(port)) }
        #expect(report.complete)
        #expect(report.bytesResumed == 1 << 20)
        #expect(report.bytesSent == Int64(bytes.count - (1 << 20)))
        #expect(FileManager.default.contents(atPath: b.inbox("com.example.notes") + "/big.txt") == Data(bytes))
        #expect(try FileManager.default.contentsOfDirectory(atPath: b.inbox("com.example.notes")).count == 1)
        // Sent again after it completed: a new transfer, delivered again (as a second file).
        let again = try await Self.withReceiver(b) { port, _ in try await sender.send([item], to: target(port)) }
        #expect(again.bytesResumed == 0 && again.complete)
        #expect(try FileManager.default.contentsOfDirectory(atPath: b.inbox("com.example.notes")).sorted() == ["big-1.txt", "big.txt"])
    }

    /// A receiver killed after moving an item into the download folder but before marking it
    /// delivered (the marker removed here, which is the state that kill leaves), and then the
    /// sender's retry of the same transfer: the item is found where the move put it, by the
    /// device and inode recorded before the move, and not taken a second time. Also when the
    /// kill came in the middle of the move (the file still under the mover's hidden name).
    @Test(arguments: [false, true]) func aDownloadInterruptedBeforeItsMarkerIsNotDeliveredTwice(midMove: Bool) async throws {
        let a = try Device(), b = try Device()
        try a.pair(with: b, as: "b"); try b.pair(with: a, as: "a")
        // Files.app takes any data (public.data): without it, nothing claims the odd type.
        try FileManager.default.removeItem(atPath: b.root.path + "/Apps/Files.app")
        let dir = try TestSupport.temporaryDirectory()
        let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7 >> 3) })
        try bytes.write(to: dir.appendingPathComponent("blob.weird"))
        let item = try OutgoingItem(path: dir.appendingPathComponent("blob.weird").path, type: "dyn.ah62d4rv4ge80e5pe")
        let sender = NearbySender(root: a.root, deviceName: "a", senderApp: "x")
        let target = { (port: Int) in SendTarget(host: "127.0.0.1", port: port, expected: b.identity.fingerprint) }
        let first = try await Self.withReceiver(b) { port, _ in try await sender.send([item], to: target(port)) }
        #expect(first.destinations == ["downloads"])
        // The state the kill leaves: no marker, the sender's note of the unfinished transfer kept.
        let (transfers, transfer) = try Self.onlySpooledTransfer(on: b)
        try FileManager.default.removeItem(atPath: b.folder.spool + "/" + transfers[0] + "/0/.delivered")
        if midMove { try FileManager.default.moveItem(atPath: b.downloads + "/blob.weird", toPath: b.downloads + "/.delivery-k1ll3d") }
        let again = try await Self.withReceiver(b) { port, _ in
            try Self.noteUnfinished(transfer, of: [item], to: target(port), on: a)
            return try await sender.send([item], to: target(port))
        }
        #expect(again.complete)
        #expect(again.bytesSent == 0 && again.bytesResumed == Int64(bytes.count))
        #expect(try FileManager.default.contentsOfDirectory(atPath: b.downloads) == ["blob.weird"])
        #expect(FileManager.default.contents(atPath: b.downloads + "/blob.weird") == bytes)
        #expect(FileManager.default.fileExists(atPath: b.folder.spool + "/" + transfers[0] + "/0/.delivered"))
    }

    /// What a sender that is not paired is told when its ask is refused (or `nil` when it was delivered).
    static func refusal(sending item: OutgoingItem, from device: Device, to receiver: Device, port: Int) async -> String? {
        do {
            _ = try await NearbySender(root: device.root, deviceName: "stranger", senderApp: "x")
                .send([item], to: SendTarget(host: "127.0.0.1", port: port, expected: receiver.identity.fingerprint))
            return nil
        } catch { return "\(error)" }
    }

    /// Everyone-mode bounds a stranger's questions: `asksPerPeer` per window, counted by
    /// certificate and by address, so a new certificate from the same machine is refused too; the
    /// person is not asked again.
    @Test func anUnpairedSenderMayAskOnlySoOften() async throws {
        let a = try Device(), c = try Device(), b = try Device()
        let item = try OutgoingItem(path: Self.sample("notes.txt"), type: "public.plain-text")
        let asked = Mutex(0)
        let reasons = try await Self.withReceiver(b, mode: .everyone, prompt: { _ in
            asked.withLock { $0 += 1 }
            return false
        }, configure: { $0.asksPerPeer = 2 }) { port, _ in
            var reasons: [String?] = []
            for device in [a, a, a, c] { reasons.append(await Self.refusal(sending: item, from: device, to: b, port: port)) }
            return reasons
        }
        #expect(asked.withLock { $0 } == 2)
        #expect(reasons.prefix(2).allSatisfy { $0?.contains("declined: declined") ?? false }, "\(reasons)")
        #expect(reasons.suffix(2).allSatisfy { $0?.contains("too many asks from this device") ?? false }, "\(reasons)")
    }

    /// While a stranger's question waits for the person, a second ask from it is refused at once.
    @Test func aSecondAskWhileTheFirstWaitsIsRefused() async throws {
        let a = try Device(), b = try Device()
        let item = try OutgoingItem(path: Self.sample("notes.txt"), type: "public.plain-text")
        let release = Mutex(false)
        let asked = Mutex(0)
        try await Self.withReceiver(b, mode: .everyone, prompt: { _ in
            asked.withLock { $0 += 1 }
            while !release.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(20)) }
            return true
        }) { port, _ in
            let first = Task(executorPreference: ThreadExecutor.shared) { await Self.refusal(sending: item, from: a, to: b, port: port) }
            #expect(await eventually(60) { asked.withLock { $0 } == 1 })
            let second = await Self.refusal(sending: item, from: a, to: b, port: port)
            #expect(second?.contains("already has a question waiting") ?? false, "\(String(describing: second))")
            release.withLock { $0 = true }
            #expect(await first.value == nil)
        }
        #expect(asked.withLock { $0 } == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: b.inbox("com.example.notes")) == ["notes.txt"])
    }

    /// The total timeout: a sender that trickles its bytes (each frame well inside the idle
    /// timeout) is closed once the session runs past its grace plus its bytes at the minimum rate.
    @Test func aSenderThatTricklesIsClosedAtTheSessionsDeadline() async throws {
        let a = try Device(), b = try Device()
        try a.pair(with: b, as: "b"); try b.pair(with: a, as: "a")
        let started = ContinuousClock.now
        try await Self.withReceiver(b, configure: { $0.minimumRate = 1000; $0.sessionGrace = 0.5 }) { port, events in
            try await RawSession.run(a, port: port) { raw in
                try await raw.send(.ask(senderName: "a", senderApp: "x", targetApp: "com.example.notes", transfer: [UInt8](repeating: 6, count: 16),
                                        items: [ItemOffer(name: "slow.txt", type: "public.plain-text", size: 2000)]))
                guard case .answer(true, _, let token, _)? = try await raw.receive() else { Issue.record("not accepted"); return }
                try await raw.send(.upload(token: token, item: 0, offset: 0))
                // 100 bytes every 0.3 s: 6 s for 2,000 bytes, the deadline is 2.5 s.
                do {
                    for _ in 0..<20 {
                        try await raw.data(Array(repeating: 0x41, count: 100))
                        try await Task.sleep(for: .milliseconds(300))
                    }
                } catch {}
                let reply = try? await raw.receive()
                guard case .refused(let why)? = reply else { Issue.record("expected a refusal, got \(String(describing: reply))"); return }
                #expect(why.contains("ran past its time"), "\(why)")
            }
            #expect(await eventually(120) { events.all.contains { if case .failed(let why) = $0 { why.contains("ran past its time") } else { false } } })
        }
        #expect(ContinuousClock.now - started < .seconds(5.5))
        #expect(!FileManager.default.fileExists(atPath: b.inbox("com.example.notes") + "/slow.txt"))
    }

    /// Every byte arrived but not the digest (the receiver or the sender killed, or the link cut,
    /// right after the last data frame): the retry sends the last byte again and the digest, and
    /// the item is delivered. Answered with everything held, the sender took it for delivered and
    /// the item stayed in the spool (found by lab-resume.sh's random kills).
    @Test func anItemWhoseBytesAllArrivedButNotItsDigestIsDeliveredOnTheRetry() async throws {
        let a = try Device(), b = try Device()
        try a.pair(with: b, as: "b"); try b.pair(with: a, as: "a")
        let dir = try TestSupport.temporaryDirectory()
        var bytes = [UInt8](repeating: 0, count: 1 << 20)
        for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: i &* 2_654_435_761 >> 11) }
        let file = dir.appendingPathComponent("whole.txt")
        try Data(bytes).write(to: file)
        let item = try OutgoingItem(path: file.path, type: "public.plain-text")
        let sender = NearbySender(root: a.root, deviceName: "a", senderApp: "x")
        let target = { (port: Int) in SendTarget(host: "127.0.0.1", port: port, expected: b.identity.fingerprint) }
        let outbox = Outbox(folder: a.folder)
        try await Self.withReceiver(b) { port, events in
            let transfer = try outbox.transfer(for: outbox.key(target: target(port), items: [item]))
            try await RawSession.run(a, port: port) { raw in
                try await raw.send(.ask(senderName: "a", senderApp: "x", targetApp: nil, transfer: transfer, items: [item.offer]))
                guard case .answer(true, _, let token, _)? = try await raw.receive() else { Issue.record("not accepted"); return }
                try await raw.send(.upload(token: token, item: 0, offset: 0))
                for chunk in stride(from: 0, to: bytes.count, by: Frame.maximumData) { try await raw.data(Array(bytes[chunk..<chunk + Frame.maximumData])) }
                // No Uploaded: the connection ends here.
            }
            #expect(await eventually(120) { events.all.contains { if case .failed = $0 { true } else { false } } }, "\(events.all)")
        }
        let report = try await Self.withReceiver(b) { port, _ in try await sender.send([item], to: target(port)) }
        #expect(report.complete)
        #expect(report.destinations == ["com.example.notes"], "delivered now, not 'delivered before'")
        #expect(report.bytesResumed == Int64(bytes.count - 1) && report.bytesSent == 1, "\(report)")
        #expect(FileManager.default.contents(atPath: b.inbox("com.example.notes") + "/whole.txt") == Data(bytes))
        #expect(try FileManager.default.contentsOfDirectory(atPath: b.inbox("com.example.notes")) == ["whole.txt"])
    }

    /// A request write cut off by a kill leaves AtomicFile's dot-named temporary in
    /// `Library/OpenRequests/`; it is not a request, so the item it names is not taken for handed
    /// over (it was, and the item was then never delivered).
    @Test func aRequestWriteCutOffIsNotADelivery() throws {
        let b = try Device()
        let registry = try RegistryStore.forQuery(root: b.root)
        let app = try #require(AppBundle.registered("com.example.notes", in: registry))
        let container = try AppContainer(bundleIdentifier: app.bundleIdentifier, on: b.root)
        try container.create()
        let original = b.root.path + "/Nearby/Spool/x-y/0/cut.txt"
        var request = OpenRequest(documentPath: container.inbox + "/cut.txt")
        request.originalPath = original
        request.state = .arriving
        let written = try request.write(into: container.openRequests)
        let folder = (written as NSString).deletingLastPathComponent, name = (written as NSString).lastPathComponent
        try FileManager.default.moveItem(atPath: written, toPath: folder + "/." + name + ".tmp-abc")
        #expect(try Destination.app(app).priorDelivery(of: original, root: b.root) == nil)
        // The same request in place is what marks an interrupted delivery as handed over.
        _ = try request.write(into: container.openRequests)
        #expect(try Destination.app(app).priorDelivery(of: original, root: b.root) != nil)
    }

    /// A receiver killed between writing the open request (`arriving`) and renaming the staged
    /// copy from the app's `tmp/` into the Inbox: on the retry the delivery is finished (the copy
    /// found by the identity the request records, placed, the request marked delivered), not
    /// counted as delivered while the document waits in `tmp/` for ever.
    @Test func aDeliveryKilledBeforeItsRenameIsFinishedOnTheRetry() throws {
        let b = try Device()
        let registry = try RegistryStore.forQuery(root: b.root)
        let app = try #require(AppBundle.registered("com.example.notes", in: registry))
        let container = try AppContainer(bundleIdentifier: app.bundleIdentifier, on: b.root)
        try container.create()
        try FileManager.default.createDirectory(atPath: container.temporary, withIntermediateDirectories: true)
        let staged = container.temporary + "/.delivery-k1ll3d"
        try Data("staged bytes".utf8).write(to: URL(fileURLWithPath: staged))
        let original = b.root.path + "/Nearby/Spool/x-y/0/late.txt"
        var request = OpenRequest(documentPath: container.inbox + "/late.txt")
        request.originalPath = original
        request.state = .arriving
        let status = try #require(FileSystem.status(staged))
        request.identity = DocumentIdentity(status)
        let requestPath = try request.write(into: container.openRequests)
        let delivered = try Destination.app(app).priorDelivery(of: original, root: b.root)
        #expect(delivered == container.inbox + "/late.txt")
        #expect(FileManager.default.contents(atPath: container.inbox + "/late.txt") == Data("staged bytes".utf8))
        #expect(!FileManager.default.fileExists(atPath: staged))
        let updated = try OpenRequest.read(requestPath)
        #expect(updated.state == .delivered && updated.documentPath == container.inbox + "/late.txt")
        // Asked again (a second retry): already delivered, nothing moves.
        #expect(try Destination.app(app).priorDelivery(of: original, root: b.root) == container.inbox + "/late.txt")
    }

    /// A receiver killed after `Delivery` moved the verified item into the app's `tmp/` to stage
    /// it, before the open request was written (the state made here from a finished delivery: the
    /// request and the marker removed, the Inbox copy back in `tmp/` under a staging name): the
    /// retry finds the item there by the identity recorded before the move, delivers it once, and
    /// nothing is sent again (it was sent whole again, and the staged copy stayed in `tmp/`).
    @Test func anItemStagedBeforeItsRequestIsDeliveredOnTheRetryWithoutResending() async throws {
        let a = try Device(), b = try Device()
        try a.pair(with: b, as: "b"); try b.pair(with: a, as: "a")
        let dir = try TestSupport.temporaryDirectory()
        let bytes = Data((0..<400_000).map { UInt8(truncatingIfNeeded: $0 &* 13 >> 2) })
        try bytes.write(to: dir.appendingPathComponent("staged.txt"))
        let item = try OutgoingItem(path: dir.appendingPathComponent("staged.txt").path, type: "public.plain-text")
        let sender = NearbySender(root: a.root, deviceName: "a", senderApp: "x")
        let target = { (port: Int) in SendTarget(host: "127.0.0.1", port: port, expected: b.identity.fingerprint) }
        let first = try await Self.withReceiver(b) { port, _ in try await sender.send([item], to: target(port), targetApp: "com.example.notes") }
        #expect(first.destinations == ["com.example.notes"])
        let (transfers, transfer) = try Self.onlySpooledTransfer(on: b)
        try FileManager.default.removeItem(atPath: b.folder.spool + "/" + transfers[0] + "/0/.delivered")
        for request in try FileManager.default.contentsOfDirectory(atPath: b.requests("com.example.notes")) {
            try FileManager.default.removeItem(atPath: b.requests("com.example.notes") + "/" + request)
        }
        let tmp = b.root.path + "/Containers/com.example.notes/tmp"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: b.inbox("com.example.notes") + "/staged.txt", toPath: tmp + "/.delivery-k1ll3d")
        let again = try await Self.withReceiver(b) { port, _ in
            try Self.noteUnfinished(transfer, of: [item], to: target(port), on: a)
            return try await sender.send([item], to: target(port), targetApp: "com.example.notes")
        }
        #expect(again.complete && again.bytesSent == 0, "\(again)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: b.inbox("com.example.notes")) == ["staged.txt"])
        #expect(FileManager.default.contents(atPath: b.inbox("com.example.notes") + "/staged.txt") == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: b.requests("com.example.notes")).count == 1)
    }

    /// The one transfer in `device`'s spool: its folder's name (in a list) and its identifier.
    static func onlySpooledTransfer(on device: Device) throws -> ([String], [UInt8]) {
        let transfers = try FileManager.default.contentsOfDirectory(atPath: device.folder.spool)
        try #require(transfers.count == 1)
        let hex = Array(transfers[0].split(separator: "-").last!.utf8)
        let transfer = stride(from: 0, to: hex.count, by: 2).map { UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
        return (transfers, transfer)
    }

    /// Notes `transfer` in `device`'s outbox as unfinished (as a sender killed before the
    /// confirmation leaves it), so that sending `items` to `target` again continues it.
    static func noteUnfinished(_ transfer: [UInt8], of items: [OutgoingItem], to target: SendTarget, on device: Device) throws {
        let outbox = Outbox(folder: device.folder)
        try FileManager.default.createDirectory(atPath: outbox.path, withIntermediateDirectories: true)
        try Data(transfer).write(to: URL(fileURLWithPath: outbox.path + "/" + outbox.key(target: target, items: items)))
    }

    /// The ask counts forget a sender once it has been quiet for a window and waits for nothing,
    /// so a stream of new certificates and addresses does not grow them for ever.
    @Test func askLimitsForgetQuietSenders() throws {
        let limits = AskLimits(limit: 2, window: 60)
        for n in 0..<100 {
            guard case .success = limits.admit(keys: ["fp:\(n)", "ip:10.0.0.\(n)"], now: Double(n)) else { Issue.record("refused \(n)"); return }
        }
        // At t = 100 the senders of t ≤ 40 have been quiet for the 60 s window.
        #expect(limits.state.withLock { $0.count } <= 2 * 61, "\(limits.state.withLock { $0.count })")
        guard case .success = limits.admit(keys: ["fp:x"], now: 200) else { Issue.record("refused"); return }
        #expect(limits.state.withLock { $0.count } == 1)
        // Within the window a sender is still counted: two asks, then refused.
        _ = limits.admit(keys: ["fp:x"], now: 201)
        guard case .failure(.tooMany) = limits.admit(keys: ["fp:x"], now: 202) else { Issue.record("a third ask within the window"); return }
    }
}
