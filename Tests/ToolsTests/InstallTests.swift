import Foundation
import TestHelpers
import Testing

/// `scripts/install`: the layout a real tool has, found from wherever it is copied; man pages
/// that render; completions that complete; the systemd user unit that runs the receiver.
@Suite(.serialized) struct InstallTests {
    /// Every tool: each target under Sources/ with a main.swift, as scripts/install finds them.
    static let tools: [String] = {
        let sources = TestSupport.packageRoot.appendingPathComponent("Sources")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []
        return names.filter { FileManager.default.fileExists(atPath: sources.path + "/\($0)/main.swift") }.sorted()
    }()

    /// Installs the built tools (the test build) under a fresh prefix; the environment a user
    /// would have (a home of its own, nothing pointing at the checkout).
    static func install() async throws -> (prefix: URL, home: URL) {
        let dir = try TestSupport.temporaryDirectory()
        let prefix = dir.appendingPathComponent("prefix"), home = dir.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let script = TestSupport.packageRoot.appendingPathComponent("scripts/install").path
        // The installer's own home: the file managers' per-user actions go there, never into the
        // home of whoever runs the tests, nor into the home the queries below run in.
        let installer = dir.appendingPathComponent("installer")
        let run = try await TestSupport.runOffPool("/bin/bash", [script, "--prefix", prefix.path, "--built", TestSupport.productsDirectory.path],
                                                     environment: ["HOME": installer.path, "XDG_DATA_HOME": "", "XDG_CONFIG_HOME": ""])
        #expect(run.status == 0, "\(run.out)\(run.stderr)")
        return (prefix, home)
    }

    static func clean(home: URL) -> [String: String] {
        ["HOME": home.path, "XDG_DATA_HOME": "", "XDG_CACHE_HOME": "", "DOCUMENT_INTERCHANGE_ROOT": "", "DOCUMENT_INTERCHANGE_CATALOG": ""]
    }

    @Test func theLayoutWorksWhereverItIsCopied() async throws {
        let (prefix, home) = try await Self.install()
        defer { try? FileManager.default.removeItem(at: prefix.deletingLastPathComponent()) }
        let fm = FileManager.default
        for tool in Self.tools {
            #expect(fm.isExecutableFile(atPath: prefix.path + "/bin/" + tool), "\(tool)")
            #expect(fm.fileExists(atPath: prefix.path + "/share/man/man1/\(tool).1"))
            #expect(fm.fileExists(atPath: prefix.path + "/share/bash-completion/completions/\(tool)"))
            #expect(fm.fileExists(atPath: prefix.path + "/share/zsh/site-functions/_\(tool)"))
            #expect(fm.fileExists(atPath: prefix.path + "/share/fish/vendor_completions.d/\(tool).fish"))
        }
        let catalog = try fm.contentsOfDirectory(atPath: prefix.path + "/share/document-interchange/UTIs").filter { $0.hasSuffix(".plist") }
        let shipped = try fm.contentsOfDirectory(atPath: TestSupport.packageRoot.appendingPathComponent("UTIs").path).filter { $0.hasSuffix(".plist") }
        #expect(Set(catalog) == Set(shipped))
        let env = Self.clean(home: home)
        // Installed, and moved elsewhere with its layout: the catalog is found beside the tool.
        #expect(try TestSupport.run(prefix.path + "/bin/uti", ["conforms", "public.png", "public.data"], environment: env).out == "true\n")
        let moved = prefix.deletingLastPathComponent().appendingPathComponent("moved")
        // Copied by cp, not FileManager: a file this process writes is open in it, and a program
        // another test starts meanwhile inherits that descriptor, so running the copy can fail
        // with "Text file busy" (seen in a loaded full run).
        #expect(try TestSupport.run("/bin/cp", ["-R", prefix.path, moved.path]).status == 0)
        #expect(try TestSupport.run(moved.path + "/bin/uti", ["info", "--extension", "png"], environment: env).out.hasPrefix("identifier: public.png"))
        // Copied alone: no catalog, said so, non-zero, no answer made of dynamic types.
        let lonely = prefix.deletingLastPathComponent().appendingPathComponent("lonely")
        try fm.createDirectory(at: lonely, withIntermediateDirectories: true)
        #expect(try TestSupport.run("/bin/cp", [prefix.path + "/bin/uti", lonely.path + "/uti"]).status == 0)
        let alone = try TestSupport.run(lonely.path + "/uti", ["conforms", "public.png", "public.data"], environment: env)
        #expect(alone.status == 2 && alone.out.isEmpty && alone.stderr.contains("no type catalog found; looked in"), "\(alone.stderr)")
        // Queries wrote nothing into the user's data folder (only the cache).
        #expect(!fm.fileExists(atPath: home.path + "/.local"))
    }

    @Test func manPagesRenderWithoutWarnings() async throws {
        let (prefix, _) = try await Self.install()
        defer { try? FileManager.default.removeItem(at: prefix.deletingLastPathComponent()) }
        for tool in Self.tools {
            let page = prefix.path + "/share/man/man1/\(tool).1"
            let groff = try TestSupport.run("/usr/bin/groff", ["-man", "-ww", "-z", page])
            #expect(groff.status == 0 && groff.stderr.isEmpty, "\(tool): \(groff.stderr)")
            let text = try TestSupport.run("/usr/bin/groff", ["-man", "-Tascii", "-P-cbou", page]).out
            #expect(text.contains("NAME") && text.contains("SYNOPSIS") && text.contains("OPTIONS") && text.contains("--version"), "\(tool)")
        }
    }

    @Test func completionsComplete() async throws {
        let (prefix, _) = try await Self.install()
        defer { try? FileManager.default.removeItem(at: prefix.deletingLastPathComponent()) }
        let share = prefix.path + "/share"
        // bash: the generated function, driven as bash drives it.
        let bash = """
            source \(share)/bash-completion/completions/uti
            c() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMPREPLY=(); _uti; echo "${COMPREPLY[*]}"; }
            c uti con; c uti lint --ig; c uti lint --ignore miss; c uti for-file --by co
            source \(share)/bash-completion/completions/inboxd
            c2() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMPREPLY=(); _inboxd; echo "${COMPREPLY[*]}"; }
            c2 inboxd ru; c2 inboxd run --log-level wa
            """
        let out = try TestSupport.run("/bin/bash", ["-c", bash]).out.split(separator: "\n").map(String.init)
        #expect(out == ["conforms", "--ignore", "missing-rank", "content", "run", "warning"], "\(out)")
        // fish: its own completion engine.
        let fish = try TestSupport.run("/usr/bin/fish", ["-c", "source \(share)/fish/vendor_completions.d/uti.fish; complete -C 'uti con'; complete -C 'uti lint --ignore miss'"]).out
        #expect(fish.contains("conforms\t") && fish.contains("missing-rank"), "\(fish)")
        // zsh: every script parses, and zsh's own completion system, in an interactive shell on
        // a pseudo-terminal, completes options, verbs and subverbs with them.
        for tool in Self.tools {
            let zsh = try TestSupport.run("/usr/bin/zsh", ["-n", share + "/zsh/site-functions/_\(tool)"])
            #expect(zsh.status == 0, "\(tool): \(zsh.stderr)")
        }
        let complete = TestSupport.packageRoot.appendingPathComponent("Tests/ToolsTests/Fixtures/zsh_complete.zsh").path
        func zsh(_ line: String) throws -> [String] {
            try TestSupport.run("/usr/bin/zsh", [complete, share + "/zsh/site-functions", prefix.path + "/bin", line]).out
                .split(separator: "\n").map(String.init)
        }
        #expect(try zsh("openin --ro") == ["--root"])
        #expect(try zsh("openin def") == ["default"])
        #expect(try zsh("openin default ") == ["get", "list", "set", "unset"])
        #expect(try zsh("uti for-") == ["for-extension", "for-file", "for-mime"])
        #expect(try zsh("uti lint --ignore miss") == ["missing-rank"])
    }

    /// The unit passes systemd's own checks and its command starts the receiver on a root that is
    /// still empty; an app whose first delivery comes afterwards is served without a restart.
    @Test func theSystemdUnitRunsTheReceiverOnAnEmptyRoot() async throws {
        let (prefix, home) = try await Self.install()
        defer { try? FileManager.default.removeItem(at: prefix.deletingLastPathComponent()) }
        let unit = prefix.path + "/share/systemd/user/inboxd.service"
        // Every unit the project ships (Support/systemd), so a new one cannot go unchecked.
        let units = try FileManager.default.contentsOfDirectory(atPath: TestSupport.packageRoot.path + "/Support/systemd")
            .filter { $0.hasSuffix(".service.in") }.map { String($0.dropLast(3)) }.sorted()
        #expect(units == ["inboxd.service", "nearby.service", "openin-watch.service", "pasteboardd.service"])
        for name in units {
            let verify = try TestSupport.run("/usr/bin/systemd-analyze", ["verify", prefix.path + "/share/systemd/user/" + name],
                                             environment: ["MANPATH": prefix.path + "/share/man:"])
            #expect(verify.status == 0, "\(name): \(verify.stderr)")
        }
        let text = try String(contentsOfFile: unit, encoding: .utf8)
        let exec = try #require(text.split(separator: "\n").first { $0.hasPrefix("ExecStart=") }).dropFirst("ExecStart=".count).split(separator: " ").map(String.init)
        #expect(exec == [prefix.path + "/bin/inboxd", "run"])
        var env = Self.clean(home: home)
        env["XDG_DATA_HOME"] = home.path + "/data"
        let root = home.path + "/data/document-interchange"
        let job = Process()
        job.executableURL = URL(fileURLWithPath: exec[0])
        job.arguments = Array(exec.dropFirst()) + ["--rescan", "60"]
        job.environment = ProcessInfo.processInfo.environment.merging(env) { $1 }
        // Its log goes to a file: an unread pipe would fill and stop it mid-write.
        let log = home.appendingPathComponent("inboxd.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        job.standardError = try FileHandle(forWritingTo: log)
        try job.run()
        defer { if job.isRunning { job.terminate() } }
        try await Task.sleep(for: .milliseconds(500))
        #expect(job.isRunning, "inboxd run stopped on an empty root")
        // A first delivery to an app that had no container when the receiver started.
        let samples = TestSupport.packageRoot.appendingPathComponent("Samples")
        try FileManager.default.createDirectory(atPath: root + "/Apps", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/Apps/com.example.notes", withDestinationPath: samples.path + "/Apps/Notes.app")
        let deliver = try TestSupport.run(prefix.path + "/bin/openin", ["--to", "com.example.notes", "--from", "com.example.person-editor", "--no-launch",
                                                                          samples.path + "/Documents/notes.txt"], environment: env)
        #expect(deliver.status == 0, "\(deliver.stderr)")
        let stored = root + "/Containers/com.example.notes/Documents/notes.txt"
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: stored) && Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(FileManager.default.fileExists(atPath: stored), "the new app's delivery was not moved")
        #expect(job.isRunning)
        job.terminate()
        job.waitUntilExit()
        #expect(job.terminationStatus == 0)
    }
}

/// Every tool answers `--version`, `help` (plutil: `-help`), `help VERB`, and names an unknown
/// verb or option in its error.
@Suite struct ToolConventionTests {
    @Test func versionHelpAndUnknownWords() throws {
        for tool in InstallTests.tools {
            let path = TestSupport.productsDirectory.appendingPathComponent(tool).path
            let version = try TestSupport.run(path, ["--version"])
            #expect(version.status == 0 && version.out.hasPrefix("\(tool) ") && version.out.split(separator: " ").count == 2, "\(tool): \(version.out)")
            let help = try TestSupport.run(path, [tool == "plutil" ? "-help" : "help"])
            #expect(help.status == 0 && help.out.hasPrefix("\(tool): "), "\(tool)")
            let dashHelp = try TestSupport.run(path, ["--help"])
            #expect(dashHelp.status == 0 && dashHelp.out == help.out, "\(tool)")
            let option = try TestSupport.run(path, ["--frobnicate", "x"])
            #expect(option.status != 0 && option.stderr.contains("unknown option --frobnicate"), "\(tool): \(option.stderr)")
        }
        for (tool, verb) in [("uti", "conform"), ("inboxd", "rum")] {
            let run = try TestSupport.run(TestSupport.productsDirectory.appendingPathComponent(tool).path, [verb])
            #expect(run.status == 2 && run.stderr.contains("unknown verb '\(verb)'") && run.stderr.contains("did you mean"), "\(run.stderr)")
        }
        let verbHelp = try TestSupport.run(TestSupport.uti, ["help", "lint"])
        #expect(verbHelp.out.hasPrefix("uti lint: ") && verbHelp.out.contains("--ignore RULE"))
        let misplaced = try TestSupport.run(TestSupport.inboxd, ["status", "--working-folder", "/tmp"])
        #expect(misplaced.status == 2 && misplaced.stderr.contains("--working-folder does not apply to 'status'"), "\(misplaced.stderr)")
    }
}
