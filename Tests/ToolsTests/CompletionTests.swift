import SystemCalls
import Foundation
import TestHelpers
import Testing

/// Completion as a person uses it, verb by verb: after a verb only the tool's options and that
/// verb's are offered, an option's value is completed as that verb declares it (nearby's
/// `--localsend` is a flag for send and a choice for receive), and operands as the verb takes them:
/// files, nothing, or what the tool itself lists (`--complete-values`: nearby's paired devices).
/// Each shell is a real one, started as ``TestUser`` as a person's shell is, so that the `nearby`
/// it runs for values runs as them too.
@Suite struct CompletionTests {
    /// The paired devices' names as stored: one with a space, one with a newline, one with a tab.
    static let names = ["desk", "my laptop", "two\nlines", "tab\there"]
    /// The same as offered: one a line, control characters escaped (TerminalText).
    static let offered = ["desk", "my laptop", "two\\nlines", "tab\\there"]

    /// A folder to complete in, holding one file (what file completion offers) and a device root
    /// with ``names`` paired, as `ROOT/Nearby/Paired.plist` stores them.
    static func setUp() throws -> (folder: URL, root: URL) {
        let root = try TestSupport.sampleDevice()
        let folder = root.deletingLastPathComponent().appendingPathComponent("here")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data().write(to: folder.appendingPathComponent("report.pdf"))
        let nearby = root.appendingPathComponent("Nearby")
        try FileManager.default.createDirectory(at: nearby, withIntermediateDirectories: true)
        var entries = ""
        for (index, name) in names.enumerated() {
            let fingerprint = Data(repeating: UInt8(index + 1), count: 32).base64EncodedString()
            entries += "<dict><key>Fingerprint</key><data>\(fingerprint)</data><key>Name</key><string>\(name)</string><key>PairedAt</key><real>0</real></dict>\n"
        }
        try Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict><key>Devices</key><array>\n\(entries)</array></dict></plist>\n".utf8)
            .write(to: nearby.appendingPathComponent("Paired.plist"))
        TestUser.own(root.deletingLastPathComponent())
        // The file is what nearby reads: it lists the same devices.
        let list = try TestSupport.run(nearbyPath, ["list", "--no-discovery", "--json", "--root", root.path])
        let rows = try #require(try JSONSerialization.jsonObject(with: list.stdout) as? [[String: Any]], "\(list.stderr)")
        #expect(rows.compactMap { $0["name"] as? String } == names)
        return (folder, root)
    }

    static var nearbyPath: String { TestSupport.productsDirectory.appendingPathComponent("nearby").path }

    /// Runs `executable` as a person's shell runs: as ``TestUser``, in `folder`, with the built
    /// tools first on PATH and no device root named by the environment unless `environment` does
    /// (the XDG folders beside `folder`: fish makes its own in the data folder).
    static func shell(_ executable: String, _ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws -> TestSupport.Run {
        let command = TestUser.command("/bin/sh", ["-c", "cd \"$1\" && shift && exec \"$@\"", "sh", folder.path, executable] + arguments)
        let xdg = folder.deletingLastPathComponent().path + "/xdg"
        var env = ["PATH": TestSupport.productsDirectory.path + ":/usr/bin:/bin", "DOCUMENT_INTERCHANGE_ROOT": "",
                   "XDG_DATA_HOME": xdg + "/data", "XDG_CONFIG_HOME": xdg + "/config", "XDG_CACHE_HOME": xdg + "/cache"]
        if TestUser.active { env["HOME"] = TestUser.home }
        return try TestSupport.run(command.executable, command.arguments, environment: env.merging(environment) { $1 })
    }

    /// `tool`'s generated script for `shell`, written beside `folder`.
    static func script(_ tool: String, _ shell: String, beside folder: URL) throws -> URL {
        let run = try TestSupport.run(TestSupport.productsDirectory.appendingPathComponent(tool).path, ["--generate-completion", shell])
        #expect(run.status == 0, "\(run.stderr)")
        let file = folder.deletingLastPathComponent().appendingPathComponent("\(tool).\(shell)")
        try run.stdout.write(to: file)
        return file
    }

    /// What bash offers for the last of `words` (COMP_WORDS, COMP_CWORD), as the shell asks.
    static func bash(_ tool: String, _ words: [String], in folder: URL, environment: [String: String] = [:]) throws -> [String] {
        let file = try script(tool, "bash", beside: folder)
        let quoted = ([tool] + words).map { "'" + $0.replacing("'", with: "'\\''") + "'" }.joined(separator: " ")
        let run = try shell("/bin/bash", ["-c", "source '\(file.path)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count); _\(tool); printf '%s\\n' \"${COMPREPLY[@]}\""],
                            in: folder, environment: environment)
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        return run.out.split(separator: "\n").map(String.init)
    }

    @Test func bashOffersAfterAVerbOnlyItsOwnOptions() throws {
        let (folder, _) = try Self.setUp()
        let send = try Self.bash("nearby", ["send", "--"], in: folder)
        #expect(Set(send).isSuperset(of: ["--to", "--localsend", "--app", "--root", "--help", "--version"]), "\(send)")
        #expect(Set(send).isDisjoint(with: ["--mode", "--wait", "--rotate", "--watch", "--port", "--minutes"]), "\(send)")
        let receive = try Self.bash("nearby", ["receive", "--"], in: folder)
        #expect(Set(receive).isSuperset(of: ["--mode", "--port", "--localsend", "--root"]) && Set(receive).isDisjoint(with: ["--to", "--wait", "--app"]), "\(receive)")
        // Before a verb: the tool's own options, and the verbs.
        #expect(try Self.bash("nearby", ["--"], in: folder) == ["--root", "--help", "--version"])
        #expect(Set(try Self.bash("nearby", [""], in: folder)) == ["identity", "list", "status", "send", "receive", "pair", "activities", "continue", "streams", "unpair"])
        // The same for every tool: uti's conforms takes --quiet, not lint's --ignore.
        let conforms = try Self.bash("uti", ["conforms", "--"], in: folder)
        #expect(conforms.contains("--quiet") && !conforms.contains("--ignore") && !conforms.contains("--json"), "\(conforms)")
        #expect(try Self.bash("uti", ["lint", "--ig"], in: folder) == ["--ignore"])
        #expect(Set(try Self.bash("plutil", ["-convert", ""], in: folder)).isSuperset(of: ["xml1", "binary1", "json"]))
    }

    /// One option name, two meanings: the value is completed as the verb given declares it.
    @Test func bashCompletesAnOptionAsItsVerbDeclaresIt() throws {
        let (folder, _) = try Self.setUp()
        #expect(try Self.bash("nearby", ["receive", "--localsend", ""], in: folder) == ["https", "http", "off"])
        // send's --localsend is a flag: what follows is an operand, a file.
        #expect(try Self.bash("nearby", ["send", "--localsend", ""], in: folder) == ["report.pdf"])
        // uti's --mime is a value for info, a flag for for-file.
        #expect(try Self.bash("uti", ["info", "--mime", ""], in: folder) == [])
        #expect(try Self.bash("uti", ["for-file", "--mime", ""], in: folder) == ["report.pdf"])
    }

    @Test func bashCompletesOperandsAsTheVerbTakesThem() throws {
        let (folder, root) = try Self.setUp()
        for verb in ["unpair", "pair", "activities", "continue", "streams"] {
            #expect(try Self.bash("nearby", ["--root", root.path, verb, ""], in: folder) == Self.offered, "\(verb)")
        }
        // A name with a space is one word.
        #expect(try Self.bash("nearby", ["--root", root.path, "unpair", "my"], in: folder) == ["my laptop"])
        #expect(try Self.bash("nearby", ["--root", root.path, "unpair", "\"my l"], in: folder) == ["my laptop"])
        #expect(try Self.bash("nearby", ["--root", root.path, "unpair", "my\\ l"], in: folder) == ["my laptop"])
        #expect(try Self.bash("nearby", ["send", "--root", root.path, "--to", ""], in: folder) == Self.offered)
        #expect(try Self.bash("nearby", ["--root", root.path, "send", "--to", "d"], in: folder) == ["desk"])
        // The root as nearby finds it without --root.
        #expect(try Self.bash("nearby", ["unpair", ""], in: folder, environment: ["DOCUMENT_INTERCHANGE_ROOT": root.path]) == Self.offered)
        #expect(try Self.bash("nearby", ["send", ""], in: folder) == ["report.pdf"])
        #expect(try Self.bash("nearby", ["identity", ""], in: folder) == [])
        #expect(try Self.bash("nearby", ["receive", ""], in: folder) == [])
        // A root that does not exist: nothing offered, nothing made.
        let missing = folder.appendingPathComponent("missing")
        #expect(try Self.bash("nearby", ["--root", missing.path, "unpair", ""], in: folder) == [])
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }

    @Test func completeValuesPrintsOneNameALineAndCreatesNothing() throws {
        let (folder, root) = try Self.setUp()
        let listed = try Self.shell(Self.nearbyPath, ["--complete-values", "paired-devices", "--root", root.path], in: folder)
        #expect(listed.status == 0 && listed.stderr.isEmpty && listed.out == Self.offered.map { $0 + "\n" }.joined(), "\(listed.out)\(listed.stderr)")
        // Missing roots, named or the user's default, and a root with no nearby state: quiet, empty, untouched.
        let before = FirstHourTests.tree(folder.deletingLastPathComponent())
        let fresh = try TestSupport.sampleDevice()
        for (arguments, environment) in [(["--root", folder.appendingPathComponent("missing").path], [String: String]()),
                                          ([], ["DOCUMENT_INTERCHANGE_ROOT": folder.appendingPathComponent("missing-too").path]),
                                          ([], [:]),
                                          (["--root", fresh.path], [:])] {
            let run = try Self.shell(Self.nearbyPath, ["--complete-values", "paired-devices"] + arguments, in: folder, environment: environment)
            #expect(run.status == 0 && run.stdout.isEmpty && run.stderr.isEmpty, "\(arguments) \(environment): \(run.status) \(run.out)\(run.stderr)")
        }
        #expect(FirstHourTests.tree(folder.deletingLastPathComponent()) == before)
        #expect(!FileManager.default.fileExists(atPath: fresh.appendingPathComponent("Nearby").path))
        // A source nearby does not declare, or a tool that lists nothing: a usage error.
        let unknown = try Self.shell(Self.nearbyPath, ["--complete-values", "apps"], in: folder)
        #expect(unknown.status == 2 && unknown.stderr.contains("takes one of paired-devices"), "\(unknown.stderr)")
        let uti = try TestSupport.run(TestSupport.uti, ["--complete-values", "paired-devices"])
        #expect(uti.status == 2 && uti.stderr.contains("uti completes nothing by asking itself"), "\(uti.stderr)")
    }

    /// zsh's own completion system, in an interactive shell on a pseudo-terminal (the fixture
    /// prints every candidate a completion function adds).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh"), "zsh is not installed"))
    func zshCompletesVerbByVerb() throws {
        let (folder, root) = try Self.setUp()
        let functions = folder.deletingLastPathComponent().appendingPathComponent("zsh-functions")
        try FileManager.default.createDirectory(at: functions, withIntermediateDirectories: true)
        for tool in ["nearby", "plutil"] {
            try FileManager.default.moveItem(at: try Self.script(tool, "zsh", beside: folder), to: functions.appendingPathComponent("_" + tool))
        }
        TestUser.own(functions)
        let fixture = TestSupport.packageRoot.appendingPathComponent("Tests/ToolsTests/Fixtures/zsh_complete.zsh").path
        func zsh(_ line: String) throws -> [String] {
            try Self.shell("/usr/bin/zsh", [fixture, functions.path, TestSupport.productsDirectory.path, line], in: folder).out.split(separator: "\n").map(String.init)
        }
        let send = try zsh("nearby send --")
        #expect(send.contains("--to") && send.contains("--localsend") && !send.contains("--mode") && !send.contains("--wait"), "\(send)")
        #expect(try zsh("nearby receive --localsend ") == ["http", "https", "off"])
        #expect(try zsh("nearby send --localsend ") == ["report.pdf"])
        #expect(try zsh("nearby --root \(root.path) unpair ") == Self.offered.sorted())
        #expect(try zsh("nearby --root \(root.path) pair my") == ["my laptop"])
        #expect(try zsh("nearby send --root \(root.path) --to ") == Self.offered.sorted())
        #expect(try zsh("nearby receive --root \(root.path) --mode ") == ["everyone", "off", "paired"])
        let identity = try zsh("nearby identity ")
        #expect(identity.contains("--rotate") && !identity.contains("report.pdf"), "\(identity)")
        #expect(try zsh("plutil -convert ") == ["binary1", "json", "xml1"])
    }

    /// fish, as its own `complete -C` answers (the candidate, then a tab and its description).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/fish"), "fish is not installed"))
    func fishCompletesVerbByVerb() throws {
        let (folder, root) = try Self.setUp()
        let file = try Self.script("nearby", "fish", beside: folder)
        func fish(_ line: String) throws -> [String] {
            let run = try Self.shell("/usr/bin/fish", ["--no-config", "-c", "source '\(file.path)'; complete -C '\(line)'"], in: folder)
            #expect(run.stderr.isEmpty, "\(run.stderr)")
            return run.out.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        }
        let send = try fish("nearby send --")
        #expect(send.contains("--to") && !send.contains("--mode"), "\(send)")
        #expect(Set(try fish("nearby receive --localsend ")) == ["https", "http", "off"])
        #expect(try fish("nearby send --localsend ") == ["report.pdf"])
        #expect(Set(try fish("nearby --root \(root.path) unpair ")) == Set(Self.offered))
        #expect(Set(try fish("nearby send --root \(root.path) --to ")) == Set(Self.offered))
        #expect(try fish("nearby identity ") == [])
    }
}
