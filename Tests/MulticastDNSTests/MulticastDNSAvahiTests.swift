import Foundation
import TestHelpers
import Testing
@testable import MulticastDNS

/// Choosing the Avahi path without a daemon to reach.
struct AvahiFallbackTests {
    /// Without a daemon to reach (no bus at the address libdbus reads), automatic is the built-in
    /// engine at once, and says why; `.avahi` throws the reason. On the loopback interface, with
    /// a bus address that names nothing: nothing here can reach a daemon or leave the machine.
    @Test func automaticFallsBackWithoutADaemon() throws {
        let saved = ProcessInfo.processInfo.environment["DBUS_SYSTEM_BUS_ADDRESS"]
        setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/avahi-test/socket", 1)
        defer { if let saved { setenv("DBUS_SYSTEM_BUS_ADDRESS", saved, 1) } else { unsetenv("DBUS_SYSTEM_BUS_ADDRESS") } }
        let start = Date()
        let browser = try MulticastBrowser(type: "_di-nearby._tcp", interfaces: ["lo"])
        let elapsed = Date().timeIntervalSince(start)
        defer { browser.stop() }
        #expect(browser.backend == .builtIn)
        #expect(browser.fallbackReason?.hasPrefix("no avahi-daemon is reachable over D-Bus: ") == true, "\(browser.fallbackReason ?? "-")")
        // A bound on a hang (a D-Bus timeout is 25 s), not a figure: a loaded CI is slow to start.
        #expect(elapsed < 5, "the fallback took \(elapsed) s")
        let instance = try ServiceInstance(name: "x", type: "_di-nearby._tcp", port: 1, hostLabel: "x")
        let error = #expect(throws: MulticastDNSError.self) {
            try MulticastResponder(instances: [instance], interfaces: ["lo"], backend: .avahi)
        }
        guard case .avahiUnavailable(let reason) = error else {
            Issue.record("expected avahiUnavailable, got \(String(describing: error))")
            return
        }
        #expect(!reason.isEmpty)
        let builtIn = try MulticastBrowser(type: "_di-nearby._tcp", interfaces: ["lo"], backend: .builtIn)
        #expect(builtIn.backend == .builtIn && builtIn.fallbackReason == nil)
        builtIn.stop()
    }
}

/// MulticastDNS's Avahi path against real avahi-daemons, each on a private dbus-daemon inside a
/// lab host (../shared/nearby/lab.sh, run by Fixtures/avahi-lab.sh, which needs root as CI has,
/// avahi-daemon and dbus-daemon: scripts/install-dependencies --tests), with python-zeroconf 0.154
/// and our built-in engine as the other peers: published through Avahi and found by
/// python-zeroconf, with no udp/5353 socket of our own; browsing through Avahi, resolved to the
/// same values the built-in browser gives; automatic falling back to the built-in engine without
/// a daemon, at once; a taken name replaced by Avahi's alternative; the daemon stopping under a
/// publishing responder. No packet leaves the lab. In MulticastDNSLabTests, whose tests run one
/// at a time: both make the python-zeroconf venv when it is missing, which two at once would spoil.
extension MulticastDNSLabTests {
    static var avahiLabReady: Bool {
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/avahi-daemon")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon")
    }

    @Test(.enabled(if: avahiLabReady, "needs root (network namespaces), avahi-daemon and dbus-daemon"))
    func throughAvahiDaemonsInTheLab() async throws {
        let work = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let script = TestSupport.packageRoot.appendingPathComponent("Tests/MulticastDNSTests/Fixtures/avahi-lab.sh").path
        let lab = TestSupport.shared.appendingPathComponent("nearby/lab.sh").path
        let probe = TestSupport.productsDirectory.appendingPathComponent("mdns-probe").path
        let venv = TestSupport.packageRoot.appendingPathComponent(".venv-mdns").path
        let run = try await TestSupport.runOffPool("/bin/bash", [script, probe, lab, work.path, venv], environment: ["LAB": "dav", "LAB_NET": "10.219.0"].merging(TestUser.fixtureEnvironment) { $1 })
        #expect(run.status == 0, "\(run.stderr)")
        var facts: [String: String] = [:]
        for line in run.out.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { facts[String(parts[0])] = String(parts[1]) }
        }
        print(run.out)
        #expect(facts["avahi_h1"] == "1" && facts["avahi_h2"] == "1", "avahi-daemon did not start: \(run.stderr)")
        // A: published through h1's daemon, python-zeroconf in h2 resolves it (to the host label's
        // name, as the built-in engine publishes it), sees the TXT change and the goodbye; only
        // avahi-daemon holds udp/5353.
        #expect(facts["a_backend"] == "avahi")
        #expect(facts["a_udp5353_h1"] == "avahi-daemon", "\(facts)")
        #expect(facts["a_zc_server"] == "di-h1.local.")
        #expect(facts["a_zc_port"] == "53400")
        #expect(facts["a_zc_txt"] == #"{"fp":"3fa2","v":"1"}"#)
        #expect(facts["a_zc_addresses"]?.contains(#""10.219.0.1""#) == true, "\(facts)")
        #expect(facts["a_zc_updated_txt"] == #"{"fp":"3fa2","v":"2"}"#)
        #expect(facts["a_zc_removed"] == "Alice's Mac._di-nearby._tcp.local.")
        // B: browsing through h2's daemon: python-zeroconf's instance in h3, resolved as the
        // built-in browser resolves it (MulticastDNSLabTests B), and its goodbye.
        #expect(facts["b_backend"] == "avahi")
        #expect(facts["b_udp5353_h2"] == "avahi-daemon", "\(facts)")
        #expect(facts["b_ours_host"] == "zc-h3.local.")
        #expect(facts["b_ours_port"] == "53401")
        #expect(facts["b_ours_txt"] == #"{"flag":"","v":"2"}"#)
        #expect(facts["b_ours_addresses"] == #"["10.219.0.3"]"#)
        #expect(facts["b_ours_interface"] == "eth0")
        #expect(facts["b_ours_removed"] == "Bob zc")
        // C: found within two seconds of a responder's start, and of the browser's start.
        #expect(facts["c_found_runs"] == "5" && (facts["c_found_max_ms"].flatMap(Int.init) ?? .max) <= 2000, "\(facts)")
        #expect(facts["c_existing_runs"] == "5" && (facts["c_existing_max_ms"].flatMap(Int.init) ?? .max) <= 2000, "\(facts)")
        // D: no daemon: the built-in engine at once, with the reason; .avahi refuses. "At once"
        // is a bound, not a figure (alone the whole process takes 14-35 ms; a loaded full suite
        // once took 1.16 s): 5 s is far below the 25 s a wait for D-Bus's reply timeout would show.
        #expect((facts["d_nosocket_ms"].flatMap(Int.init) ?? .max) < 5000, "\(facts)")
        #expect(facts["d_backend"] == "built-in")
        #expect(facts["d_fallback"]?.hasPrefix("no avahi-daemon is reachable over D-Bus") == true, "\(facts)")
        #expect(facts["d_avahi_error"]?.hasPrefix("no avahi-daemon is reachable over D-Bus") == true, "\(facts)")
        #expect(facts["d_emptybus_backend"] == "built-in")
        #expect(facts["d_emptybus_fallback"]?.hasPrefix("no avahi-daemon is reachable over D-Bus") == true, "\(facts)")
        #expect((facts["d_emptybus_ms"].flatMap(Int.init) ?? .max) < 5000, "\(facts)")
        // E: a taken name: Avahi's alternative, and both seen from h2.
        #expect(facts["e_names"] == "Gina #2", "\(facts)")
        #expect(facts["e_seen_from_h2"] == "Gina,Gina #2", "\(facts)")
        // Without interfaces (every one, Avahi's AVAHI_IF_UNSPEC) on both sides.
        #expect(facts["e_seen_through_avahi"] == "Gina@eth0:53405:10.219.0.3;Gina #2@eth0:53406:10.219.0.1", "\(facts)")
        // F: the daemon stops: the built-in engine takes over within a second and answers.
        #expect(facts["f_backend_before"] == "avahi")
        #expect(facts["f_backend_after"] == "built-in", "\(facts)")
        #expect(facts["f_fallback"]?.hasPrefix("avahi-daemon went away") == true, "\(facts)")
        #expect((facts["f_switch_ms"].flatMap(Int.init) ?? .max) <= 1000, "\(facts)")
        #expect(facts["f_udp5353_h1"] == "mdns-probe", "\(facts)")
        #expect(facts["f_seen_from_h3"] == "Fay,Hal zc", "\(facts)")
        #expect(facts["f_stopped"] == "stopped" && (facts["f_stop_ms"].flatMap(Int.init) ?? .max) < 3000, "\(facts)")
        #expect(facts["f_browser_backend_after"] == "built-in", "\(facts)")
        #expect(facts["f_browser_hal"] == "added,removed,added", "\(facts)")
        // The daemon back: both return to it, it alone holds udp/5353, ours is still found, and
        // a new address of the interface is published for our host label.
        #expect(facts["f_returned"] == "avahi,None" && facts["f_browser_returned"] == "avahi,None", "\(facts)")
        #expect(facts["f_udp5353_h1_returned"] == "avahi-daemon", "\(facts)")
        #expect(facts["f_seen_from_h3_returned"] == "Fay,Hal zc", "\(facts)")
        #expect(facts["f_browser_hal_returned"] == "added,removed,added,removed,added", "\(facts)")
        #expect(facts["f_new_address_published"] == "yes", "\(facts)")
        // G: through Avahi, 30 starts and stops leave no descriptor or thread; a browser stopped
        // from its own callback ends cleanly.
        #expect(facts["g_times"] == "30")
        #expect(facts["g_fds_before"] != nil && facts["g_fds_before"] == facts["g_fds_after"], "\(facts)")
        #expect(facts["g_threads_before"] != nil && facts["g_threads_before"] == facts["g_threads_after"], "\(facts)")
        // (The first may be one h2's daemon still holds from E for a goodbye's second, or Ivy.)
        #expect(facts["g_first"] != nil && facts["g_first"] != "none", "\(facts)")
        #expect(facts["g_stopped_in_callback"] == "true" && facts["g_first_status"] == "0", "\(facts)")
        #expect(facts["fence"] == "0", "packets addressed outside the lab")
    }

    /// The nearby tool through avahi-daemons (Fixtures/avahi-nearby.sh): a receiver in h1
    /// announces through h1's daemon, on a port other than the one it was paired at, and h2's
    /// `nearby list` and `nearby send --to h1`, browsing through h2's daemon, find it there. Here
    /// rather than in NearbyTests: it shares this suite's lab and daemons' setup, one test at a time.
    @Test(.enabled(if: avahiLabReady, "needs root (network namespaces), avahi-daemon and dbus-daemon"))
    func nearbyFindsAReceiverThroughAvahi() async throws {
        let work = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        for name in ["A", "B"] {
            try FileManager.default.moveItem(at: try TestSupport.sampleDevice(), to: work.appendingPathComponent(name))
        }
        let notes = TestSupport.packageRoot.appendingPathComponent("Samples/Documents/notes.txt")
        try FileManager.default.copyItem(at: notes, to: work.appendingPathComponent("notes.txt"))
        let script = TestSupport.packageRoot.appendingPathComponent("Tests/MulticastDNSTests/Fixtures/avahi-nearby.sh").path
        let lab = TestSupport.shared.appendingPathComponent("nearby/lab.sh").path
        let nearby = TestSupport.productsDirectory.appendingPathComponent("nearby").path
        let probe = TestSupport.productsDirectory.appendingPathComponent("mdns-probe").path
        let run = try await TestSupport.runOffPool("/bin/bash", [script, nearby, probe, lab, work.path], environment: ["LAB": "dav", "LAB_NET": "10.219.0"].merging(TestUser.fixtureEnvironment) { $1 })
        #expect(run.status == 0, "\(run.stderr)")
        print(run.out)
        let lines = Set(run.out.split(whereSeparator: \.isNewline).map(String.init))
        #expect(lines.contains("pair_status=0") && lines.contains("show_status=0"), "\(run.out)")
        // Only avahi-daemon holds udp/5353 in h1 while the receiver announces.
        #expect(lines.contains("udp5353_h1=avahi-daemon"), "\(run.out)")
        // The announcement names nearby's random host label, not the daemon's host name.
        #expect(lines.contains { $0.hasPrefix("announced_host=di-") && $0.hasSuffix(".local. 53500") }, "\(run.out)")
        #expect(lines.contains("h2_sees_h1_at=10.219.0.1:53500"), "\(run.out)")
        #expect(lines.contains("send_status=0") && lines.contains("received=intact"), "\(run.out)")
        #expect(lines.contains("fence=0"), "packets addressed outside the lab")
    }
}
