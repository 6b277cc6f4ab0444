import Foundation
import TestHelpers
import Testing

/// `--help`, `help VERB` and the man page say what each verb's options mean to that verb (one
/// name may mean two things: nearby's `--port` defaults differ for receive and pair, its
/// `--localsend` is a flag for send and a choice for receive), and the man page names the files
/// and environment variables the tool reads; groff renders every page without a warning.
@Suite struct HelpAndManPageTests {
    static var nearby: String { TestSupport.productsDirectory.appendingPathComponent("nearby").path }

    /// The text with every run of white space made one space: wrapped lines read as one.
    static func flat(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }

    @Test func eachVerbSaysItsOwnPort() throws {
        let pair = try TestSupport.run(Self.nearby, ["help", "pair"])
        #expect(pair.status == 0 && Self.flat(pair.out).contains("--port N the TCP port the waiting device (--wait, --show-code) listens on (default 53401;")
                && !pair.out.contains("53400"), "\(pair.out)")
        let receive = try TestSupport.run(Self.nearby, ["help", "receive"]).out
        #expect(Self.flat(receive).contains("--port N the TCP port (default 53400;") && !receive.contains("53401"), "\(receive)")
        // --help: one row per meaning, each naming its verbs.
        let help = Self.flat(try TestSupport.run(Self.nearby, ["--help"]).out)
        for row in ["--port N the TCP port (default 53400; 0: any free port, printed) [receive]",
                    "--port N the TCP port the waiting device (--wait, --show-code) listens on (default 53401; 0: any free port, printed) [pair]",
                    "--localsend send to a LocalSend device (protocol v2)",
                    "--localsend https|http|off in everyone-mode, also receive from LocalSend apps (protocol v2): over HTTPS (default), plain HTTP, or not at all [receive]"] {
            #expect(help.contains(row), "\(row)")
        }
        // The parser reads pair's --port as pair declares it.
        let bad = try TestSupport.run(Self.nearby, ["pair", "--wait", "--port", "70000"])
        #expect(bad.status == 2 && bad.stderr.contains("--port takes a whole number from 0 to 65535"), "\(bad.stderr)")
    }

    @Test func theManPageListsEachVerbsOptionsFilesAndEnvironment() throws {
        let folder = try TestSupport.temporaryDirectory()
        let page = folder.appendingPathComponent("nearby.1")
        try TestSupport.run(Self.nearby, ["--generate-man"]).stdout.write(to: page)
        let warnings = try TestSupport.run("/usr/bin/groff", ["-man", "-ww", "-z", page.path])
        #expect(warnings.status == 0 && warnings.stderr.isEmpty, "\(warnings.stderr)")
        let utf8 = try TestSupport.run("/usr/bin/groff", ["-man", "-ww", "-Tutf8", page.path])
        #expect(utf8.status == 0 && utf8.stderr.isEmpty && !utf8.stdout.isEmpty, "\(utf8.stderr)")
        // Lines long enough that nothing wraps or is hyphenated.
        let rendered = try TestSupport.run("/usr/bin/groff", ["-man", "-rLL=1000n", "-Tascii", "-P-cbou", page.path]).out
        let lines = rendered.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for section in ["OPTIONS", "EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES"] {
            #expect(lines.contains(section), "\(section)")
        }
        let text = Self.flat(rendered)
        // receive's --localsend with its choices, beside send's flag; each verb's port.
        for row in ["--localsend https|http|off in everyone-mode, also receive from LocalSend apps (protocol v2)",
                    "--localsend send to a LocalSend device (protocol v2)",
                    "--port N the TCP port (default 53400; 0: any free port, printed) [receive]",
                    "--port N the TCP port the waiting device (--wait, --show-code) listens on (default 53401; 0: any free port, printed) [pair]"] {
            #expect(text.contains(row), "\(row)")
        }
        for name in ["ROOT/Nearby/identity-key.pem", "ROOT/Nearby/identity-cert.der", "ROOT/Nearby/Paired.plist", "ROOT/Nearby/Spool/",
                     "ROOT/Nearby/InReach.plist", "ROOT/Nearby/Outbox/", "ROOT/Nearby/LocalSend.plist", "$XDG_CONFIG_HOME/user-dirs.dirs XDG_DOWNLOAD_DIR",
                     "DOCUMENT_INTERCHANGE_ROOT the device root", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "DBUS_SESSION_BUS_ADDRESS", "DBUS_SYSTEM_BUS_ADDRESS"] {
            #expect(text.contains(name), "\(name)")
        }
        // --help shows them too.
        let help = try TestSupport.run(Self.nearby, ["--help"]).out
        #expect(help.contains("\nEnvironment:\n  DOCUMENT_INTERCHANGE_ROOT") && help.contains("\nFiles:\n  ROOT/Nearby/"), "\(help)")
        // man itself reads it without complaint.
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/man") {
            let man = try TestSupport.run("/usr/bin/man", ["-l", page.path], environment: ["MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "100"])
            #expect(man.status == 0 && man.stderr.isEmpty && man.out.contains("FILES"), "\(man.stderr)")
        }
    }

    /// Every tool's page, as the shared renderer now writes it (the options of one verb in a
    /// subsection of their own), renders without a warning.
    @Test(arguments: ToolSnapshotTests.tools)
    func everyManPageRendersWithoutWarnings(_ tool: String) throws {
        let page = try TestSupport.temporaryDirectory().appendingPathComponent("\(tool).1")
        try TestSupport.run(TestSupport.productsDirectory.appendingPathComponent(tool).path, ["--generate-man"]).stdout.write(to: page)
        let groff = try TestSupport.run("/usr/bin/groff", ["-man", "-ww", "-z", page.path])
        #expect(groff.status == 0 && groff.stderr.isEmpty, "\(tool): \(groff.stderr)")
    }
}
