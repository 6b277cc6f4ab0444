import Foundation
import OpenRequests
@testable import Nearby
import TestHelpers
import Testing

/// A paired device is a row of `openin`'s sheet, first among the activities (AirDrop's place in
/// iOS's sheet), and choosing it sends the document there with `nearby send`.
@Suite(.serialized) struct OpeninNearbyRowTests {
    static func openin(_ arguments: [String]) async throws -> TestSupport.Run {
        try await TestSupport.runOffPool(TestSupport.productsDirectory.appendingPathComponent("openin").path, arguments,
                            environment: ["PATH": TestSupport.productsDirectory.path + ":/usr/bin:/bin", "HOME": NSTemporaryDirectory()])
    }

    @Test func aPairedDeviceIsTheFirstActivityAndChoosingItDeliversThere() async throws {
        let a = try TransferTests.Device(), b = try TransferTests.Device()
        try b.pair(with: a, as: "a")
        let notes = TransferTests.sample("notes.txt")
        try await TransferTests.withReceiver(b) { port, _ in
            var paired = try PairedDevices.load(from: a.folder)
            paired.pin(PairedDevice(name: "desk", fingerprint: b.identity.fingerprint, pairedAt: 0, lastAddress: "127.0.0.1:\(port)"))
            try paired.save(to: a.folder)
            let listed = try await Self.openin(["--root", a.root.path, notes, "--list", "--json"])
            #expect(listed.status == 0, "\(listed.stderr)")
            let sheet = try #require(try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [String: Any])
            let activities = try #require(sheet["activities"] as? [[String: Any]])
            #expect(activities.first?["activityType"] as? String == "nearby:desk", "\(activities)")
            let sent = try await Self.openin(["--root", a.root.path, notes, "--activity", "nearby:desk", "--from", "com.example.mail"])
            #expect(sent.status == 0, "\(sent.out)\(sent.stderr)")
            #expect(sent.out.contains("sent 1 document to desk (nearby)"))
        }
        // Delivered on the other device into the app that opens it, naming the sending app.
        #expect(FileManager.default.contents(atPath: b.inbox("com.example.notes") + "/notes.txt") == FileManager.default.contents(atPath: notes))
    }

    @Test func withoutPairedDevicesThereIsNoNearbyRow() async throws {
        let a = try TransferTests.Device()
        let listed = try await Self.openin(["--root", a.root.path, TransferTests.sample("notes.txt"), "--list"])
        #expect(listed.status == 0)
        #expect(!listed.out.contains("nearby:"))
        // "Send to Nearby Device…" with nothing paired says what to do.
        let nearby = try await Self.openin(["--root", a.root.path, TransferTests.sample("notes.txt"), "--nearby", "--list"])
        #expect(nearby.status == 1 && nearby.stderr.contains("no device is paired with this one: pair one with nearby pair"), "\(nearby.stderr)")
    }

    /// `openin --nearby` (a file manager's "Send to Nearby Device…") offers the paired devices
    /// only: no app, no other activity.
    @Test func theNearbySheetOffersOnlyThePairedDevices() async throws {
        let a = try TransferTests.Device(), b = try TransferTests.Device(), c = try TransferTests.Device()
        var paired = try PairedDevices.load(from: a.folder)
        paired.pin(PairedDevice(name: "desk", fingerprint: b.identity.fingerprint, pairedAt: 0, lastAddress: "127.0.0.1:9"))
        paired.pin(PairedDevice(name: "phone", fingerprint: c.identity.fingerprint, pairedAt: 0, lastAddress: "127.0.0.1:9"))
        try paired.save(to: a.folder)
        let listed = try await Self.openin(["--root", a.root.path, TransferTests.sample("notes.txt"), "--nearby", "--list", "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let sheet = try #require(try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [String: Any])
        #expect((sheet["apps"] as? [Any])?.isEmpty ?? true, "\(sheet)")
        let types = (sheet["activities"] as? [[String: Any]])?.compactMap { $0["activityType"] as? String }
        #expect(types == ["nearby:desk", "nearby:phone"], "\(sheet)")
    }

    /// An app sends through AppInterchange (`nearbyDevices()`, `send(documents:toNearbyDevice:)`):
    /// the sample Person Editor sends a person to the Person Viewer on a paired device, which gets
    /// it in its Inbox with an open request naming the editor; an unknown device is a clear error.
    @Test func anAppListsPairedDevicesAndSendsThroughAppInterchange() async throws {
        let a = try TransferTests.Device(), b = try TransferTests.Device()
        try b.pair(with: a, as: "a")
        let person = TestSupport.packageRoot.appendingPathComponent("Samples/Documents/file.person").path
        let editor = TestSupport.productsDirectory.appendingPathComponent("PersonEditor").path
        let environment = ["PATH": TestSupport.productsDirectory.path + ":/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
        try await TransferTests.withReceiver(b) { port, _ in
            var paired = try PairedDevices.load(from: a.folder)
            paired.pin(PairedDevice(name: "desk", fingerprint: b.identity.fingerprint, pairedAt: 0, lastAddress: "127.0.0.1:\(port)"))
            try paired.save(to: a.folder)
            // The editor runs as the test user (as a person runs it): its device root is theirs.
            TestUser.own(URL(fileURLWithPath: a.root.path))
            let sent = try await TestSupport.runOffPool(editor, ["send-nearby", "--root", a.root.path, "desk", person], environment: environment)
            #expect(sent.status == 0, "\(sent.out)\(sent.stderr)")
            #expect(sent.out.contains("to desk: com.example.person-viewer"), "\(sent.out)")
            let unknown = try await TestSupport.runOffPool(editor, ["send-nearby", "--root", a.root.path, "laptop", person], environment: environment)
            #expect(unknown.status == 1 && unknown.stderr.contains("no paired device is called laptop (paired: desk)"), "\(unknown.stderr)")
        }
        let inbox = b.inbox("com.example.person-viewer")
        #expect(FileManager.default.contents(atPath: inbox + "/file.person") == FileManager.default.contents(atPath: person))
        let requests = try FileManager.default.contentsOfDirectory(atPath: b.requests("com.example.person-viewer"))
        try #require(requests.count == 1)
        let request = try OpenRequest.read(b.requests("com.example.person-viewer") + "/" + requests[0])
        #expect(request.sourceApplication == "com.example.person-editor")
    }
}
