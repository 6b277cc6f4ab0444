import Foundation
import TestHelpers
import Testing

/// Every tool, the same manners: a near miss is answered with what was meant, an unknown name is
/// named, and a message says what is wrong once and rightly.
@Suite struct ToolMannersTests {
    func expect(_ run: TestSupport.Run, status: Int32, says text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.status == status && run.stderr.contains(text), "exit \(run.status): \(run.stderr)", sourceLocation: sourceLocation)
    }

    @Test func nearMissesAreAnsweredWithWhatWasMeant() throws {
        let root = try TestSupport.sampleDevice()
        let doc = root.appendingPathComponent("Documents/file.person").path
        expect(try TestSupport.run(TestSupport.plutil, ["-conver", "json", doc]), status: 1, says: "unknown option -conver (did you mean -convert?)")
        expect(try TestSupport.run(TestSupport.openin, ["--root", root.path, "defualt"]), status: 2, says: "defualt: no such file (did you mean the verb default?)")
        expect(try TestSupport.run(TestSupport.openurl, ["--root", root.path, "defualt"]), status: 2, says: "(did you mean the verb default?)")
        expect(try TestSupport.run(TestSupport.openin, ["--root", root.path, "--to", "com.example.person-veiwer", doc]), status: 2,
               says: "no registered app com.example.person-veiwer on \(root.path) (did you mean com.example.person-viewer?)")
        expect(try TestSupport.run(TestSupport.openurl, ["--root", root.path, "--can", "--from", "com.example.persn-editor", "person-viewer:"]), status: 2,
               says: "--from com.example.persn-editor: no registered app of that name on \(root.path) (did you mean com.example.person-editor?)")
    }

    @Test func messagesSayWhatIsWrongOnce() throws {
        let root = try TestSupport.sampleDevice()
        let missing = root.appendingPathComponent("missing.plist").path
        let lintMissing = try TestSupport.run(TestSupport.plutil, ["-lint", missing])
        #expect(lintMissing.status == 1 && lintMissing.stderr.components(separatedBy: missing).count == 2, "the path once: \(lintMissing.stderr)")
        let utiMissing = try TestSupport.run(TestSupport.uti, ["lint", missing])
        #expect(utiMissing.out.contains("(unreadable)") && !utiMissing.out.contains("not-a-dictionary"), "\(utiMissing.out)")
        let broken = root.appendingPathComponent("broken.plist")
        try Data("<plist><dict><key>a</key></dict>".utf8).write(to: broken)
        #expect(try TestSupport.run(TestSupport.uti, ["lint", broken.path]).out.contains("(malformed)"))
        let file = root.appendingPathComponent("Documents/notes.txt").path
        expect(try TestSupport.run(TestSupport.openin, ["--root", root.path, "--activity", "copy-to-folder", "--destination", file,
                                                        root.appendingPathComponent("Documents/readme.md").path]),
               status: 2, says: "copy-to-folder: \(file) is not a folder")
        for tool in [TestSupport.openin, TestSupport.uti, TestSupport.openurl] {
            let arguments = tool == TestSupport.uti ? ["info", "public.png"] : tool == TestSupport.openurl ? ["person-viewer:"] : ["--list", file]
            expect(try TestSupport.run(tool, ["--root", file] + arguments), status: 2, says: "\(file) is not a folder, so not a device root")
        }
    }

    /// A tab, a newline or an escape sequence in a file name is shown escaped in every
    /// human-readable line, and keeps inboxd history's rows to one line of seven fields.
    @Test func controlCharactersInNamesAreEscaped() throws {
        let root = try TestSupport.sampleDevice()
        let name = "tab\there\nname\u{1B}[31m.person"
        let doc = root.appendingPathComponent("Documents/" + name).path
        try FileManager.default.copyItem(atPath: root.appendingPathComponent("Documents/file.person").path, toPath: doc)
        let escaped = "tab\\there\\nname\\u{1b}[31m.person"
        func oneLineEach(_ text: String, _ label: String) {
            #expect(!text.contains("\u{1B}") && !text.contains("\t"), "\(label): \(text)")
        }
        let list = try TestSupport.run(TestSupport.openin, ["--root", root.path, "--list", "--explain", doc])
        #expect(list.out.split(separator: "\n").first?.hasSuffix(escaped + ": com.example.person (the extension \"person\" is claimed by a declared type)") == true, "\(list.out)")
        oneLineEach(list.out, "openin --list")
        let delivered = try TestSupport.run(TestSupport.openin, ["--root", root.path, "--to", "com.example.person-viewer", "--no-launch", doc])
        #expect(delivered.status == 0 && delivered.out.split(separator: "\n").count == 1 && delivered.out.contains(escaped), "\(delivered.out)")
        let once = try TestSupport.run(TestSupport.inboxd, ["once", "--root", root.path, "--app", "com.example.person-viewer"])
        #expect(once.out.split(separator: "\n").count == 1 && once.out.contains(escaped), "\(once.out)")
        let history = try TestSupport.run(TestSupport.inboxd, ["history", "--root", root.path])
        let rows = history.out.split(separator: "\n")
        #expect(rows.count == 1 && rows.allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count == 7 }, "\(history.out)")
        #expect(rows.first?.contains(escaped) == true)
        let typed = try TestSupport.run(TestSupport.uti, ["--root", root.path, "for-file", "--explain", doc, root.appendingPathComponent("Documents/notes.txt").path])
        #expect(typed.out.split(separator: "\n").count == 2 && typed.out.contains(escaped), "\(typed.out)")
    }

    /// A web URL on a machine without a browser says so, instead of gio's "Operation not
    /// supported"; nothing claims x-scheme-handler/https in an empty XDG tree.
    @Test func aWebURLWithNoBrowserSaysSo() throws {
        let root = try TestSupport.sampleDevice()
        let home = try TestSupport.temporaryDirectory()
        // Only gio on PATH: xdg-open would start whatever text browser this machine has.
        let bin = home.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin.appendingPathComponent("gio").path, withDestinationPath: "/usr/bin/gio")
        let run = try TestSupport.run(TestSupport.openurl, ["--root", root.path, "https://example.invalid/"],
                                      environment: ["HOME": home.path, "PATH": bin.path, "XDG_DATA_HOME": home.path + "/data", "XDG_DATA_DIRS": home.path + "/none",
                                                    "XDG_CONFIG_HOME": home.path + "/config", "XDG_CONFIG_DIRS": home.path + "/none", "BROWSER": ""])
        #expect(run.status != 0, "\(run.out)")
        #expect(run.stderr.contains("no installed app opens https: URLs") && run.stderr.contains("install a web browser")
                && !run.stderr.contains("Operation not supported"), "\(run.stderr)")
    }

    /// The examples never trap: a usage error or an unknown app is said on standard error, with
    /// a non-zero status.
    @Test func examplesSayWhatIsWrongWithoutCrashing() throws {
        let root = try TestSupport.sampleDevice()
        for (example, arguments, status, text) in [("OpenURLExample", [String](), Int32(2), "usage: OpenURLExample BUNDLE-ID URL"),
                                                   ("ListenExample", [], 2, "usage: ListenExample BUNDLE-ID"),
                                                   ("ListenExample", ["com.example.nobody"], 1, "com.example.nobody"),
                                                   ("ListenExample", ["com.example.notes", "--seconds", "soon"], 2, "--seconds takes a positive whole number"),
                                                   ("OpenURLExample", ["com.example.nobody", "person-viewer:"], 1, "com.example.nobody")] {
            let run = try TestSupport.run(TestSupport.productsDirectory.appendingPathComponent(example).path, arguments,
                                          environment: ["DOCUMENT_INTERCHANGE_ROOT": root.path])
            #expect(run.status == status && run.stderr.contains(text) && !run.stderr.contains("Fatal error"), "\(example) \(arguments): \(run.status) \(run.stderr)")
        }
    }

    /// Completion as a person uses it: the generated script is sourced by a real bash and asked as
    /// the shell asks (COMP_WORDS, COMP_CWORD), and by a real fish (`complete -C`). (zsh's scripts
    /// are only checked to parse, by InstallTests: its completion needs a terminal to ask.)
    @Test func bashCompletesVerbsArgumentsSubverbsAndApps() throws {
        let root = try TestSupport.sampleDevice()
        func complete(_ tool: String, _ words: [String]) throws -> [String] {
            let script = try TestSupport.run(TestSupport.productsDirectory.appendingPathComponent(tool).path, ["--generate-completion", "bash"]).out
            let file = root.deletingLastPathComponent().appendingPathComponent("\(tool).bash")
            try script.write(to: file, atomically: true, encoding: .utf8)
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let run = try TestSupport.run("/bin/bash", ["-c", "source '\(file.path)'; COMP_WORDS=(\(tool) \(quoted)); COMP_CWORD=\(words.count); _\(tool); printf '%s\\n' \"${COMPREPLY[@]}\""],
                                          environment: ["PATH": TestSupport.productsDirectory.path + ":/usr/bin:/bin"])
            return run.out.split(separator: "\n").map(String.init)
        }
        #expect(try complete("plutil", ["-con"]) == ["-convert"])
        #expect(Set(try complete("plutil", ["-convert", ""])).isSuperset(of: ["xml1", "binary1", "json"]))
        #expect(try complete("openin", ["default", ""]) == ["set", "get", "unset", "list"])
        #expect(try complete("openurl", ["desktop", ""]) == ["sync", "remove"])
        let apps = try complete("openin", ["--root", root.path, "--to", "com.example.p"])
        #expect(Set(apps) == ["com.example.person-editor", "com.example.person-viewer", "com.example.photos"], "\(apps)")

        // fish, as its own `complete -C` answers (the candidate, then a tab and its description).
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/fish") else { Issue.record("fish is not installed (scripts/install-dependencies --tests)"); return }
        func fish(_ tool: String, _ line: String) throws -> [String] {
            let file = root.deletingLastPathComponent().appendingPathComponent("\(tool).fish")
            try TestSupport.run(TestSupport.productsDirectory.appendingPathComponent(tool).path, ["--generate-completion", "fish"]).out
                .write(to: file, atomically: true, encoding: .utf8)
            let run = try TestSupport.run("/usr/bin/fish", ["-c", "source '\(file.path)'; complete -C '\(line)'"],
                                          environment: ["PATH": TestSupport.productsDirectory.path + ":/usr/bin:/bin"])
            return run.out.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        }
        #expect(Set(try fish("openin", "openin default ")) == ["set", "get", "unset", "list"])
        #expect(Set(try fish("openurl", "openurl desktop ")) == ["sync", "remove"])
        #expect(Set(try fish("openin", "openin --root \(root.path) --to com.example.p")) == ["com.example.person-editor", "com.example.person-viewer", "com.example.photos"])
    }

    /// Copy refuses a file over the pasteboards' limit (1 GiB) before reading it: a sparse file
    /// of 1 GiB and a byte, with xclip on PATH and a display named, gets a clear error at once.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/xclip"), "xclip is not installed"))
    func copyRefusesAFileOverTheClipboardsLimit() throws {
        let big = try TestSupport.temporaryDirectory().appendingPathComponent("big.bin").path
        #expect(FileManager.default.createFile(atPath: big, contents: nil) && truncate(big, (1 << 30) + 1) == 0)
        let run = try TestSupport.run(TestSupport.openin, ["--activity", "copy-to-clipboard", big],
                                      environment: ["DISPLAY": ":999", "WAYLAND_DISPLAY": "", "HOME": big + ".home", "DOCUMENT_INTERCHANGE_AUTOWATCH": "off"])
        #expect(run.status == 2 && run.stderr.contains("is 1073741825 bytes, more than the clipboard's limit of 1073741824"), "\(run.stderr)")
    }
}
