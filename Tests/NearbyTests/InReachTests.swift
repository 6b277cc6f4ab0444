import AppInterchange
import Foundation
import SystemCalls
@testable import Nearby
import TestHelpers
import Testing

/// `openin`'s sheet offers the paired devices in reach, as its running receiver sees them
/// (DevicesInReach): real `nearby receive` processes announcing and browsing on the loopback
/// interface, a device that comes, one that leaves with goodbyes, the watching receiver stopped
/// (its record goes) and killed with `kill -9` (its record stays, and speaks no more).
@Suite(.serialized) struct InReachTests {
    /// A `nearby receive` process for `device` in paired mode on the loopback interface.
    static func receiver(_ device: TransferTests.Device, name: String) throws -> Process {
        // As the person runs it: the test user, owning the device root the test set up.
        TestUser.own(URL(fileURLWithPath: device.root.path))
        let process = TestUser.process(TestSupport.productsDirectory.appendingPathComponent("nearby").path,
                                       ["receive", "--root", device.root.path, "--mode", "paired", "--interface", "lo", "--listen", "127.0.0.1",
                                        "--port", "0", "--no-launch", "--name", name, "--downloads", device.downloads, "--json"])
        // No avahi-daemon on the machine's bus is reached: the built-in engine on lo, everywhere.
        process.environment = TestUser.environment(from: ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory(), "DBUS_SYSTEM_BUS_ADDRESS": ""])
        // What it said goes to a file in its device root, for a failure's message (`said`).
        let log = URL(fileURLWithPath: device.root.path + "/receiver.log")
        try Data().write(to: log)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        try handle.close()
        return process
    }

    /// What the receivers of `devices` printed (their JSON events and any error), for a failure's
    /// message.
    static func said(_ devices: [(String, TransferTests.Device)]) -> String {
        devices.map { name, device in
            "\n\(name)'s receiver said:\n" + ((try? String(contentsOf: URL(fileURLWithPath: device.root.path + "/receiver.log"), encoding: .utf8)) ?? "(nothing)")
        }.joined()
    }

    /// The nearby rows `openin --nearby --list --json` offers on `device` (none when it offers
    /// none, and then why, from standard error).
    static func nearbyRows(_ device: TransferTests.Device) async throws -> (rows: [String], stderr: String) {
        let run = try await OpeninNearbyRowTests.openin(["--root", device.root.path, TransferTests.sample("notes.txt"), "--nearby", "--list", "--json"])
        guard run.status == 0 else { return ([], run.stderr) }
        let sheet = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        return (((sheet["activities"] as? [[String: Any]]) ?? []).compactMap { $0["activityType"] as? String }, run.stderr)
    }

    /// What polling the sheet gave: the rows of the last poll, and when each poll started and
    /// how long it took, for a failure's message.
    struct Polled: Sendable {
        var rows: [String]
        var polls: [String] = []
        var timings: String { "polls (start, seconds, rows): " + polls.joined(separator: "; ") }
    }

    /// Polls `nearbyRows` until it gives `expected`, for at most `seconds`. The answer comes from
    /// a poll that started at or after the deadline, not merely one looked at after it: in the
    /// full suite this task was once held 13.6 s between a poll's process ending and the next
    /// poll (other tests on the two cooperative threads), and the wait for b ended with rows read
    /// before a's receiver (which had seen b within milliseconds, by its trace) wrote its record.
    static func rows(on device: TransferTests.Device, becoming expected: [String], within seconds: Double) async throws -> Polled {
        let deadline = Date().addingTimeInterval(seconds)
        var polled = Polled(rows: [])
        while true {
            let started = Date()
            polled.rows = try await nearbyRows(device).rows
            polled.polls.append(String(format: "%.2f, %.2f, %@", started.timeIntervalSince1970, Date().timeIntervalSince(started),
                                       polled.rows.joined(separator: " ")))
            if polled.rows == expected || started >= deadline { return polled }
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    @Test func theSheetOffersThePairedDevicesInReachAsTheReceiverSeesThem() async throws {
        let a = try TransferTests.Device(), b = try TransferTests.Device(), c = try TransferTests.Device(), d = try TransferTests.Device()
        // a pairs with b and c as `nearby pair` does (a shared discovery key each), and pins d
        // without one: d cannot be recognised in discovery, so nobody can say whether it is in reach.
        let keyB = (0..<32).map { _ in UInt8.random(in: 0...255) }, keyC = (0..<32).map { _ in UInt8.random(in: 0...255) }
        var paired = PairedDevices()
        paired.pin(PairedDevice(name: "b", fingerprint: b.identity.fingerprint, pairedAt: 0, discoveryKey: keyB))
        paired.pin(PairedDevice(name: "c", fingerprint: c.identity.fingerprint, pairedAt: 0, discoveryKey: keyC))
        paired.pin(PairedDevice(name: "d", fingerprint: d.identity.fingerprint, pairedAt: 0, lastAddress: "127.0.0.1:9"))
        try paired.save(to: a.folder)
        var pairedB = PairedDevices()
        pairedB.pin(PairedDevice(name: "a", fingerprint: a.identity.fingerprint, pairedAt: 0, discoveryKey: keyB))
        try pairedB.save(to: b.folder)

        // No receiver runs on a: nobody knows what is in reach, so every paired device is offered.
        #expect(try await Self.nearbyRows(a).rows == ["nearby:b", "nearby:c", "nearby:d"])

        let receiverA = try Self.receiver(a, name: "a")
        defer { if receiverA.isRunning { receiverA.terminate() } }
        // Once a's receiver keeps its record, b and c (not running) are not in reach; d still is offered.
        let withoutB = try await Self.rows(on: a, becoming: ["nearby:d"], within: 30)
        #expect(withoutB.rows == ["nearby:d"], "\(withoutB.timings)\(Self.said([("a", a)]))")
        #expect(FileManager.default.fileExists(atPath: a.folder.inReach))

        // b starts announcing: a's receiver sees it, and the sheet offers it.
        let receiverB = try Self.receiver(b, name: "b")
        defer { if receiverB.isRunning { receiverB.terminate() } }
        let withB = try await Self.rows(on: a, becoming: ["nearby:b", "nearby:d"], within: 30)
        let app = try InterchangeApp(bundleIdentifier: "com.example.mail", root: a.root)
        let inReach = try app.nearbyDevices().first { $0.name == "b" }?.inReach
        #expect(withB.rows == ["nearby:b", "nearby:d"], "\(withB.timings)\(Self.said([("a", a), ("b", b)]))")
        // An app sees it in reach too, with the address it announced, without looking around.
        #expect(inReach?.hasPrefix("127.0.0.1:") == true, "\(String(describing: inReach))")

        // b stops (SIGTERM: goodbyes): it leaves the sheet.
        receiverB.terminate()
        receiverB.waitUntilExit()
        let afterB = try await Self.rows(on: a, becoming: ["nearby:d"], within: 30)
        #expect(afterB.rows == ["nearby:d"], "\(afterB.timings)")

        // Without d, --nearby has no row and says why.
        paired.unpin(named: "d")
        try paired.save(to: a.folder)
        let none = try await Self.nearbyRows(a)
        #expect(none.rows.isEmpty && none.stderr.contains("no paired device is in reach (paired: b, c)"), "\(none.stderr)")

        // A record that cannot be read says nothing, though its writer runs: every paired device.
        try Data("not a property list".utf8).write(to: URL(fileURLWithPath: a.folder.inReach))
        #expect(throws: NearbyError.self) { try DevicesInReach.load(from: a.folder) }
        #expect(try await Self.nearbyRows(a).rows == ["nearby:b", "nearby:c"])

        // a's receiver stops (SIGTERM): it takes its record with it.
        receiverA.terminate()
        receiverA.waitUntilExit()
        #expect(!FileManager.default.fileExists(atPath: a.folder.inReach))

        // Started again and killed with kill -9: its record stays behind, but speaks no more.
        let again = try Self.receiver(a, name: "a")
        defer { if again.isRunning { again.terminate() } }
        let nothing = try await Self.rows(on: a, becoming: [], within: 30)
        #expect(nothing.rows == [], "\(nothing.timings)")
        kill(again.processIdentifier, SIGKILL)
        again.waitUntilExit()
        #expect(FileManager.default.fileExists(atPath: a.folder.inReach))
        #expect(try await Self.nearbyRows(a).rows == ["nearby:b", "nearby:c"])
    }

    /// A record counts while its writer (id and start time) runs and it is fresh: one refreshed
    /// more than 90 s ago, or written by another process that got the same id, does not.
    @Test func aRecordCountsOnlyWhileItsWriterRunsAndRefreshesIt() throws {
        let a = try TransferTests.Device(), b = try TransferTests.Device()
        let now = 1_000_000.0
        let entry = DevicesInReach.Entry(fingerprint: b.identity.fingerprint, address: "10.0.0.2:53400")
        try DevicesInReach(watcher: .current, refreshed: now, devices: [entry]).save(to: a.folder)
        #expect(DevicesInReach.live(in: a.folder, now: now + 10)?.contains(b.identity.fingerprint) == true)
        #expect(DevicesInReach.live(in: a.folder, now: now + DevicesInReach.staleAfter + 1) == nil)
        var reused = ProcessIdentity.current
        reused.start += 1
        try DevicesInReach(watcher: reused, refreshed: now, devices: [entry]).save(to: a.folder)
        #expect(DevicesInReach.live(in: a.folder, now: now + 10) == nil)
        // Only its own writer removes it.
        DevicesInReach.remove(from: a.folder, writtenBy: .current)
        #expect(FileManager.default.fileExists(atPath: a.folder.inReach))
        DevicesInReach.remove(from: a.folder, writtenBy: reused)
        #expect(!FileManager.default.fileExists(atPath: a.folder.inReach))
    }
}
