import Foundation
import OpenRequests
import TestHelpers
import Testing

/// nearby's LocalSend receiver against the real LocalSend peer (PyPI `localsend` 0.1.2, in a venv
/// the fixture makes) between network namespaces (Fixtures/localsend-lab.sh, ../shared/nearby/lab.sh;
/// needs root, as CI has): the peer finds us by multicast and our `register` answer, 20 sessions
/// land in the plain-text app byte-identical with the alias in each open request, 100 MB arrive
/// intact; then `nearby send --localsend` to the peer's
/// receiver, found by alias and by address, each exit status true to what arrived, and 100 MB;
/// nothing leaves the lab. The timings are the benchmark's (NearbyBenchmarks --localsend).
@Suite(.serialized) struct LocalSendLabTests {
    static let rounds = 20

    @Test func theLocalSendPeerFindsUsAndSendsIntoTheApp() async throws {
        let work = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        for name in ["A", "B"] { try FileManager.default.moveItem(at: try TestSupport.sampleDevice(), to: work.appendingPathComponent(name)) }
        let notes = TestSupport.packageRoot.appendingPathComponent("Samples/Documents/notes.txt")
        try FileManager.default.copyItem(at: notes, to: work.appendingPathComponent("notes.txt"))
        let script = TestSupport.packageRoot.appendingPathComponent("Tests/NearbyTests/Fixtures/localsend-lab.sh").path
        let lab = TestSupport.shared.appendingPathComponent("nearby/lab.sh").path
        let nearby = TestSupport.productsDirectory.appendingPathComponent("nearby").path
        let run = try await TestSupport.runOffPool("/bin/bash", [script, nearby, lab, work.path, Self.venv, String(Self.rounds)],
                                                   environment: ["LAB": "dls", "LAB_NET": "10.220.0", "BIG_ROUNDS": "1", "SENDER_CPU": ""].merging(TestUser.fixtureEnvironment) { $1 })
        #expect(run.status == 0, "\(run.stderr)")
        var facts: [String: String] = [:]
        for line in run.out.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { facts[String(parts[0])] = String(parts[1]) }
        }
        #expect(facts["found"] == "yes" && facts["found_protocol"] == "https", "\(run.out)\(run.stderr)")
        #expect(facts["sent_ok"] == String(Self.rounds), "\(run.out)")
        #expect(facts["receiver_delivered"] == String(Self.rounds + 1) && facts["receiver_failed"] == "0", "\(run.out)")
        #expect(facts["receiver_status"] == "0")
        #expect(facts["fence"] == "0", "packets addressed outside the lab")
        // Every announcement answered; how fast, and 100 MB against the peer to itself, are
        // figures the benchmark measures with a release build (`NearbyBenchmarks --localsend`):
        // timed here, in the full suite, they measured the load.
        #expect(facts["register_answered"] == "10/10", "\(run.out)")
        #expect(facts["big_ours_seconds"].flatMap(Double.init) != nil && facts["big_peer_seconds"].flatMap(Double.init) != nil, "\(run.out)")
        // The other way: every file arrived intact, and each exit status says so.
        #expect(facts["send_arrived"] == String(Self.rounds) && facts["send_status_matches"] == String(Self.rounds), "\(run.out)")
        #expect(facts["send_by_alias_ok"] == String(Self.rounds / 2), "\(run.out)")
        #expect(facts["send_big_status"] == "0" && facts["send_big_intact"] == "yes", "\(run.out)")
        // Multicast dropped at the sender: the peer found by its alias through the /24 sweep.
        #expect(facts["swept_status"] == "0" && facts["swept_intact"] == "yes", "\(run.out)")
        #expect((facts["swept_multicast_dropped"].flatMap(Int.init) ?? 0) > 0, "\(run.out)")

        let b = work.appendingPathComponent("B")
        let inbox = b.appendingPathComponent("Containers/com.example.notes/Documents/Inbox")
        let received = try FileManager.default.contentsOfDirectory(atPath: inbox.path)
        #expect(received.count == Self.rounds)
        let original = FileManager.default.contents(atPath: notes.path)
        for name in received { #expect(FileManager.default.contents(atPath: inbox.appendingPathComponent(name).path) == original, "\(name)") }
        let requests = b.appendingPathComponent("Containers/com.example.notes/Library/OpenRequests")
        for name in try FileManager.default.contentsOfDirectory(atPath: requests.path) {
            let request = try OpenRequest.read(requests.appendingPathComponent(name).path)
            #expect(request.sourceApplication == "org.localsend.localsend_app")
            guard case .dictionary(let annotation)? = request.annotation, case .dictionary(let nearby)? = annotation["Nearby"] else {
                Issue.record("no annotation in \(name)"); continue
            }
            #expect(nearby["SenderName"] == .string("Peer Phone"))
        }
        // The 100 MB of random bytes went to the app that takes any data, intact.
        let big = b.appendingPathComponent("Containers/com.example.files/Documents/Inbox/big.bin")
        #expect(FileManager.default.contents(atPath: big.path) == FileManager.default.contents(atPath: work.appendingPathComponent("big.bin").path))
    }

    /// Where the peer's venv is kept between runs (made on first use).
    static let venv = "/var/tmp/nearby-localsend-0.1.2"
}
