import AppRegistry
import Foundation
import Handlers
import OpenRequests
import TestHelpers
import SystemCalls
import Testing
import UniformTypes
@testable import Receiver

/// The move primitive on real files: cases of ../shared/inbox-fault-cases.md (numbers in the names).
@Suite struct InboxMoveTests {
    struct Box {
        let root: URL
        let container: AppContainer
        var inbox: URL { URL(fileURLWithPath: container.inbox) }
        var documents: URL { URL(fileURLWithPath: container.documents) }
        func write(_ name: String, _ text: String) throws { try TestSupport.writeFile(Data(text.utf8), to: inbox.appendingPathComponent(name)) }
        func documentNames() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: documents.path).filter { $0 != "Inbox" }.sorted() }
        func inboxNames() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: inbox.path).sorted() }
    }

    func box() throws -> Box {
        let root = try TestSupport.temporaryDirectory()
        let container = try AppContainer(bundleIdentifier: "com.example.app", on: DeviceRoot(path: root.path))
        try container.create()
        return Box(root: root, container: container)
    }

    @Test func case01PlainMoveAndCase24ZeroBytes() throws {
        let b = try box()
        try b.write("report.pdf", "%PDF-1.4 body")
        try b.write("empty.txt", "")
        let results = try InboxMover(container: b.container).moveAll()
        #expect(results.map(\.outcome) == [.moved("empty.txt"), .moved("report.pdf")])
        #expect(try b.inboxNames().isEmpty)
        #expect(try String(contentsOf: b.documents.appendingPathComponent("report.pdf"), encoding: .utf8) == "%PDF-1.4 body")
        #expect(try Data(contentsOf: b.documents.appendingPathComponent("empty.txt")).isEmpty)
    }

    @Test func case02CollisionsAndCase04TheSameNameTwice() throws {
        let b = try box()
        try TestSupport.writeFile(Data("existing".utf8), to: b.documents.appendingPathComponent("report.pdf"))
        for body in ["first", "second"] {
            try b.write("report.pdf", body)
            _ = try InboxMover(container: b.container).moveAll()
        }
        #expect(try b.documentNames() == ["report-1.pdf", "report-2.pdf", "report.pdf"])
        #expect(try String(contentsOf: b.documents.appendingPathComponent("report.pdf"), encoding: .utf8) == "existing")
        #expect(try String(contentsOf: b.documents.appendingPathComponent("report-2.pdf"), encoding: .utf8) == "second")
    }

    @Test func case03ASuffixOnA255ByteNameStillFits() throws {
        let b = try box()
        let name = String(repeating: "n", count: 251) + ".pdf"
        try TestSupport.writeFile(Data("old".utf8), to: b.documents.appendingPathComponent(name))
        try b.write(name, "new")
        let results = try InboxMover(container: b.container).moveAll()
        guard case .moved(let stored) = results.first?.outcome else { Issue.record("not moved: \(results)"); return }
        #expect(stored.utf8.count <= 255 && stored.hasSuffix("-1.pdf"))
    }

    @Test func case15AFileStillOpenForWritingWaits() throws {
        let b = try box()
        let path = b.inbox.appendingPathComponent("growing.bin").path
        let writer = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)   // no child of a parallel test may inherit it
        #expect(writer >= 0)
        _ = write(writer, "part", 4)
        #expect(try InboxMover(container: b.container).moveAll().first?.outcome == .deferred("still open for writing"))
        _ = write(writer, "rest", 4)
        close(writer)
        #expect(try InboxMover(container: b.container).moveAll().first?.outcome == .moved("growing.bin"))
        #expect(try String(contentsOf: b.documents.appendingPathComponent("growing.bin"), encoding: .utf8) == "partrest")
    }

    @Test func case18Symlinks19HardLinks20SpecialFilesAnd29FoldersAreRefused() throws {
        let b = try box()
        let outside = b.root.appendingPathComponent("secret.txt")
        try TestSupport.writeFile(Data("secret".utf8), to: outside)
        try FileManager.default.createSymbolicLink(atPath: b.inbox.appendingPathComponent("link.pdf").path, withDestinationPath: outside.path)
        try FileManager.default.createSymbolicLink(atPath: b.inbox.appendingPathComponent("docs.pdf").path, withDestinationPath: b.documents.path)
        #expect(link(outside.path, b.inbox.appendingPathComponent("hard.pdf").path) == 0)
        #expect(mkfifo(b.inbox.appendingPathComponent("fifo.pdf").path, 0o644) == 0)
        try FileManager.default.createDirectory(at: b.inbox.appendingPathComponent("folder.pdf"), withIntermediateDirectories: false)
        let outcomes = Dictionary(uniqueKeysWithValues: try InboxMover(container: b.container).moveAll().map { (DisplayName.of($0.name), $0.outcome) })
        #expect(outcomes["link.pdf"] == .refused("a symbolic link") && outcomes["docs.pdf"] == .refused("a symbolic link"))
        #expect(outcomes["hard.pdf"] == .refused("2 hard links (a link to a file elsewhere)"))
        #expect(outcomes["fifo.pdf"] == .refused("a FIFO") || outcomes["fifo.pdf"] == .refused("a socket or FIFO without a writer"))
        #expect(outcomes["folder.pdf"] == .refused("a folder"))
        #expect(try b.documentNames().isEmpty)
        #expect(try String(contentsOf: outside, encoding: .utf8) == "secret")
    }

    @Test func case23HostileNamesAndCase31ModeBits() throws {
        let b = try box()
        let names: [[UInt8]] = [Array("-rf".utf8), Array("line\nbreak.txt".utf8), Array("..hidden".utf8), [0x66, 0xFF, 0xFE, 0x2E, 0x74], Array("Cafe\u{301}.txt".utf8)]
        for name in names {
            let fd = TestSupport.withCString(Array(b.inbox.path.utf8) + [0x2F] + name) { open($0, O_CREAT | O_WRONLY, 0o6755) }
            #expect(fd >= 0)
            _ = write(fd, "x", 1)
            fchmod(fd, 0o6755)
            close(fd)
        }
        let results = try InboxMover(container: b.container).moveAll()
        #expect(results.count == names.count && results.allSatisfy { if case .moved = $0.outcome { true } else { false } })
        let moved = try OwnedDescriptor.openFolder(b.documents.path).entryNames().filter { $0 != Array("Inbox".utf8) }
        #expect(Set(moved) == Set(names))
        for name in names {
            var info = stat()
            #expect(TestSupport.withCString(Array(b.documents.path.utf8) + [0x2F] + name) { stat($0, &info) } == 0)
            #expect(info.st_mode & 0o7777 == 0o644)
        }
    }

    @Test func case05SeveralMoversTakeEachFileOnce() throws {
        let b = try box()
        for i in 0..<400 { try b.write("file-\(i % 50).txt".replacingOccurrences(of: ".txt", with: "-\(i).txt"), "\(i)") }
        final class Collected: @unchecked Sendable {   // guarded by `lock`
            let lock = NSLock()
            var names: [String] = []
        }
        let collected = Collected()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let results = (try? InboxMover(container: b.container).moveAll()) ?? []
            let names = results.compactMap { if case .moved(let name) = $0.outcome { name } else { nil } }
            collected.lock.lock(); collected.names += names; collected.lock.unlock()
        }
        let all = collected.names
        #expect(all.count == 400 && Set(all).count == 400)
        #expect(try b.documentNames().count == 400 && b.inboxNames().isEmpty)
    }
}

/// `inboxd once` after `openin` deliveries: the handover from sender to receiver, end to end.
@Suite struct InboxdOnceTests {
    @Test func deliveredDocumentsEndUpInDocuments() throws {
        let root = try TestSupport.sampleDevice()
        let doc = root.appendingPathComponent("Documents/file.person").path
        for _ in 0..<2 {
            #expect(try TestSupport.run(TestSupport.openin, ["--root", root.path, "--to", "com.example.person-viewer", "--no-launch", doc]).status == 0)
        }
        let inbox = root.appendingPathComponent("Containers/com.example.person-viewer/Documents/Inbox")
        try FileManager.default.createSymbolicLink(atPath: inbox.appendingPathComponent("planted.person").path, withDestinationPath: "/etc/passwd")
        let run = try TestSupport.run(TestSupport.inboxd, ["once", "--root", root.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.out.contains("file.person -> Documents/file.person") && run.out.contains("file-1.person -> Documents/file-1.person"))
        #expect(run.out.contains("planted.person quarantined as Library/Quarantine/planted.person: a symbolic link"))
        let documents = root.appendingPathComponent("Containers/com.example.person-viewer/Documents")
        for name in ["file.person", "file-1.person"] {
            #expect(FileManager.default.contentsEqual(atPath: documents.appendingPathComponent(name).path, andPath: doc))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: inbox.path).isEmpty)
        let quarantine = root.appendingPathComponent("Containers/com.example.person-viewer/Library/Quarantine/planted.person").path
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: quarantine) == "/etc/passwd")
        // The type policy: Notes opens text, not images; a PNG in its Inbox is quarantined.
        let notesInbox = root.appendingPathComponent("Containers/com.example.notes/Documents/Inbox")
        try FileManager.default.createDirectory(at: notesInbox, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: root.appendingPathComponent("Documents/photo.png").path, toPath: notesInbox.appendingPathComponent("photo.png").path)
        try FileManager.default.copyItem(atPath: root.appendingPathComponent("Documents/notes.txt").path, toPath: notesInbox.appendingPathComponent("notes.txt").path)
        let policy = try TestSupport.run(TestSupport.inboxd, ["once", "--root", root.path, "--app", "com.example.notes"])
        #expect(policy.out.contains("notes.txt -> Documents/notes.txt"))
        #expect(policy.out.contains("photo.png quarantined as Library/Quarantine/photo.png: its type public.png is not one Notes opens"))
        let history = try TestSupport.run(TestSupport.inboxd, ["history", "--root", root.path, "--app", "com.example.notes"]).out
        #expect(history.contains("quarantined\tphoto.png\tphoto.png\tpublic.png\t") && history.contains("stored\tnotes.txt\tnotes.txt\tpublic.plain-text\t"), "\(history)")
        let json = try TestSupport.run(TestSupport.inboxd, ["history", "--json", "--root", root.path, "--app", "com.example.notes"]).stdout
        let rows = try #require(try JSONSerialization.jsonObject(with: json) as? [[String: Any]])
        #expect(rows.count == 2)
        let quarantined = try #require(rows.first { $0["status"] as? String == "quarantined" })
        #expect(quarantined["originalName"] as? String == "photo.png" && (quarantined["reason"] as? String)?.contains("public.png") == true)
        let stored = try #require(rows.first { $0["status"] as? String == "stored" })
        #expect((stored["sha256"] as? String)?.count == 64 && stored["storedName"] as? String == "notes.txt")
        #expect(stored["type"] as? String == "public.plain-text" && quarantined["type"] as? String == "public.png")
        let arrived = try #require(stored["arrived"] as? Double), moved = try #require(stored["moved"] as? Double)
        #expect(arrived <= moved && moved - arrived < 60)
        // Judged on the opened file: a PNG without an extension by its content; a text file
        // whose name is not UTF-8 by the extension its bytes still end with.
        try FileManager.default.copyItem(atPath: root.appendingPathComponent("Documents/photo.png").path, toPath: notesInbox.appendingPathComponent("scan").path)
        let fd = TestSupport.withCString(Array(notesInbox.path.utf8) + [0x2F, 0x6E, 0xFF, 0x2E, 0x74, 0x78, 0x74]) { open($0, O_CREAT | O_WRONLY, 0o644) }
        _ = write(fd, "text", 4)
        close(fd)
        let judged = try TestSupport.run(TestSupport.inboxd, ["once", "--root", root.path, "--app", "com.example.notes"]).out
        #expect(judged.contains("scan quarantined as Library/Quarantine/scan: its type public.png is not one Notes opens"), "\(judged)")
        #expect(judged.contains("n\\xff.txt -> Documents/n\\xff.txt"), "\(judged)")
        #expect(try TestSupport.run(TestSupport.inboxd, ["twice"]).status == 2)
    }

    /// `status` and `history` change no file of an app: a manifest no receiver has open is read
    /// without the `-wal` and `-shm` files a read-only SQLite connection would create (and leave),
    /// also under a root whose path has `?`, `#` and `%` in it (the URI that says so escapes them);
    /// with a receiver holding it open, rows still in its write-ahead log are counted.
    @Test func statusAndHistoryCreateNoFileBesideTheManifest() throws {
        let root = try TestSupport.temporaryDirectory().appendingPathComponent("odd ?#% root")
        let container = try AppContainer(bundleIdentifier: "com.example.app", on: DeviceRoot(path: root.path))
        try container.create()
        for i in 0..<3 { try TestSupport.writeFile(Data("document \(i)".utf8), to: URL(fileURLWithPath: container.inbox + "/doc\(i).txt")) }
        #expect(try TestSupport.run(TestSupport.inboxd, ["once", "--root", root.path]).status == 0)
        func library() throws -> [String: Data] {
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: container.library) where !name.hasPrefix(".") {
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: container.library + "/" + name, isDirectory: &isFolder), !isFolder.boolValue {
                    files[name] = FileManager.default.contents(atPath: container.library + "/" + name)
                }
            }
            return files
        }
        let before = try library()
        #expect(before.keys.sorted() == ["Manifest.sqlite"], "\(before.keys.sorted())")
        let modified = try FileManager.default.attributesOfItem(atPath: container.manifest)[.modificationDate] as? Date
        let status = try TestSupport.run(TestSupport.inboxd, ["status", "--root", root.path])
        #expect(status.out == "com.example.app: 0 waiting in the Inbox, 3 stored, 0 quarantined, 0 unfinished\n", "\(status.out)\(status.stderr)")
        let history = try TestSupport.run(TestSupport.inboxd, ["history", "--json", "--root", root.path])
        #expect((try JSONSerialization.jsonObject(with: history.stdout) as? [[String: Any]])?.count == 3, "\(history.out)\(history.stderr)")
        // The same file by a path that starts with "//" (not a URI's host).
        #expect(try TestSupport.run(TestSupport.inboxd, ["status", "--root", "/" + root.path]).out == status.out)
        #expect(try library() == before)
        #expect(try FileManager.default.attributesOfItem(atPath: container.manifest)[.modificationDate] as? Date == modified)
        // A receiver holds the manifest open with an unfinished move in its log: seen.
        let writer = try Manifest(path: container.manifest)
        let file = try #require(FileSystem.status(container.manifest))
        _ = try writer.beginMoves([MoveIntent(name: Array("late.txt".utf8), planned: "late.txt", status: file, sha256: String(repeating: "0", count: 64), request: nil, type: nil)])
        #expect(FileManager.default.fileExists(atPath: container.manifest + "-wal"))
        let open = try TestSupport.run(TestSupport.inboxd, ["status", "--root", root.path]).out
        #expect(open == "com.example.app: 0 waiting in the Inbox, 3 stored, 0 quarantined, 1 unfinished\n", "\(open)")
        withExtendedLifetime(writer) {}
    }

    /// What the quiet read's check rests on: while a reader holds SQLite's SHARED range, a
    /// connection that opens the manifest, writes and closes (the last one) cannot remove its
    /// `-wal`, so a read it came and went during is seen to have been disturbed. Without the
    /// lock it removes it, and nothing would show it had been there but the file's times.
    @Test func aReceiverThatComesAndGoesDuringAQuietReadLeavesItsLog() throws {
        let root = try TestSupport.temporaryDirectory()
        let path = root.appendingPathComponent("Manifest.sqlite").path
        let status = try #require(FileSystem.status(root.path))
        func write(_ name: String) throws {
            let manifest = try Manifest(path: path)
            _ = try manifest.beginMoves([MoveIntent(name: Array(name.utf8), planned: name, status: status, sha256: String(repeating: "0", count: 64), request: nil, type: nil)])
        }
        try write("first")
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "the last close removes the log")
        guard case .read(let rows) = Manifest.quietRead(at: path) else { Issue.record("not read quietly"); return }
        #expect(rows.count == 1)
        let reader = try OwnedDescriptor.open(path, .readOnly)
        #expect(try reader.tryLock(.shared, bytes: Manifest.sharedLockRange.start, count: Manifest.sharedLockRange.count))
        try write("second")
        #expect(FileManager.default.fileExists(atPath: path + "-wal"), "a close without the exclusive lock leaves the log")
        guard case .inUse = Manifest.quietRead(at: path) else { Issue.record("a left log is not seen"); return }
        withExtendedLifetime(reader) {}
        #expect(try Manifest.entries(at: path)?.count == 2)
    }
}

/// Case 7 and 32: `inboxd` killed with SIGKILL at each step of a move, then run again: every file
/// is in Documents exactly once, byte-identical, and the manifest agrees with the disk.
@Suite(.serialized) struct CrashRecoveryTests {
    @Test(arguments: ["intent", "renamed", "flushed"])
    func killedAtAStepThenRestarted(_ step: String) throws {
        let root = try TestSupport.temporaryDirectory()
        let container = try AppContainer(bundleIdentifier: "com.example.app", on: DeviceRoot(path: root.path))
        try container.create()
        var sums: [String: Data] = [:]
        for i in 0..<3 {
            let body = Data("document \(i) \(step)".utf8)
            try TestSupport.writeFile(body, to: URL(fileURLWithPath: container.inbox + "/doc\(i).txt"))
            sums["doc\(i).txt"] = body
        }
        // The injection env var is read by inboxd itself.
        let crashed = try TestSupport.run("/usr/bin/env", ["DI_FAULTS=crash=\(step)", TestSupport.inboxd, "once", "--root", root.path])
        #expect(crashed.status != 0, "it did not crash at \(step)")
        let manifest = try Manifest(path: container.library + "/Manifest.sqlite")
        #expect(try manifest.entries(status: .moving).count == 3, "the interrupted batch is journaled")
        let status = try TestSupport.run(TestSupport.inboxd, ["status", "--root", root.path]).out
        #expect(status.hasSuffix("3 unfinished\n"), "\(status)")
        let recovered = try TestSupport.run(TestSupport.inboxd, ["recover", "--root", root.path]).out
        #expect(recovered.contains("0 moves left unfinished"))
        let again = try TestSupport.run(TestSupport.inboxd, ["once", "--root", root.path])
        #expect(again.status == 0, "\(again.stderr)")
        let documents = try FileManager.default.contentsOfDirectory(atPath: container.documents).filter { $0 != "Inbox" }.sorted()
        #expect(documents == ["doc0.txt", "doc1.txt", "doc2.txt"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: container.inbox).isEmpty)
        for name in documents { #expect(try Data(contentsOf: URL(fileURLWithPath: container.documents + "/" + name)) == sums[name]) }
        let rows = try Manifest(path: container.library + "/Manifest.sqlite").entries()
        #expect(rows.allSatisfy { $0.status == .stored } && rows.count == 3)
        #expect(Set(rows.compactMap(\.storedName)) == Set(documents))
        for row in rows {
            let file = try #require(row.storedName)
            let data = try Data(contentsOf: URL(fileURLWithPath: container.documents + "/" + file))
            #expect(row.size == Int64(data.count))
            let sum = try TestSupport.run("/usr/bin/sha256sum", [container.documents + "/" + file]).out.split(separator: " ").first.map(String.init)
            #expect(row.sha256 == sum)
        }
    }
}

/// `inboxd run`: files waiting at start (11), written and closed (1), renamed in from a temporary
/// name (16), linked in (17), a slow writer (15), the Inbox deleted and re-created (22), SIGTERM.
@Suite(.serialized) struct InboxdRunTests {
    func waitFor(_ path: String, seconds: Double = 60) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end { if FileManager.default.fileExists(atPath: path) { return true }; usleep(20_000) }
        return false
    }

    @Test func watchesAndMovesUntilTerminated() throws {
        let root = try TestSupport.temporaryDirectory()
        let container = try AppContainer(bundleIdentifier: "com.example.app", on: DeviceRoot(path: root.path))
        try container.create()
        try TestSupport.writeFile(Data("waiting".utf8), to: URL(fileURLWithPath: container.inbox + "/waiting.txt"))
        let job = Process()
        job.executableURL = URL(fileURLWithPath: TestSupport.inboxd)
        job.arguments = ["run", "--root", root.path, "--app", "com.example.app", "--rescan", "0.5"]
        job.standardOutput = FileHandle.nullDevice
        try job.run()
        defer { if job.isRunning { kill(job.processIdentifier, SIGKILL) } }
        #expect(waitFor(container.documents + "/waiting.txt"))
        try TestSupport.writeFile(Data("closed".utf8), to: URL(fileURLWithPath: container.inbox + "/closed.txt"))
        #expect(waitFor(container.documents + "/closed.txt"))
        let temporary = root.appendingPathComponent("elsewhere.tmp").path
        try TestSupport.writeFile(Data("renamed".utf8), to: URL(fileURLWithPath: container.inbox + "/.partial"))
        #expect(rename(container.inbox + "/.partial", container.inbox + "/renamed.txt") == 0)
        #expect(waitFor(container.documents + "/renamed.txt"))
        try TestSupport.writeFile(Data("linked".utf8), to: URL(fileURLWithPath: temporary))
        #expect(link(temporary, container.inbox + "/linked.txt") == 0)
        #expect(unlink(temporary) == 0)   // now one link: acceptable at the next pass
        #expect(waitFor(container.documents + "/linked.txt"))
        // A slow writer: nothing moves while it holds the file open.
        let slow = open(container.inbox + "/slow.txt", O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
        _ = write(slow, "half", 4)
        usleep(1_200_000)
        #expect(!FileManager.default.fileExists(atPath: container.documents + "/slow.txt"))
        _ = write(slow, "done", 4)
        close(slow)
        #expect(waitFor(container.documents + "/slow.txt"))
        #expect(try String(contentsOfFile: container.documents + "/slow.txt", encoding: .utf8) == "halfdone")
        // The Inbox deleted and re-created: the watch is set again.
        try FileManager.default.removeItem(atPath: container.inbox)
        usleep(300_000)
        try FileManager.default.createDirectory(atPath: container.inbox, withIntermediateDirectories: true)
        try TestSupport.writeFile(Data("after".utf8), to: URL(fileURLWithPath: container.inbox + "/after.txt"))
        #expect(waitFor(container.documents + "/after.txt"))
        kill(job.processIdentifier, SIGTERM)
        job.waitUntilExit()
        #expect(job.terminationReason == .exit && job.terminationStatus == 0)
        let rows = try Manifest(path: container.library + "/Manifest.sqlite").entries()
        #expect(rows.count == 6 && rows.allSatisfy { $0.status == .stored })
    }
}

/// The crash-injection driver (Fixtures/crash_driver.py), small enough for every test run; the
/// 1,000-kill run is in docs/receiver.md.
@Suite struct CrashDriverTests {
    @Test func randomKillsLoseAndDuplicateNothing() async throws {
        let driver = TestSupport.packageRoot.appendingPathComponent("Tests/ReceiverTests/Fixtures/crash_driver.py").path
        let run = try await TestSupport.runOffPool("/usr/bin/env", ["python3", driver, TestSupport.inboxd, "40", "5", "5"])
        #expect(run.status == 0, "\(run.out)")
        #expect(run.out.contains("files=200 stored_rows=200") && run.out.contains("problems=0"))
    }

    /// The same with the working folder on another file system (/dev/shm): every move a copy.
    @Test func randomKillsDuringCopiesLoseAndDuplicateNothing() async throws {
        let driver = TestSupport.packageRoot.appendingPathComponent("Tests/ReceiverTests/Fixtures/crash_driver.py").path
        let run = try await TestSupport.runOffPool("/usr/bin/env", ["python3", driver, TestSupport.inboxd, "40", "5", "6", "/dev/shm"])
        #expect(run.status == 0, "\(run.out)")
        #expect(run.out.contains("files=200 stored_rows=200") && run.out.contains("problems=0"))
    }
}

/// Case 5 and 6 with real processes: four `inboxd run` jobs on one Inbox, files arriving under
/// colliding names: each file ends up in Documents exactly once, with one manifest row.
@Suite(.serialized) struct FourReceiversTests {
    @Test func fourJobsOnOneInbox() throws {
        let root = try TestSupport.temporaryDirectory()
        let container = try AppContainer(bundleIdentifier: "com.example.app", on: DeviceRoot(path: root.path))
        try container.create()
        let jobs = try (0..<4).map { _ -> Process in
            let job = Process()
            job.executableURL = URL(fileURLWithPath: TestSupport.inboxd)
            job.arguments = ["run", "--root", root.path, "--app", "com.example.app", "--rescan", "0.2"]
            job.standardOutput = FileHandle.nullDevice
            try job.run()
            return job
        }
        defer { for job in jobs where job.isRunning { kill(job.processIdentifier, SIGKILL) } }
        let staging = root.appendingPathComponent("staging").path
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        var bodies: Set<String> = []
        for i in 0..<300 {
            let body = "file \(i) " + String(repeating: "\(i)", count: i % 50)
            bodies.insert(body)
            try TestSupport.writeFile(Data(body.utf8), to: URL(fileURLWithPath: staging + "/t\(i)"))
            var attempt = 0
            while link(staging + "/t\(i)", container.inbox + "/" + FreeName.candidate(["a.txt", "b.pdf", "c"][i % 3], attempt: attempt)) != 0 { attempt += 1 }
            unlink(staging + "/t\(i)")
        }
        let end = Date().addingTimeInterval(60)
        var stored: [String] = []
        while Date() < end {
            stored = try FileManager.default.contentsOfDirectory(atPath: container.documents).filter { $0 != "Inbox" }
            if stored.count >= 300, try FileManager.default.contentsOfDirectory(atPath: container.inbox).isEmpty { break }
            usleep(50_000)
        }
        for job in jobs { kill(job.processIdentifier, SIGTERM) }
        for job in jobs { job.waitUntilExit(); #expect(job.terminationStatus == 0) }
        #expect(stored.count == 300)
        let contents = try stored.map { try String(contentsOfFile: container.documents + "/" + $0, encoding: .utf8) }
        #expect(Set(contents) == bodies && contents.count == bodies.count)
        let rows = try Manifest(path: container.library + "/Manifest.sqlite").entries()
        #expect(rows.filter { $0.status == .stored }.count == 300 && !rows.contains { $0.status == .moving })
        #expect(Set(rows.compactMap(\.storedName)) == Set(stored))
    }
}

/// The sender policy: documents are matched to the open requests openin wrote; the sender and the
/// annotation go into the manifest; with --allow-sender, only listed senders are accepted.
@Suite struct SenderPolicyTests {
    @Test func sendersAndAnnotationsAreRecordedAndFiltered() throws {
        let root = try TestSupport.sampleDevice()
        let notes = root.appendingPathComponent("Documents/notes.txt").path
        let copy = root.appendingPathComponent("Documents/other.txt").path
        try FileManager.default.copyItem(atPath: notes, toPath: copy)
        #expect(try TestSupport.run(TestSupport.openin, ["--root", root.path, "--to", "com.example.notes", "--from", "com.example.person-editor",
                                                         "--annotation", "{reason = review;}", notes]).status == 0)
        #expect(try TestSupport.run(TestSupport.openin, ["--root", root.path, "--to", "com.example.notes", "--from", "org.elsewhere.app", copy]).status == 0)
        let inbox = root.appendingPathComponent("Containers/com.example.notes/Documents/Inbox").path
        try TestSupport.writeFile(Data("no request".utf8), to: URL(fileURLWithPath: inbox + "/dropped.txt"))
        let run = try TestSupport.run(TestSupport.inboxd, ["once", "--root", root.path, "--app", "com.example.notes", "--allow-sender", "com.example."])
        #expect(run.out.contains("notes.txt -> Documents/notes.txt"), "\(run.out)")
        #expect(run.out.contains("other.txt quarantined as Library/Quarantine/other.txt: its sender org.elsewhere.app is not allowed"))
        #expect(run.out.contains("dropped.txt quarantined as Library/Quarantine/dropped.txt: no open request names its sender"))
        let json = try TestSupport.run(TestSupport.inboxd, ["history", "--json", "--root", root.path, "--app", "com.example.notes"]).stdout
        let rows = try #require(try JSONSerialization.jsonObject(with: json) as? [[String: Any]])
        let stored = try #require(rows.first { $0["status"] as? String == "stored" })
        #expect(stored["sender"] as? String == "com.example.person-editor")
        #expect((stored["annotation"] as? [String: Any])?["reason"] as? String == "review")
        // Every request is consumed: the stored document's and the quarantined one's are in the manifest.
        let quarantined = try #require(rows.first { $0["originalName"] as? String == "other.txt" })
        #expect(quarantined["sender"] as? String == "org.elsewhere.app")
        let requests = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Containers/com.example.notes/Library/OpenRequests").path)
        #expect(requests.isEmpty, "\(requests)")
    }
}
