import Foundation
import OpenRequests
import TestHelpers
import Testing

/// `nearby` between real processes on hosts in network namespaces (../shared/nearby/lab.sh,
/// run by Fixtures/lab-session.sh, which needs root as CI has): pairing by comparing digits with
/// the waiting device found by its name, a send into an app's Inbox, a stranger refused in the
/// handshake, kill -9 of the sender and then of the receiver in the middle of a rate-limited send,
/// a retry that resumes, and no packet addressed outside the lab.
@Suite(.serialized) struct NearbyLabTests {
    @Test func pairSendRefuseKillAndResumeAcrossNamespaces() async throws {
        let work = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        for name in ["A", "B", "C"] {
            let root = try TestSupport.sampleDevice()
            try FileManager.default.moveItem(at: root, to: work.appendingPathComponent(name))
        }
        let notes = TestSupport.packageRoot.appendingPathComponent("Samples/Documents/notes.txt")
        try FileManager.default.copyItem(at: notes, to: work.appendingPathComponent("notes.txt"))
        let script = TestSupport.packageRoot.appendingPathComponent("Tests/NearbyTests/Fixtures/lab-session.sh").path
        let lab = TestSupport.shared.appendingPathComponent("nearby/lab.sh").path
        let nearby = TestSupport.productsDirectory.appendingPathComponent("nearby").path
        let run = try await TestSupport.runOffPool("/bin/bash", [script, nearby, lab, work.path], environment: ["LAB": "dtt", "LAB_NET": "10.215.0"].merging(TestUser.fixtureEnvironment) { $1 })
        #expect(run.status == 0, "\(run.stderr)")
        var facts: [String: Int] = [:]
        for line in run.out.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = Int(parts[1]) { facts[String(parts[0])] = value }
        }
        // Every nearby process ran as the test user, as a person runs it.
        #expect(facts["receiver_uid"] == Int(TestUser.active ? TestUser.uid : geteuid()), "\(run.out)")
        #expect(facts["pair_status"] == 0 && facts["show_status"] == 0, "\(run.out)")
        #expect(lines(run.out).contains("h3_sees_waiting=h2@10.215.0.2:53401"), "\(run.out)")
        // Both screens showed the same six digits (h1 found h2 by the name it announced while waiting).
        let digits = run.out.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("digits_h") }.map { $0.split(separator: "=").last.map(String.init) ?? "" }
        #expect(digits.count == 2 && digits[0] == digits[1] && digits[0].filter(\.isNumber).count == 6, "\(run.out)")
        #expect(facts["send_status"] == 0)
        // Discovery: the paired host finds the receiver's port by its tag; the stranger, nothing.
        #expect(lines(run.out).contains("h1_sees_h2_at=10.215.0.2:53500"), "\(run.out)")
        #expect(lines(run.out).contains("h3_sees=[]"), "\(run.out)")
        // What it takes: items from its paired devices (it receives in paired mode).
        #expect(lines(run.out).contains("h1_sees_h2_accepts=paired"), "\(run.out)")
        // Listing ended once h2 was seen, long before its 10 s timeout (the lab's p99 is ≈ 1 s).
        #expect((facts["list_ms"] ?? .max) < 6_000, "\(run.out)")
        #expect(facts["stranger_status"] == 1, "a stranger is declined, exit 1")
        #expect(facts["interrupted_send_status"] == 2, "the send whose receiver died fails")
        #expect(facts["resumed_send_status"] == 0)
        #expect(facts["fence"] == 0, "packets addressed outside the lab")
        // SIGTERM: a clean exit, and goodbyes that browsers see at once.
        #expect(facts["receiver_sigterm_status"] == 0, "\(run.out)")
        // Without goodbyes the browser would keep the records for their TTL (120 s and more);
        // 10 s leaves room for a loaded machine (3.5 s seen beside a release build).
        #expect((facts["goodbye_seen_ms"] ?? .max) < 10_000, "\(run.out)")

        let b = work.appendingPathComponent("B")
        let inbox = b.appendingPathComponent("Containers/com.example.notes/Documents/Inbox")
        // Each item delivered once, intact, with its open request naming the sending app.
        #expect(try FileManager.default.contentsOfDirectory(atPath: inbox.path).sorted() == ["big.txt", "notes.txt"])
        #expect(FileManager.default.contents(atPath: inbox.appendingPathComponent("big.txt").path)
                == FileManager.default.contents(atPath: work.appendingPathComponent("big.txt").path))
        #expect(FileManager.default.contents(atPath: inbox.appendingPathComponent("notes.txt").path) == FileManager.default.contents(atPath: notes.path))
        let requests = b.appendingPathComponent("Containers/com.example.notes/Library/OpenRequests")
        let sources = try FileManager.default.contentsOfDirectory(atPath: requests.path).map {
            try OpenRequest.read(requests.appendingPathComponent($0).path).sourceApplication ?? ""
        }
        #expect(sources.sorted() == ["com.example.mail", "org.document-interchange.nearby"])
        // The stranger's copy went nowhere.
        #expect(!FileManager.default.fileExists(atPath: b.appendingPathComponent("Downloads").path))

        // The retry resumed from what the receiver held when it was killed, and sent only the rest.
        let final = try String(contentsOf: work.appendingPathComponent("send4.out"), encoding: .utf8)
        let done = try #require(final.split(whereSeparator: \.isNewline).last.flatMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        })
        let size = 48 << 20
        let resumed = try #require(done["bytesResumed"] as? Int), sent = try #require(done["bytesSent"] as? Int)
        #expect(resumed == facts["killed_receiver_at"], "\(done)")
        #expect(resumed > 0 && resumed + sent == size, "\(done)")
    }

    func lines(_ text: String) -> [String] { text.split(whereSeparator: \.isNewline).map(String.init) }
}
