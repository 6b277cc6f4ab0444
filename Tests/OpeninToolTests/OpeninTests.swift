import AppRegistry
import Foundation
import OpenRequests
import PropertyLists
import TestHelpers
import Testing
import UniformTypes
@testable import Handlers

/// `openin` on real devices: the corpus apps, the Samples apps, real files, real processes and
/// real signals.
@Suite(.serialized) struct OpeninTests {
    /// A device root with all 31 corpus Info.plists registered, and one document of each kind.
    static func corpusDevice() throws -> URL {
        let root = try TestSupport.temporaryDirectory()
        let plists = try FileManager.default.contentsOfDirectory(atPath: TestSupport.infoPlistCorpus.path)
            .filter { $0.hasSuffix(".plist") }.sorted().map { TestSupport.infoPlistCorpus.appendingPathComponent($0).path }
        #expect(plists.count == 31)
        let run = try TestSupport.run(TestSupport.uti, ["--root", root.path, "register"] + plists)
        #expect(run.status == 0, "\(run.stderr)")
        let docs = root.appendingPathComponent("docs")
        try FileManager.default.createDirectory(at: docs, withIntermediateDirectories: true)
        let contents: [String: [UInt8]] = [
            "a.txt": Array("hello\n".utf8), "a.md": Array("# title\n".utf8), "a.mp4": [0, 0, 0, 0x18] + Array("ftypmp42".utf8),
            "a.torrent": Array("d8:announce3:foo4:infod4:name1:aee".utf8), "a.pdf": Array("%PDF-1.4\n".utf8),
            "a.sql": Array("SELECT 1;\n".utf8),
            "a.png": try Array(Data(contentsOf: TestSupport.packageRoot.appendingPathComponent("Samples/Documents/photo.png"))),
        ]
        for (name, bytes) in contents { try Data(bytes).write(to: docs.appendingPathComponent(name)) }
        return root
    }

    static func apps(_ json: Data) throws -> [String] {
        let object = try JSONSerialization.jsonObject(with: json) as? [String: Any]
        return (object?["apps"] as? [[String: Any]] ?? []).compactMap { $0["bundleIdentifier"] as? String }
    }

    /// The documented order (docs/handlers.md), on the 31 real Info.plists: specific claims before
    /// wildcards, then rank, distance, Editor before Viewer, name. Apps whose identifier is an
    /// unresolved build variable are known by their registration name. QuickLookStephen claims
    /// public.data with role QLGenerator: a previewer, never offered to open documents (it once
    /// was, as an editor, while the linter accepted the role: one rule now serves both); so does
    /// QLMarkdown for Markdown.
    @Test func corpusListsFollowTheDocumentedOrder() throws {
        let root = try Self.corpusDevice()
        let expected: [String: [String]] = [
            "txt": ["nu.energia.Energia", "MacDownApp__macdown__MacDown__MacDown-Info.plist", "macvim-dev__macvim__src__MacVim__Info.plist",
                    "org.miniAudicle.miniAudicle", "com.ridiculousfish.HexFiend",
                    "CodeEditApp__CodeEdit__CodeEdit__Info.plist"],
            "md": ["MacDownApp__macdown__MacDown__MacDown-Info.plist", "macvim-dev__macvim__src__MacVim__Info.plist",
                   "com.ridiculousfish.HexFiend", "CodeEditApp__CodeEdit__CodeEdit__Info.plist"],
            "mp4": ["com.ridiculousfish.HexFiend", "macvim-dev__macvim__src__MacVim__Info.plist",
                    "MacDownApp__macdown__MacDown__MacDown-Info.plist", "CodeEditApp__CodeEdit__CodeEdit__Info.plist"],
            "torrent": ["org.m0k.transmission", "com.ridiculousfish.HexFiend", "macvim-dev__macvim__src__MacVim__Info.plist",
                        "CodeEditApp__CodeEdit__CodeEdit__Info.plist",
                        "MacDownApp__macdown__MacDown__MacDown-Info.plist"],
            "pdf": ["com.sankore.open-sankore", "com.ridiculousfish.HexFiend", "macvim-dev__macvim__src__MacVim__Info.plist",
                    "MacDownApp__macdown__MacDown__MacDown-Info.plist",
                    "CodeEditApp__CodeEdit__CodeEdit__Info.plist"],
            "sql": ["macvim-dev__macvim__src__MacVim__Info.plist", "MacDownApp__macdown__MacDown__MacDown-Info.plist",
                    "com.ridiculousfish.HexFiend", "CodeEditApp__CodeEdit__CodeEdit__Info.plist"],
            "png": ["com.ridiculousfish.HexFiend", "macvim-dev__macvim__src__MacVim__Info.plist",
                    "MacDownApp__macdown__MacDown__MacDown-Info.plist", "CodeEditApp__CodeEdit__CodeEdit__Info.plist"],
        ]
        for (ext, order) in expected {
            let doc = root.appendingPathComponent("docs/a.\(ext)").path
            let json = try TestSupport.run(TestSupport.openin, ["--root", root.path, "--json", doc])
            #expect(json.status == 0)
            #expect(try Self.apps(json.stdout) == order, "\(ext)")
            // Plain, explained and complete: every row has a reason; the same answer twice.
            let list = try TestSupport.run(TestSupport.openin, ["--root", root.path, "--list", "--explain", "--all", doc])
            let again = try TestSupport.run(TestSupport.openin, ["--root", root.path, "--list", "--explain", "--all", doc])
            #expect(list.out == again.out)
            #expect(list.out.components(separatedBy: "why:").count - 1 == order.count + 1, "\(ext): one reason per app and activity")
            #expect(list.out.contains("Not eligible:"))
        }
    }

    @Test func samplesSheetAndJSONFields() throws {
        let root = try TestSupport.sampleDevice()
        let doc = root.appendingPathComponent("Documents/file.person").path
        let json = try TestSupport.run(TestSupport.openin, ["--root", root.path, "--json", "--all", doc])
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        let apps = try #require(object["apps"] as? [[String: Any]])
        #expect(apps.map { $0["bundleIdentifier"] as? String } == ["com.example.person-editor", "com.example.person-viewer", "com.example.files"])
        for key in ["bundleIdentifier", "name", "role", "rank", "claimedType", "distance", "reason"] { #expect(apps[0][key] != nil, "\(key)") }
        #expect(apps[1]["role"] as? String == "Viewer" && apps[2]["rank"] as? String == "Alternate")
        let activities = (object["activities"] as? [[String: Any]] ?? []).compactMap { $0["activityType"] as? String }
        #expect(activities.contains("copy-to-folder") && activities.contains("com.example.mail.share"))
        let refused = (object["notEligible"] as? [[String: Any]] ?? []).compactMap { $0["bundleIdentifier"] as? String }
        #expect(Set(refused) == ["com.example.notes", "com.example.photos", "com.example.mail", "com.example.contacts"])  // Contacts opens no documents
        // The sender is not offered its own document; --exclude removes apps and activities.
        let excluded = try TestSupport.run(TestSupport.openin, ["--root", root.path, "--json", "--from", "com.example.person-editor",
                                                                 "--exclude", "com.example.files", "--exclude", "com.example.mail.share", doc])
        #expect(try Self.apps(excluded.stdout) == ["com.example.person-viewer"])
        #expect(!excluded.out.contains("com.example.mail.share"))
        // Several documents: only apps that take all of them.
        let two = try TestSupport.run(TestSupport.openin, ["--root", root.path, "--json", doc, root.appendingPathComponent("Documents/photo.png").path])
        #expect(try Self.apps(two.stdout) == ["com.example.files"])
    }

    @Test func deliveryWritesAReadOnlyCopyAndARequestAndLaunches() throws {
        let root = try TestSupport.sampleDevice()
        let doc = root.appendingPathComponent("Documents/file.person").path
        let run = try TestSupport.run(TestSupport.openin, ["--root", root.path, "--to", "com.example.person-viewer",
                                                           "--from", "com.example.person-editor", "--annotation", "{note = hi;}", doc])
        #expect(run.status == 0, "\(run.stderr)")
        let container = root.appendingPathComponent("Containers/com.example.person-viewer")
        let inbox = container.appendingPathComponent("Documents/Inbox/file.person").path
        let attributes = try FileManager.default.attributesOfItem(atPath: inbox)
        #expect((attributes[.posixPermissions] as? Int) == 0o444)
        #expect(FileManager.default.contentsEqual(atPath: inbox, andPath: doc))
        let requests = try FileManager.default.contentsOfDirectory(atPath: container.appendingPathComponent("Library/OpenRequests").path)
        #expect(requests.count == 1 && requests[0].hasSuffix(".plist"))
        let request = try PropertyListReader.read(contentsOf: .init(container.appendingPathComponent("Library/OpenRequests/" + requests[0]).path)).value
        #expect(request["DocumentPath"]?.stringValue == inbox)
        #expect(request["DocumentType"]?.stringValue == "com.example.person")
        #expect(request["SourceApplication"]?.stringValue == "com.example.person-editor")
        #expect(request["Annotation"]?["note"]?.stringValue == "hi")
        if case .date = request["Time"] {} else { Issue.record("no Time") }
        // The launch command ran (asynchronously) with the document and the sender.
        let log = container.appendingPathComponent("Library/launch.log").path
        #expect(eventually { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("opened \(inbox) from com.example.person-editor") })
        // In place: no copy; the request names the original.
        let files = try TestSupport.run(TestSupport.openin, ["--root", root.path, "--to", "com.example.files", doc])
        #expect(files.status == 0 && files.out.contains("opened in place"))
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("Containers/com.example.files/Documents/Inbox/file.person").path))
        // An app that cannot take it is refused with the reason; exit 1.
        let refused = try TestSupport.run(TestSupport.openin, ["--root", root.path, "--to", "com.example.photos", doc])
        #expect(refused.status == 1 && refused.stderr.contains("none of its claims"))
    }

    @Test func collisionsGetSuffixesAndNothingIsOverwritten() throws {
        let root = try TestSupport.sampleDevice()
        let doc = root.appendingPathComponent("Documents/notes.txt").path
        for _ in 0..<3 {
            #expect(try TestSupport.run(TestSupport.openin, ["--root", root.path, "--to", "com.example.notes", doc]).status == 0)
        }
        let inbox = root.appendingPathComponent("Containers/com.example.notes/Documents/Inbox").path
        #expect(try FileManager.default.contentsOfDirectory(atPath: inbox).sorted() == ["notes-1.txt", "notes-2.txt", "notes.txt"])
        // Names stay within NAME_MAX, cut on a character boundary.
        let long = String(repeating: "é", count: 130) + ".person"
        for attempt in [0, 1, 12, 345] {
            let name = FreeName.candidate(long, attempt: attempt)
            #expect(name.utf8.count <= 255 && name.hasSuffix(attempt == 0 ? ".person" : "-\(attempt).person"))
        }
        #expect(FreeName.candidate("archive", attempt: 2) == "archive-2" && FreeName.candidate(".profile", attempt: 1) == ".profile-1")
    }

    @Test func concurrentDeliveriesOfOneNameAllLand() throws {
        let root = try TestSupport.sampleDevice()
        let doc = root.appendingPathComponent("Documents/photo.png").path
        let processes = try (0..<12).map { _ -> Process in
            let p = Process()
            p.executableURL = URL(fileURLWithPath: TestSupport.openin)
            p.arguments = ["--root", root.path, "--to", "com.example.photos", "--no-launch", doc]
            p.standardOutput = FileHandle.nullDevice
            try p.run()
            return p
        }
        for p in processes { p.waitUntilExit(); #expect(p.terminationStatus == 0) }
        let inbox = root.appendingPathComponent("Containers/com.example.photos/Documents/Inbox")
        let names = try FileManager.default.contentsOfDirectory(atPath: inbox.path)
        #expect(names.count == 12 && Set(names).count == 12)
        for name in names { #expect(FileManager.default.contentsEqual(atPath: inbox.appendingPathComponent(name).path, andPath: doc)) }
        let requests = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Containers/com.example.photos/Library/OpenRequests").path)
        #expect(requests.filter { $0.hasSuffix(".plist") }.count == 12)
    }

    @Test func killedMidCopyLeavesNothingInTheInbox() throws {
        let root = try TestSupport.sampleDevice()
        let big = root.appendingPathComponent("Documents/big.person").path
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        #expect(truncate(big, 1 << 31) == 0)   // 2 GiB, sparse: reading it costs time, not disk
        let p = Process()
        p.executableURL = URL(fileURLWithPath: TestSupport.openin)
        p.arguments = ["--root", root.path, "--to", "com.example.person-viewer", "--no-launch", big]
        try p.run()
        let tmp = root.appendingPathComponent("Containers/com.example.person-viewer/tmp").path
        var copying = false
        // Until the copy is seen or openin has ended (its start can take seconds on a loaded machine).
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline && p.isRunning {
            let partial = (try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? []
            if let name = partial.first, let size = try? FileManager.default.attributesOfItem(atPath: tmp + "/" + name)[.size] as? Int, size > 1 << 20 {
                copying = true
                break
            }
            usleep(5_000)
        }
        #expect(copying, "the copy was not seen in progress")
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        #expect(p.terminationReason == .uncaughtSignal)
        let inbox = root.appendingPathComponent("Containers/com.example.person-viewer/Documents/Inbox").path
        #expect(try FileManager.default.contentsOfDirectory(atPath: inbox).isEmpty)
        let requests = root.appendingPathComponent("Containers/com.example.person-viewer/Library/OpenRequests").path
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: requests)) ?? []).isEmpty)
    }

    @Test func defaultsFallBackToSupertypes() throws {
        let root = try TestSupport.sampleDevice()
        #expect(try TestSupport.run(TestSupport.openin, ["--root", root.path, "default", "set", "public.image", "com.example.files"]).status == 0)
        #expect(try TestSupport.run(TestSupport.openin, ["--root", root.path, "default", "get", "public.png"]).out
                == "com.example.files (set for public.image)\n")
        let list = try TestSupport.run(TestSupport.openin, ["--root", root.path, "--json", root.appendingPathComponent("Documents/photo.png").path])
        #expect(try Self.apps(list.stdout).first == "com.example.files")
        #expect(list.out.contains("the user's default"))
        #expect(try TestSupport.run(TestSupport.openin, ["--root", root.path, "default", "unset", "public.image"]).status == 0)
        #expect(try TestSupport.run(TestSupport.openin, ["--root", root.path, "default", "get", "public.png"]).status == 1)
    }

    @Test func activitiesCopyAndShare() throws {
        let root = try TestSupport.sampleDevice()
        let docs = ["photo.png", "notes.txt"].map { root.appendingPathComponent("Documents/" + $0).path }
        let out = root.appendingPathComponent("out")
        // A folder that does not exist is not made without asking.
        let refused = try TestSupport.run(TestSupport.openin, ["--root", root.path, "--activity", "copy-to-folder", "--destination", out.path] + docs)
        #expect(refused.status == 2 && refused.stderr.contains("there is no folder \(out.path)"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: false)
        let copy = try TestSupport.run(TestSupport.openin, ["--root", root.path, "--activity", "copy-to-folder", "--destination", out.path] + docs)
        #expect(copy.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["notes.txt", "photo.png"])
        let share = try TestSupport.run(TestSupport.openin, ["--root", root.path, "--activity", "com.example.mail.share"] + docs)
        #expect(share.status == 0, "\(share.stderr)")
        let inbox = root.appendingPathComponent("Containers/com.example.mail/Documents/Inbox").path
        #expect(try FileManager.default.contentsOfDirectory(atPath: inbox).sorted() == ["notes.txt", "photo.png"])
        // save-to-sender appears only for a registered sender.
        let anonymous = try TestSupport.run(TestSupport.openin, ["--root", root.path, "--list", docs[0]])
        #expect(!anonymous.out.contains("save-to-sender"))
        let fromNotes = try TestSupport.run(TestSupport.openin, ["--root", root.path, "--list", "--from", "com.example.notes", docs[0]])
        #expect(fromNotes.out.contains("save-to-sender"))
        // A name that is no activity at all is a usage error; a real one that cannot work here is not offered.
        let missing = try TestSupport.run(TestSupport.openin, ["--root", root.path, "--activity", "no-such-activity", docs[0]])
        #expect(missing.status == 2 && missing.stderr.contains("no activity named no-such-activity"), "\(missing.stderr)")
        let unavailable = try TestSupport.run(TestSupport.openin, ["--root", root.path, "--activity", "save-to-sender", docs[0]])
        #expect(unavailable.status == 1 && unavailable.stderr.contains("is not available"), "\(unavailable.stderr)")
    }

    @Test func theSheetOnATerminal() throws {
        let root = try TestSupport.sampleDevice()
        let doc = root.appendingPathComponent("Documents/file.person").path
        let driver = TestSupport.packageRoot.appendingPathComponent("Tests/OpeninToolTests/Fixtures/drive_pty.py").path
        func drive(_ keys: [UInt8]) throws -> String {
            let hex = keys.map { String($0, radix: 16).leftPadded(2) }.joined()
            return try TestSupport.run("/usr/bin/env", ["python3", driver, hex, TestSupport.openin, "--root", root.path, "--no-launch", doc]).out
        }
        // The sheet shows apps and activities in their own sections.
        let down = try drive([0x1B, 0x5B, 0x42, 0x0D])     // ↓, Enter: the second row
        #expect(down.contains("Open in:") && down.contains("Activities:") && down.contains("Person Viewer"))
        #expect(down.contains("delivered to Person Viewer") && down.hasSuffix("exit 0\n"))
        let third = try drive(Array("3\r".utf8))            // a number, Enter
        #expect(third.contains("opened in place by Files") && third.hasSuffix("exit 0\n"))
        let five = try drive(Array("5\r".utf8))             // an activity row: the share extension
        #expect(five.contains("delivered to Mail"))
        let quit = try drive(Array("q".utf8))
        #expect(quit.contains("cancelled") && quit.hasSuffix("exit 1\n"))
        let escape = try drive([0x1B])
        #expect(escape.hasSuffix("exit 1\n"))
        // Up at the top stays on the first row.
        let up = try drive([0x1B, 0x5B, 0x41, 0x0D])
        #expect(up.contains("delivered to Person Editor"))
        let inbox = root.appendingPathComponent("Containers/com.example.person-viewer/Documents/Inbox/file.person").path
        #expect(FileManager.default.fileExists(atPath: inbox))
    }
}

extension OpeninTests {
    /// A large file delivered on a terminal shows a progress bar on standard error.
    @Test func largeDeliveriesShowProgressOnATerminal() throws {
        let root = try TestSupport.sampleDevice()
        let big = root.appendingPathComponent("Documents/big.person").path
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        #expect(truncate(big, 24 << 20) == 0)
        let driver = TestSupport.packageRoot.appendingPathComponent("Tests/OpeninToolTests/Fixtures/drive_pty.py").path
        let out = try TestSupport.run("/usr/bin/env", ["python3", driver, "", TestSupport.openin, "--root", root.path,
                                                       "--to", "com.example.files", "--no-launch", "--from", "x", big]).out
        // Files opens in place: no copy, no bar. The viewer gets a copy, with a bar.
        #expect(out.contains("opened in place") && !out.contains("%"))
        let copy = try TestSupport.run("/usr/bin/env", ["python3", driver, "", TestSupport.openin, "--root", root.path,
                                                        "--to", "com.example.person-viewer", "--no-launch", big]).out
        #expect(copy.contains("big.person [") && copy.contains("] 100%") && copy.hasSuffix("exit 0\n"))
        // Without a terminal: no bar.
        let plain = try TestSupport.run(TestSupport.openin, ["--root", root.path, "--to", "com.example.person-viewer", "--no-launch", big])
        #expect(plain.status == 0 && !plain.stderr.contains("%"))
    }
}

extension OpeninTests {
    /// A sheet taller than the terminal pages; a number that is no row is said so and the sheet
    /// stays; choosing copy-to-folder there asks for the folder, expands `~`, and creates a
    /// missing folder only when the user says yes.
    @Test func theSheetPagesAndAsksForAFolder() throws {
        let root = try TestSupport.sampleDevice()
        let doc = root.appendingPathComponent("Documents/file.person").path
        let driver = TestSupport.packageRoot.appendingPathComponent("Tests/OpeninToolTests/Fixtures/drive_pty.py").path
        let folder = root.appendingPathComponent("copies").path
        // 7 rows: a page of 3 rows (the document, a section title, the footer). "99" Enter: no such row. PgDn from row 1 reaches row 4,
        // "Copy to Folder"; Enter; then ~/copies (HOME is the device root), no, again, yes.
        let keys = Array("99".utf8) + [0x0D, 0x1B, 0x5B, 0x36, 0x7E, 0x0D] + Array("~/copies\nn\n~/copies\ny\n".utf8)
        let hex = keys.map { String($0, radix: 16).leftPadded(2) }.joined()
        let out = try TestSupport.run("/usr/bin/env", ["PTY_ROWS=7", "HOME=\(root.path)", "python3", driver, hex, TestSupport.openin, "--root", root.path, doc]).out
        #expect(out.contains("[page 1/2]") && out.contains("[page 2/2]"))
        #expect(out.contains("there is no row 99"), "\(out)")
        #expect(out.contains("Copy to folder:") && out.contains("There is no folder \(folder). Create it? [y/N]") && out.hasSuffix("exit 0\n"), "\(out)")
        #expect(FileManager.default.contentsEqual(atPath: folder + "/file.person", andPath: doc))
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("~").path))
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}

extension OpeninTests {
    /// The sheet on a real terminal emulator of 40×7 (tmux, whose screen is what a person sees):
    /// every line is cut to the width, never wrapped; the document line and the highlighted row
    /// stay on screen while paging; a newline or an escape sequence in the document's name is
    /// shown escaped on its one line.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is not installed (scripts/install-dependencies --tests)"))
    func aNarrowTerminalCutsRowsAndKeepsTheHeaderAndTheSelection() throws {
        let root = try TestSupport.sampleDevice()
        let script = TestSupport.packageRoot.appendingPathComponent("Tests/OpeninToolTests/Fixtures/narrow_sheet_check.sh").path
        let run = try TestSupport.run("/bin/bash", [script, TestSupport.openin, root.path])
        #expect(run.status == 0 && run.out.contains("17 passed, 0 failed"), "\(run.out)\(run.stderr)")
    }
}
