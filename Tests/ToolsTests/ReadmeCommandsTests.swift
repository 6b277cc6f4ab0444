import Foundation
import TestHelpers
import Testing

/// Every command of README.md runs as printed, from a checkout after the first set-up command:
/// each line of its `sh` blocks is run by `sh` in a folder holding a fresh copy of `Samples/`,
/// with the built tools on PATH and a home of its own. A command may answer no (exit 1) or refuse
/// what its comment says it refuses (exit 2), but never find a file missing, a tool missing, or
/// crash. The lines left out are listed with the reason.
@Suite struct ReadmeCommandsTests {
    /// Lines not run, by prefix, and why.
    static let notRun: [(prefix: String, reason: String)] = [
        ("bash scripts/run-samples", "the set-up command itself"),
        ("bash .ci/run", "the test command itself"),
        ("bash scripts/install", "installs into the home folder; InstallTests runs it into a scratch prefix"),
        ("export PATH", "the test sets PATH"),
        ("inboxd run", "runs until SIGTERM; ReceiverTests run it"),
        ("pasteboardd run", "needs a display; DesktopBridgeTests run it on Xvfb and sway"),
        ("notifyutil -1", "waits for a post; NotifyutilTests run it"),
        ("notifyutil -w", "waits for posts; NotifyutilTests run it"),
        ("openurl https://", "would start this machine's web browser, which reaches the network"),
        ("uti graph", "needs Graphviz's dot, which is optional"),
        ("nearby pair", "waits for another device, or reaches one at an address outside this machine; NearbyLabTests pair across network namespaces"),
        ("nearby receive", "runs until SIGTERM; NearbyLabTests run it"),
        ("nearby list", "looks for devices on this machine's network (mDNS); NearbyLabTests run it in network namespaces"),
        ("nearby send", "needs a paired device listening; TransferTests and NearbyLabTests send"),
        ("openin Samples/Documents/notes.txt --activity nearby:", "needs a paired device listening; OpeninNearbyRowTests choose the row"),
    ]

    static func commands() throws -> [String] {
        let readme = try String(contentsOf: TestSupport.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        var lines: [String] = []
        for block in readme.components(separatedBy: "```sh\n").dropFirst() {
            guard let body = block.components(separatedBy: "```").first else { continue }
            for line in body.split(separator: "\n").map(String.init) {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
                lines.append(line)
            }
        }
        return lines
    }

    @Test func everyCommandRunsAsPrinted() throws {
        let lines = try Self.commands()
        #expect(lines.count > 50, "\(lines.count) commands")
        let device = try TestSupport.sampleDevice()
        let folder = device.deletingLastPathComponent()
        try FileManager.default.moveItem(at: device, to: folder.appendingPathComponent("Samples"))
        let home = folder.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let environment = ["PATH": TestSupport.productsDirectory.path + ":/usr/bin:/bin", "HOME": home.path, "XDG_DATA_HOME": home.path + "/data",
                           "XDG_CONFIG_HOME": home.path + "/config", "XDG_CACHE_HOME": home.path + "/cache", "XDG_RUNTIME_DIR": home.path + "/run",
                           "DOCUMENT_INTERCHANGE_ROOT": "", "DOCUMENT_INTERCHANGE_AUTOWATCH": "off", "DISPLAY": "", "WAYLAND_DISPLAY": ""]
        var ran = 0
        for line in lines {
            let command = line.components(separatedBy: "  #").first!.trimmingCharacters(in: .whitespaces)
            if command.hasSuffix("&") || Self.notRun.contains(where: { command.hasPrefix($0.prefix) }) { continue }
            // A transcript's command ("$ openin report.pdf") is shown, not run: it is a machine's.
            if command.hasPrefix("$ ") { continue }
            let run = try TestSupport.run("/bin/sh", ["-c", "cd \"$1\" && shift && eval \"$1\" </dev/null", "sh", folder.path, command],
                                          environment: environment)
            let refuses = line.contains("refused")
            #expect(run.status <= (refuses ? 2 : 1), "\(command): exit \(run.status): \(run.stderr)")
            for sign in ["No such file or directory", "no such file", "not found", "Fatal error"] {
                #expect(!run.stderr.contains(sign), "\(command): \(run.stderr)")
            }
            ran += 1
        }
        #expect(ran > 40, "ran \(ran)")
    }
}
