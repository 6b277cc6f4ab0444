import Foundation
import TestHelpers
import Testing

/// Handoff between real processes on hosts in network namespaces (Fixtures/handoff-lab.sh; needs
/// root, as CI has): A and B pair with a code; an app on A (handoff-probe) makes its activity
/// current and resigns it 20 times while B watches (`nearby activities --watch`), B sees every
/// offer and every withdrawal, and the app's SIGKILL withdraws it too; B continues seed 002's
/// contact list (the Contacts sample, launched by `nearby continue`) and receives all of it over
/// continuation streams while A's app is told; C, not paired, is refused
/// and sees nothing; nothing of the activity crosses the lab's switch in the clear (tcpdump), and
/// nothing leaves the lab. How fast: the fixture prints it, docs/handoff.md has the figures.
@Suite(.serialized) struct HandoffLabTests {
    static let rounds = 20

    @Test func aPairedDeviceSeesTheActivityComeAndGoAndNobodyElseSeesAnything() async throws {
        let work = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        for name in ["A", "B", "C"] { try FileManager.default.moveItem(at: try TestSupport.sampleDevice(), to: work.appendingPathComponent(name)) }
        let script = TestSupport.packageRoot.appendingPathComponent("Tests/NearbyTests/Fixtures/handoff-lab.sh").path
        let lab = TestSupport.shared.appendingPathComponent("nearby/lab.sh").path
        let nearby = TestSupport.productsDirectory.appendingPathComponent("nearby").path
        let probe = TestSupport.productsDirectory.appendingPathComponent("handoff-probe").path
        let run = try await TestSupport.runOffPool("/bin/bash", [script, nearby, probe, lab, work.path, String(Self.rounds)],
                                                   environment: ["LAB": "dho", "LAB_NET": "10.224.0"].merging(TestUser.fixtureEnvironment) { $1 })
        #expect(run.status == 0, "\(run.stderr)")
        var facts: [String: String] = [:]
        for line in run.out.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { facts[String(parts[0])] = String(parts[1]) }
        }
        #expect(facts["pair_status"] == "0/0", "\(run.out)")
        #expect(facts["offer_seen"] == String(Self.rounds) && facts["withdraw_seen"] == String(Self.rounds), "\(run.out)")
        #expect(facts["killed_withdrawn_ms"].flatMap(Int.init) != nil, "\(run.out)")
        // Seed 002: B continued A's contact list, got it whole over the streams, and A was told.
        #expect(facts["continue_status"] == "0" && facts["continue_event"]?.contains("\"app\":\"com.example.contacts\"") == true
                && facts["continue_event"]?.contains("\"told\":true") == true, "\(run.out)")
        #expect(facts["b_received"] == "received 2000 contacts (\(facts["a_streamed"].flatMap { $0.split(separator: "(").dropFirst().first?.split(separator: " ").first } ?? "?") bytes), the first First0 Last0",
                "\(run.out)")
        #expect((facts["b_problem"] ?? "").isEmpty, "\(run.out)")
        #expect(facts["a_told"] == "1", "\(run.out)")
        #expect(facts["a_streamed"]?.hasPrefix("streamed 2000 contacts (") == true && facts["a_streamed"]?.hasSuffix("answered thanks") == true, "\(run.out)")
        #expect(facts["unpaired_status"] == "2" && facts["unpaired_refused"] == "yes" && facts["unpaired_saw_offer"] == "no", "\(run.out)")
        // The capture holds the pair's traffic, and none of the activity in the clear.
        #expect((facts["capture_to_receiver"].flatMap(Int.init) ?? 0) > 0, "\(run.out)")
        #expect(facts["capture_markers"] == "0", "\(run.out)")
        #expect(facts["fence"] == "0", "packets addressed outside the lab")
        // The type is one Notes declares: the app was not warned.
        let warnings = (try? String(contentsOf: work.appendingPathComponent("probe.err"), encoding: .utf8)) ?? ""
        #expect(!warnings.contains("NSUserActivityTypes"), "\(warnings)")
    }
}
