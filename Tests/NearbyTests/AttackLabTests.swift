import Foundation
import TestHelpers
import Testing

/// An attacker in the lab (Fixtures/attack-lab.sh with attacker.py; needs root for the lab, as
/// CI has), every nearby process as the unprivileged test user. Each check failed before the
/// change it guards (issue #43): a device in the middle of a LocalSend send got the PIN and the
/// whole file, of an AirDrop send the whole archive, while the send said it delivered; 50 wrong
/// PINs were each weighed and the right one let in. The flood's timing is a benchmark figure
/// (NearbyBenchmarks --flood); here the paired sends must all complete while it runs, and nothing
/// of the attacker's is written.
@Suite(.serialized) struct AttackLabTests {
    @Test func anAttackerOnTheLab() async throws {
        let work = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        for name in ["A", "B"] { try FileManager.default.moveItem(at: try TestSupport.sampleDevice(), to: work.appendingPathComponent(name)) }
        // No app takes public.data on B: the big file goes to its download folder.
        try FileManager.default.removeItem(at: work.appendingPathComponent("B/Apps/Files.app"))
        try FileManager.default.copyItem(at: TestSupport.packageRoot.appendingPathComponent("Samples/Documents/notes.txt"),
                                         to: work.appendingPathComponent("notes.txt"))
        // big.bin (64 MiB) is made by the fixture: made here, byte by byte in a debug build, it held
        // a cooperative-pool thread for seconds and starved the rest of a full run.
        let script = TestSupport.packageRoot.appendingPathComponent("Tests/NearbyTests/Fixtures/attack-lab.sh").path
        let lab = TestSupport.shared.appendingPathComponent("nearby/lab.sh").path
        let nearby = TestSupport.productsDirectory.appendingPathComponent("nearby").path
        let run = try await TestSupport.runOffPool("/bin/bash", [script, nearby, lab, work.path],
                                                   environment: ["LAB": "dat", "LAB_NET": "10.231.0", "QUIET_ROUNDS": "1"]
                                                       .merging(TestUser.fixtureEnvironment) { $1 })
        #expect(run.status == 0, "\(run.stderr)")
        var facts: [String: [String]] = [:]
        for line in run.out.split(whereSeparator: \.isNewline) {
            for word in line.split(separator: " ") {
                let parts = word.split(separator: "=", maxSplits: 1)
                if parts.count == 2 { facts[String(parts[0]), default: []].append(String(parts[1])) }
            }
        }
        func fact(_ key: String) -> String? { facts[key]?.last }
        func said(_ file: String) -> String { (try? String(contentsOf: work.appendingPathComponent(file), encoding: .utf8)) ?? "" }
        let all = run.out + run.stderr
        #expect(fact("receiver_uid") == String(TestUser.active ? TestUser.uid : geteuid()), "\(all)")

        // A device in the middle of a LocalSend send: no request, no PIN, no byte; the send fails
        // saying why.
        #expect(fact("mitm_localsend_status") == "2" && fact("mitm_localsend_says") == "1", "\(said("mitm-localsend.out"))")
        #expect(fact("mitm_localsend_requests") == "0" && fact("mitm_localsend_pins") == "0" && fact("mitm_localsend_body_bytes") == "0", "\(all)")
        // Of an AirDrop send: the same, and the stance said before it.
        #expect(fact("mitm_airdrop_status") == "2" && fact("mitm_airdrop_says") == "1" && fact("airdrop_stance_shown") == "1", "\(said("mitm-airdrop.out"))")
        #expect(fact("mitm_airdrop_requests") == "0" && fact("mitm_airdrop_pins") == "0" && fact("mitm_airdrop_body_bytes") == "0", "\(all)")

        // PIN guesses: 3 weighed, then refused, the right one included.
        #expect(fact("guess_401") == "3" && fact("guess_429") == "17" && fact("guess_right_status") == "429", "\(said("guess.out"))")

        // The flood: every paired send during it completes, the guesses are all refused, nothing of
        // the attacker's is written.
        let sends = facts["flood_status"] ?? []
        #expect(!sends.isEmpty && sends.allSatisfy { $0 == "0" }, "\(all)")
        #expect(fact("delivered") == fact("sends"), "\(all)")
        #expect(fact("downloads_other") == "0" && fact("spool_foreign") == "0" && fact("guesser_asks") == "0", "\(all)")
        // Each flood guess is refused: 429 before its body, or its connection closed at once when the
        // attacker's own flood holds the address's share of connections (status 0); none is weighed.
        let guesses = try JSONSerialization.jsonObject(with: Data(said("flood-guess.out").utf8)) as? [String: Any]
        let statuses = guesses?["statuses"] as? [String: Int] ?? [:]
        #expect(statuses.values.reduce(0, +) == 10_000 && Set(statuses.keys).isSubset(of: ["429", "0"]), "\(said("flood-guess.out"))")
        #expect([429, 0].contains(guesses?["right_pin_status"] as? Int ?? -1), "\(said("flood-guess.out"))")
        for file in ["flood-ours.out", "flood-ls.out"] {
            #expect(said(file).contains("\"connections\":1000") && said(file).contains("\"failed\":0"), "\(said(file))")
        }
        #expect(fact("fence") == "0", "packets addressed outside the lab: \(all)")
    }
}
