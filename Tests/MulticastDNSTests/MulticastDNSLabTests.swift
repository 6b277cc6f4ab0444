import Foundation
import TestHelpers
import Testing

/// MulticastDNS between real processes on hosts in network namespaces (../shared/nearby/lab.sh,
/// run by Fixtures/mdns-lab.sh, which needs root as CI has) against python-zeroconf 0.154 (in a
/// venv the script makes when missing) and avahi-daemon (when installed:
/// scripts/install-dependencies --tests): each side finds, resolves and loses the other's
/// instance; our browser sees our responder within a second of its start; python-zeroconf and
/// our responder share a host; start and stop leave nothing behind; no packet leaves the lab.
@Suite(.serialized) struct MulticastDNSLabTests {
    @Test func interopWithZeroconfAndAvahiAcrossNamespaces() async throws {
        let work = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let script = TestSupport.packageRoot.appendingPathComponent("Tests/MulticastDNSTests/Fixtures/mdns-lab.sh").path
        let lab = TestSupport.shared.appendingPathComponent("nearby/lab.sh").path
        let probe = TestSupport.productsDirectory.appendingPathComponent("mdns-probe").path
        let venv = TestSupport.packageRoot.appendingPathComponent(".venv-mdns").path
        let run = try await TestSupport.runOffPool("/bin/bash", [script, probe, lab, work.path, venv], environment: ["LAB": "dmt", "LAB_NET": "10.216.0"])
        #expect(run.status == 0, "\(run.stderr)")
        var facts: [String: String] = [:]
        for line in run.out.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { facts[String(parts[0])] = String(parts[1]) }
        }
        print(run.out)
        // A: python-zeroconf resolves our instance to h1's address, port and TXT, sees its TXT
        // change, and sees it go.
        #expect(facts["a_zc_server"] == "di-h1.local.")
        #expect(facts["a_zc_port"] == "53400")
        #expect(facts["a_zc_txt"] == #"{"fp":"3fa2","v":"1"}"#)
        #expect(facts["a_zc_addresses"]?.contains(#""10.216.0.1""#) == true, "\(facts)")
        #expect(facts["a_zc_addresses"]?.contains("10.216.0.2") == false)
        #expect(facts["a_zc_updated_txt"] == #"{"fp":"3fa2","v":"2"}"#)
        #expect(facts["a_zc_removed"] == "Alice's Mac._di-nearby._tcp.local.")
        // B: our browser resolves python-zeroconf's instance, and reports its goodbye.
        #expect(facts["b_ours_host"] == "zc-h2.local.")
        #expect(facts["b_ours_port"] == "53401")
        #expect(facts["b_ours_txt"] == #"{"flag":"","v":"2"}"#)
        #expect(facts["b_ours_addresses"] == #"["10.216.0.2"]"#)
        #expect(facts["b_ours_interface"] == "eth0")
        #expect(facts["b_ours_removed"] == "Bob zc")
        // C: found within a second of the responder's start in every run; goodbyes reported a
        // second after the stop (RFC 6762 §10.1), well before any TTL.
        #expect(facts["c_found_runs"] == "10" && facts["c_removed_runs"] == "10")
        #expect((facts["c_found_max_ms"].flatMap(Int.init) ?? .max) <= 1000, "\(facts)")
        #expect((facts["c_removed_p90_ms"].flatMap(Int.init) ?? .max) <= 2000, "\(facts)")
        #expect(facts["c_existing_runs"] == "10" && (facts["c_existing_max_ms"].flatMap(Int.init) ?? .max) <= 1000, "\(facts)")
        // D: both stacks on one host, both found by both browsers from both hosts; zeroconf's
        // instance still answered after ours stopped.
        for key in ["d_ours_from_h2", "d_ours_from_h1", "d_zc_from_h2", "d_zc_from_h1"] {
            #expect(facts[key] == "Dana ours,Dana zc", "\(key): \(facts[key] ?? "-")")
        }
        #expect(facts["d_after_ours_stopped"] == "Dana zc")
        // E: 30 starts and stops leave no descriptor or thread.
        #expect(facts["e_times"] == "30")
        #expect(facts["e_fds_before"] != nil && facts["e_fds_before"] == facts["e_fds_after"], "\(facts)")
        #expect(facts["e_threads_before"] != nil && facts["e_threads_before"] == facts["e_threads_after"], "\(facts)")
        // F: avahi-daemon's static service, when avahi is installed.
        if facts["f_ours_found"] != "skipped" {
            #expect(facts["f_ours_found"] == "Erin avahi")
            #expect(facts["f_avahi_service"] == #"{"addresses":["10.216.0.3","fd42:4e42::3"],"host":"avahi-h3.local.","port":53404,"txt":{"v":"5"}}"#)
        }
        #expect(facts["fence"] == "0", "packets addressed outside the lab")
    }
}
