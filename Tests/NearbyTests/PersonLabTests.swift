import Foundation
import TestHelpers
import Testing

/// `nearby` as a person uses it (Fixtures/person-lab.sh, on hosts in network namespaces; needs
/// root for the lab, as CI has), every nearby process started as the unprivileged test user.
/// Each check failed before the change it guards (issue #42): a device paired while its receiver
/// ran was not seen; the receiver kept a zombie per app it started; everyone-mode's process did
/// not end with its minutes; without a default route the receiver closed every listener; a full
/// download folder was found after the upload; and the messages people got for their mistakes.
@Suite(.serialized) struct PersonLabTests {
    @Test func nearbyForAPersonOnALab() async throws {
        let work = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        for name in ["A", "B", "C"] { try FileManager.default.moveItem(at: try TestSupport.sampleDevice(), to: work.appendingPathComponent(name)) }
        for document in ["notes.txt", "file.person"] {
            try FileManager.default.copyItem(at: TestSupport.packageRoot.appendingPathComponent("Samples/Documents/\(document)"),
                                             to: work.appendingPathComponent(document))
        }
        let script = TestSupport.packageRoot.appendingPathComponent("Tests/NearbyTests/Fixtures/person-lab.sh").path
        let lab = TestSupport.shared.appendingPathComponent("nearby/lab.sh").path
        let nearby = TestSupport.productsDirectory.appendingPathComponent("nearby").path
        let run = try await TestSupport.runOffPool("/bin/bash", [script, nearby, lab, work.path],
                                                   environment: ["LAB": "dpl", "LAB_NET": "10.226.0"].merging(TestUser.fixtureEnvironment) { $1 })
        #expect(run.status == 0, "\(run.stderr)")
        var facts: [String: String] = [:]
        for line in run.out.split(whereSeparator: \.isNewline) {
            for word in line.split(separator: " ") {
                let parts = word.split(separator: "=", maxSplits: 1)
                if parts.count == 2 { facts[String(parts[0])] = String(parts[1]) }
            }
        }
        func said(_ file: String) -> String { (try? String(contentsOf: work.appendingPathComponent(file), encoding: .utf8)) ?? "" }
        let all = run.out + run.stderr

        // As a person runs it.
        #expect(facts["receiver_uid"] == String(TestUser.active ? TestUser.uid : geteuid()), "\(all)")

        // Paired while the receiver ran: in reach at once, at the port it announces.
        #expect(facts["pair_status"] == "0", "\(said("pair.out"))")
        #expect(facts["h1_sees_h2_at"] == "10.226.0.2:53500", "\(said("list.out"))\(all)")
        #expect(Int(facts["list_ms"] ?? "") ?? .max < 8_000, "\(all)")
        #expect(Int(facts["list_tabs"] ?? "") ?? 0 >= 1 && facts["list_literal_tabs"] == "0", "\(said("list.txt"))")
        for i in 1...3 { #expect(facts["by_name_\(i)_status"] == "0", "\(said("byname-\(i).out"))") }
        #expect(facts["noted_address"] == "10.226.0.2:53500", "\(all)")

        // 200 deliveries into an app the receiver starts: every one delivered, no zombie left.
        #expect(facts["people_status"] == "0" && facts["people_delivered"] == "200", "\(said("people.out").suffix(2000))")
        #expect(facts["zombies"] == "0", "\(all)")
        #expect(facts["unfinished"] == "0", "\(all)")

        // Mistakes, and what the person is told.
        #expect(facts["no_to_status"] == "2" && said("no-to.out").contains("send needs --to"), "\(said("no-to.out"))")
        #expect(facts["no_app_status"] == "1" && said("no-app.out").contains("the app com.example.nope is not on this device"), "\(said("no-app.out"))")
        #expect(facts["wrong_app_status"] == "1" && said("wrong-app.out").contains("com.example.photos here does not open notes.txt"),
                "\(said("wrong-app.out"))")
        #expect(facts["typo_status"] == "2" && said("typo.out").contains("no device root at") && said("typo.out").contains("did you mean"),
                "\(said("typo.out"))")
        #expect(facts["typo_identity_status"] == "2" && facts["typo_made"] == "no", "\(said("typo2.out"))")
        #expect(facts["airdrop_nobody_status"] == "2" && said("airdrop-nobody.out").contains("no AirDrop receiver on awdl0 called 'Nobody' answered"),
                "\(said("airdrop-nobody.out"))")
        for file in ["no-to.out", "no-app.out", "wrong-app.out", "airdrop-nobody.out", "localsend-port.out"] {
            #expect(!said(file).contains("I/O on closed channel") && !said(file).contains("uncleanShutdown"), "\(file): \(said(file))")
        }

        // Everyone-mode's minutes end the process (0.1 minutes: 6 s): it exits 0 by itself, not
        // at the fixture's 30 s `timeout` (status 124), where it waited for a signal before. How
        // soon after the minute is the benchmark's figure (a loaded full run took 10.8 s here
        // from the fixture's start, process start-up included).
        #expect(facts["minutes_status"] == "0" && facts["minutes_expired"] == "1", "\(said("minutes.out"))")
        #expect(Int(facts["minutes_ms"] ?? "") ?? .max < 30_000, "\(all)")

        // No default route, no multicast route: still found, still receiving.
        #expect(facts["isolated_localsend_status"] == "0", "\(said("ls-isolated.out"))\(said("recv3.out"))")
        #expect(facts["everyone_by_name_status"] == "0", "\(said("everyone-name.out"))")
        #expect(facts["localsend_port_status"] != "0" && said("localsend-port.out").contains("--localsend"), "\(said("localsend-port.out"))")
        #expect(facts["isolated_alive"] == "yes" && facts["isolated_received"] == "2" && facts["isolated_sigterm_status"] == "0",
                "\(said("recv3.out"))")

        // A full destination is refused when the ask comes: nothing was sent. The sender is told
        // how much, not where (issue #43: no local path to a peer); the receiver's person reads where.
        #expect(facts["full_status"] == "1" && said("full.out").contains("not enough free space on this device"), "\(said("full.out"))")
        #expect(!said("full.out").contains(work.path), "\(said("full.out"))")
        #expect(facts["full_spooled"] == "0", "\(all)")

        #expect(facts["fence"] == "0", "packets addressed outside the lab")
    }
}
