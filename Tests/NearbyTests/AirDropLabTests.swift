import Foundation
import OpenRequests
import TestHelpers
import Testing

/// nearby's AirDrop protocol against OpenDrop 0.13 (PyPI, in a venv the fixture makes) between
/// network namespaces, over the lab's link-local-only `awdl0` (Fixtures/airdrop-lab.sh; needs
/// root, as CI has): `opendrop find` lists our receiver, 20 files from OpenDrop land in the Notes
/// app byte-identical with `com.apple.finder` as the sending app, 20 files from our sender reach
/// an OpenDrop receiver (by name and by address) with exit statuses true to what arrived, 100 MB
/// each way intact, and nothing leaves the lab (the timings: NearbyBenchmarks --airdrop).
@Suite(.serialized) struct AirDropLabTests {
    static let rounds = 20

    @Test func openDropFindsUsSendsToUsAndTakesWhatWeSend() async throws {
        let work = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        for name in ["A", "B"] { try FileManager.default.moveItem(at: try TestSupport.sampleDevice(), to: work.appendingPathComponent(name)) }
        let script = TestSupport.packageRoot.appendingPathComponent("Tests/NearbyTests/Fixtures/airdrop-lab.sh").path
        let lab = TestSupport.shared.appendingPathComponent("nearby/lab.sh").path
        let nearby = TestSupport.productsDirectory.appendingPathComponent("nearby").path
        let run = try await TestSupport.runOffPool("/bin/bash", [script, nearby, lab, work.path, Self.venv, String(Self.rounds), "10"],
                                                   environment: ["LAB": "dad", "LAB_NET": "10.222.0"].merging(TestUser.fixtureEnvironment) { $1 })
        #expect(run.status == 0, "\(run.stderr)")
        var facts: [String: String] = [:]
        for line in run.out.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { facts[String(parts[0])] = String(parts[1]) }
        }
        // Listed every time; how fast, and 100 MB against OpenDrop to itself, are figures the
        // benchmark measures with a release build (`NearbyBenchmarks --airdrop`).
        #expect(facts["finds_listed"] == "10", "\(run.out)")
        #expect(facts["received_intact"] == String(Self.rounds), "\(run.out)")
        #expect(facts["sent_intact"] == String(Self.rounds) && facts["send_status_matches"] == String(Self.rounds), "\(run.out)")
        #expect(facts["big_opendrop_to_ours_intact"] == "yes" && facts["big_ours_to_opendrop_intact"] == "yes", "\(run.out)")
        #expect(facts["big_ours_to_opendrop_status"] == "0", "\(run.out)")
        #expect(facts["receiver_failed"] == "0" && facts["receiver_status"] == "0", "\(run.out)")
        #expect(facts["fence"] == "0", "packets addressed outside the lab")
        let requests = work.appendingPathComponent("B/Containers/com.example.notes/Library/OpenRequests")
        let sources = try FileManager.default.contentsOfDirectory(atPath: requests.path).map {
            try OpenRequest.read(requests.appendingPathComponent($0).path).sourceApplication ?? ""
        }
        #expect(sources.count == Self.rounds && sources.allSatisfy { $0 == "com.apple.finder" })
    }

    /// Where the peer's venv is kept between runs (made on first use).
    static let venv = "/var/tmp/nearby-opendrop-0.13.0"
}
