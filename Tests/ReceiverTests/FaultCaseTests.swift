import AppRegistry
import Foundation
import Handlers
import TestHelpers
import Testing
import SystemCalls
import UniformTypes
@testable import Receiver

/// The cases of ../shared/inbox-fault-cases.md not covered by InboxMoveTests, each its own test
/// (numbers in the names), on real files, real processes and real file systems.
@Suite struct FaultCaseTests {
    /// A device root with one app container and its manifest.
    struct Device {
        let root: URL
        let container: AppContainer
        var inbox: String { container.inbox }
        var documents: String { container.documents }

        init() throws {
            root = try TestSupport.temporaryDirectory()
            container = try AppContainer(bundleIdentifier: "com.example.app", on: DeviceRoot(path: root.path))
            try container.create()
        }

        func deliver(_ name: String, _ body: Data) throws {
            try TestSupport.writeFile(body, to: URL(fileURLWithPath: inbox + "/" + name))
        }

        func manifest() throws -> Manifest { try Manifest(path: container.library + "/Manifest.sqlite") }

        /// Regular files of `folder` (not `Inbox`, not folders), name → bytes.
        static func files(in folder: String) throws -> [String: Data] {
            var result: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
                var info = stat()
                guard lstat(folder + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
                result[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
            }
            return result
        }

        /// `inboxd ARGUMENTS --root ROOT --app com.example.app`, stderr into `log`.
        func start(_ arguments: [String], log: URL) throws -> Process {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let job = Process()
            job.executableURL = URL(fileURLWithPath: TestSupport.inboxd)
            job.arguments = arguments + ["--root", root.path, "--app", "com.example.app"]
            job.standardOutput = FileHandle.nullDevice
            job.standardError = try FileHandle(forWritingTo: log)
            try job.run()
            return job
        }
    }

    static func waitUntil(_ seconds: Double = 60, _ condition: () throws -> Bool) rethrows -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if try condition() { return true }
            usleep(20_000)
        }
        return try condition()
    }

    static func stop(_ job: Process) {
        kill(job.processIdentifier, SIGTERM)
        job.waitUntilExit()
    }

    /// Mounts a tmpfs of `size` (root only: tests that need one are enabled for root).
    static func mountTmpfs(size: String) throws -> URL {
        let point = try TestSupport.temporaryDirectory()
        let mounted = try TestSupport.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", point.path])
        try #require(mounted.status == 0, "mount failed: \(mounted.stderr)")
        return point
    }

    static var isRoot: Bool { geteuid() == 0 }

    // MARK: Races

    /// 6: two receivers (two Inboxes, one working folder) take the same destination names at the
    /// same moment: every file ends up once, none is overwritten.
    @Test func case06TwoReceiversRaceForOneDestinationName() throws {
        let a = try Device()
        let b = try AppContainer(bundleIdentifier: "com.example.other", on: DeviceRoot(path: a.root.path))
        try b.create()
        var bodies: Set<Data> = []
        for i in 0..<100 {
            for (folder, side) in [(a.inbox, "a"), (b.inbox, "b")] {
                let body = Data("\(side) \(i)".utf8)
                bodies.insert(body)
                try TestSupport.writeFile(body, to: URL(fileURLWithPath: folder + "/report-\(i % 10)x\(i / 10).pdf"))
            }
        }
        let containers = [a.container, b], destination = a.documents
        DispatchQueue.concurrentPerform(iterations: 2) { k in
            var mover = InboxMover(container: containers[k])
            mover.destination = destination
            _ = try? mover.moveAll()
        }
        let stored = try Device.files(in: a.documents)
        #expect(stored.count == 200)
        #expect(Set(stored.values) == bodies)
        #expect(stored.keys.filter { $0.hasSuffix("-1.pdf") }.count == 100, "one of each pair got the suffix")
    }

    // MARK: Crashes

    /// 8: the same inode linked in both the Inbox and Documents after a crash (a rename that a
    /// power loss kept half of): recovery keeps the Documents name and removes the Inbox one,
    /// where a plain rename between two links of one file would do nothing.
    @Test func case08TheSameFileInBothFoldersAfterACrash() throws {
        let d = try Device()
        try d.deliver("report.pdf", Data("the report".utf8))
        let crashed = try TestSupport.run("/usr/bin/env", ["DI_FAULTS=crash=intent", TestSupport.inboxd, "once", "--root", d.root.path])
        #expect(crashed.status != 0)
        #expect(link(d.inbox + "/report.pdf", d.documents + "/report.pdf") == 0)
        let again = try TestSupport.run(TestSupport.inboxd, ["once", "--root", d.root.path])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try Device.files(in: d.inbox).isEmpty)
        #expect(try Device.files(in: d.documents) == ["report.pdf": Data("the report".utf8)])
        var info = stat()
        #expect(stat(d.documents + "/report.pdf", &info) == 0 && info.st_nlink == 1)
        let rows = try d.manifest().entries()
        #expect(rows.count == 1 && rows[0].status == .stored && rows[0].storedName == "report.pdf")
    }

    /// 8 and 9 across file systems: killed half-way through a copy (a partial copy in the working
    /// folder), and after the copy was linked and journaled (the file in both places).
    @Test(arguments: ["copying", "copied", "flushed"])
    func case09PartialCopyAndCase08BothCopiesAcrossFileSystems(_ step: String) throws {
        let d = try Device()
        let work = try FileManager.default.url(for: .itemReplacementDirectory, in: .userDomainMask,
                                               appropriateFor: URL(fileURLWithPath: "/dev/shm"), create: true)
        defer { try? FileManager.default.removeItem(at: work) }
        var bodies: [String: Data] = [:]
        for (i, size) in [3_000_000, 10, 70_000].enumerated() {
            bodies["file\(i).bin"] = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ i) })
            try d.deliver("file\(i).bin", bodies["file\(i).bin"]!)
        }
        let options = ["--root", d.root.path, "--app", "com.example.app", "--working-folder", work.path]
        let crashed = try TestSupport.run("/usr/bin/env", ["DI_FAULTS=crash=\(step)", TestSupport.inboxd, "once"] + options)
        #expect(crashed.status != 0, "did not crash at \(step)")
        let left = try FileManager.default.contentsOfDirectory(atPath: work.path) + FileManager.default.contentsOfDirectory(atPath: d.inbox)
        #expect(left.contains { $0.hasPrefix(".inboxd-") }, "the crash left temporary names: \(left)")
        let again = try TestSupport.run(TestSupport.inboxd, ["once"] + options)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: d.inbox).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).sorted() == bodies.keys.sorted(), "no partial copy, no duplicate")
        #expect(try Device.files(in: work.path) == bodies)
        let rows = try d.manifest().entries()
        #expect(rows.count == 3 && rows.allSatisfy { $0.status == .stored })
    }

    /// A copy journaled as complete whose process died after removing the Inbox copy: the
    /// original's inode number is free again, and a new delivery under the same name may get it.
    /// Recovery must not take that new file for the original (it looks only at the claim name).
    @Test func case09ARecoveredCopyLeavesANewDeliveryWithTheOldInodeAlone() throws {
        let d = try Device()
        try TestSupport.writeFile(Data("the copy".utf8), to: URL(fileURLWithPath: d.documents + "/a.txt"))
        try d.deliver("a.txt", Data("a new delivery".utf8))
        var info = stat()
        stat(d.inbox + "/a.txt", &info)
        let manifest = try d.manifest()
        // The row a dead receiver left: its original had (by reuse) the new file's inode.
        let status = try #require(FileSystem.status(d.inbox + "/a.txt"))
        let id = try manifest.beginMoves([MoveIntent(name: Array("a.txt".utf8), planned: "a.txt", status: status, sha256: "")])[0]
        try manifest.markCopied(id, storedAs: "a.txt")
        try manifest.execute("UPDATE moves SET owner_pid = 0")
        let results = try InboxMover(container: d.container, manifest: manifest).moveAll()
        #expect(results.map(\.outcome) == [.moved("a-1.txt")])
        #expect(try Device.files(in: d.documents) == ["a.txt": Data("the copy".utf8), "a-1.txt": Data("a new delivery".utf8)])
        #expect(try manifest.entries().map(\.status) == [.stored, .stored])
    }

    /// A manifest written by an earlier inboxd (no `type` column, ids that could be reused) is
    /// brought to the current layout with its rows kept, and moves go on.
    @Test func anEarlierManifestIsMigrated() throws {
        let d = try Device()
        let path = d.container.library + "/Manifest.sqlite"
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("CREATE TABLE moves (id INTEGER PRIMARY KEY, original_name BLOB NOT NULL, stored_name TEXT, status TEXT NOT NULL, reason TEXT, size INTEGER NOT NULL, sha256 TEXT NOT NULL, inode INTEGER NOT NULL, device INTEGER NOT NULL, arrived REAL, moved REAL, owner_pid INTEGER, owner_start INTEGER, sender TEXT, annotation BLOB)")
            db.execute("INSERT INTO moves (id, original_name, stored_name, status, size, sha256, inode, device) VALUES (7, X'6F6C642E747874', 'old.txt', 'stored', 3, 'abc', 1, 1)")
            db.commit()
            """
        #expect(try TestSupport.run("/usr/bin/env", ["python3", "-c", script, path]).status == 0)
        try d.deliver("new.txt", Data("new".utf8))
        let run = try TestSupport.run(TestSupport.inboxd, ["once", "--root", d.root.path, "--app", "com.example.app"])
        #expect(run.status == 0 && run.out.contains("new.txt -> Documents/new.txt"), "\(run.out)\(run.stderr)")
        let rows = try d.manifest().entries()
        #expect(rows.map(\.id) == [7, 8] && rows.map(\.storedName) == ["old.txt", "new.txt"])
        #expect(rows.map(\.type) == [nil, "public.plain-text"])
        // AUTOINCREMENT from now on: a dropped row's id is not given out again.
        let manifest = try d.manifest()
        let any = try #require(FileSystem.status(path))
        let dropped = try manifest.beginMoves([MoveIntent(name: Array("x".utf8), planned: "x", status: any, sha256: "")])[0]
        try manifest.finish(dropped, storedAs: nil, time: 0)
        #expect(try manifest.beginMoves([MoveIntent(name: Array("y".utf8), planned: "y", status: any, sha256: "")])[0] == dropped + 1)
    }

    // MARK: Watching

    /// 12: files arriving while the job sets its watch and makes its first pass are all moved,
    /// without waiting for a periodic rescan.
    @Test func case12ArrivalsDuringStartAreNotMissed() throws {
        let d = try Device()
        let job = try d.start(["run", "--rescan", "1000"], log: d.root.appendingPathComponent("log"))
        defer { Self.stop(job) }
        for i in 0..<300 {
            try d.deliver("early-\(i).txt", Data("\(i)".utf8))
            if i % 10 == 0 { usleep(2_000) }
        }
        #expect(try Self.waitUntil { try Device.files(in: d.documents).count == 300 })
        #expect(try Device.files(in: d.inbox).isEmpty)
    }

    /// 13: the event queue overflows (more events than max_queued_events while the job is
    /// stopped): the overflow is seen, logged, and a full pass moves everything.
    @Test func case13EventQueueOverflow() throws {
        let d = try Device()
        let log = d.root.appendingPathComponent("log")
        let job = try d.start(["run", "--rescan", "1000"], log: log)
        defer { Self.stop(job) }
        #expect(Self.waitUntil { ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("msg=watching") })
        usleep(200_000)
        let limit = Int((try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 16384
        kill(job.processIdentifier, SIGSTOP)
        let count = limit / 2 + 500   // each file: IN_CREATE and IN_CLOSE_WRITE
        for i in 0..<count {
            let fd = open(d.inbox + "/f\(i)", O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
            close(fd)
        }
        kill(job.processIdentifier, SIGCONT)
        #expect(try Self.waitUntil(60) { try FileManager.default.contentsOfDirectory(atPath: d.inbox).isEmpty })
        #expect(try FileManager.default.contentsOfDirectory(atPath: d.documents).count == count + 1)   // + Inbox
        #expect(try String(contentsOf: log, encoding: .utf8).contains("event queue overflowed"))
    }

    /// 14: many events for one file (written, closed, reopened, touched, its mode changed) move
    /// it once: one copy, one manifest row.
    @Test func case14DuplicateEventsForOneFile() throws {
        let d = try Device()
        let job = try d.start(["run", "--rescan", "1000"], log: d.root.appendingPathComponent("log"))
        defer { Self.stop(job) }
        let staging = d.root.appendingPathComponent("one.txt").path
        let fd = open(staging, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
        _ = write(fd, "one", 3)
        close(fd)
        #expect(link(staging, d.inbox + "/one.txt") == 0)
        for _ in 0..<20 {
            chmod(staging, 0o640)
            let again = open(staging, O_WRONLY | O_APPEND | O_CLOEXEC)
            close(again)
        }
        unlink(staging)
        #expect(Self.waitUntil { FileManager.default.fileExists(atPath: d.documents + "/one.txt") })
        // The row is marked stored after the rename, the folder syncs and the commit: wait for
        // it, then give duplicate events time to do harm.
        #expect(Self.waitUntil { (try? d.manifest().entries()).map { $0.count == 1 && $0[0].status == .stored } ?? false })
        usleep(500_000)
        #expect(try Device.files(in: d.documents) == ["one.txt": Data("one".utf8)])
        let rows = try d.manifest().entries()
        #expect(rows.count == 1 && rows[0].status == .stored)
    }

    /// 30: the job's own renames, mode changes and claims do not wake it up again and again:
    /// once the files are moved, passes stop (only events and rescans cause them).
    @Test func case30OwnActivityDoesNotRetrigger() throws {
        let d = try Device()
        let log = d.root.appendingPathComponent("log")
        let job = try d.start(["run", "--rescan", "1000", "--log-level", "debug"], log: log)
        defer { Self.stop(job) }
        for i in 0..<20 {
            let fd = open(d.inbox + "/n\(i).txt", O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)   // 0600: the job changes it
            _ = write(fd, "\(i)", 1)
            close(fd)
        }
        #expect(try Self.waitUntil { try Device.files(in: d.documents).count == 20 })
        func passes() throws -> Int { try String(contentsOf: log, encoding: .utf8).components(separatedBy: "msg=pass ").count - 1 }
        // A pass is logged after its syncs and commit, which a loaded machine delays: wait for a
        // quiet second (at most 60 s; passes that never stop still fail below), then watch 1.5 s.
        var settled = try passes()
        var quietSince = Date()
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            usleep(100_000)
            let now = try passes()
            if now != settled { settled = now; quietSince = Date() } else if Date().timeIntervalSince(quietSince) >= 1 { break }
        }
        usleep(1_500_000)
        #expect(try passes() == settled, "passes went on after the files were moved")
        #expect(settled <= 22, "\(settled) passes for 20 files")
    }

    // MARK: Hostile input

    /// 21: an entry swapped between a regular file and a symbolic link (to a secret outside) while
    /// passes run: the link is never followed, the secret never moved or read into Documents,
    /// and every stored file is one of the regular files.
    @Test func case21AFileSwappedForASymlinkDuringTheMove() throws {
        let d = try Device()
        let secret = d.root.appendingPathComponent("secret.txt").path
        try TestSupport.writeFile(Data("secret".utf8), to: URL(fileURLWithPath: secret))
        let staging = d.root.appendingPathComponent("staging").path
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        let mover = InboxMover(container: d.container, manifest: try d.manifest())
        final class Flag: @unchecked Sendable { var done = false }   // written once by the swapper
        let flag = Flag()
        let swapper = Thread {
            for i in 0..<1_500 {
                try? TestSupport.writeFile(Data("regular \(i)".utf8), to: URL(fileURLWithPath: staging + "/f"))
                rename(staging + "/f", d.inbox + "/x.txt")
                symlink(secret, staging + "/l")
                rename(staging + "/l", d.inbox + "/x.txt")
            }
            flag.done = true
        }
        swapper.start()
        while !flag.done { _ = try? mover.moveAll() }
        _ = try mover.moveAll()
        #expect(try String(contentsOfFile: secret, encoding: .utf8) == "secret")
        for name in try FileManager.default.contentsOfDirectory(atPath: d.documents) where name != "Inbox" {
            var info = stat()
            #expect(lstat(d.documents + "/" + name, &info) == 0 && info.st_mode & S_IFMT == S_IFREG, "\(name) is not a regular file")
            #expect(try String(contentsOfFile: d.documents + "/" + name, encoding: .utf8).hasPrefix("regular "))
        }
        let quarantine = d.container.library + "/Quarantine"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: quarantine)) ?? [] {
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: quarantine + "/" + name) == secret, "only the links are quarantined")
        }
    }

    /// 28: a source the job may not read stays in the Inbox (retried later); the others move. As
    /// root, the job runs without CAP_DAC_OVERRIDE so that the permission bits apply to it.
    @Test func case28UnreadableSource() throws {
        let d = try Device()
        try d.deliver("locked.txt", Data("locked".utf8))
        try d.deliver("open.txt", Data("open".utf8))
        chmod(d.inbox + "/locked.txt", 0)
        let command = ["once", "--root", d.root.path, "--app", "com.example.app"]
        let run = Self.isRoot
            ? try TestSupport.run("/usr/bin/setpriv", ["--bounding-set=-dac_override,-dac_read_search", "--inh-caps=-all", TestSupport.inboxd] + command)
            : try TestSupport.run(TestSupport.inboxd, command)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.out.contains("locked.txt left for later: cannot open: Permission denied"), "\(run.out)")
        #expect(try Device.files(in: d.documents) == ["open.txt": Data("open".utf8)])
        chmod(d.inbox + "/locked.txt", 0o644)
        #expect(try TestSupport.run(TestSupport.inboxd, command).out.contains("locked.txt -> Documents/locked.txt"))
    }

    // MARK: Other file systems and failing disks

    /// 26: the working folder on another file system (tmpfs): each file is copied, flushed,
    /// linked and then removed from the Inbox; bytes, modification time and manifest agree.
    @Test func case26AcrossFileSystems() throws {
        let d = try Device()
        let work = try FileManager.default.url(for: .itemReplacementDirectory, in: .userDomainMask,
                                               appropriateFor: URL(fileURLWithPath: "/dev/shm"), create: true)
        defer { try? FileManager.default.removeItem(at: work) }
        var inboxInfo = stat(), workInfo = stat()
        stat(d.inbox, &inboxInfo); stat(work.path, &workInfo)
        try #require(inboxInfo.st_dev != workInfo.st_dev, "/dev/shm is on the same file system as the temporary folder")
        try d.deliver("photo.png", Data(repeating: 7, count: 2_000_000))
        try d.deliver("a.txt", Data("a".utf8))
        try TestSupport.writeFile(Data("already here".utf8), to: work.appendingPathComponent("a.txt"))
        utime(d.inbox + "/photo.png", nil)
        var before = stat()
        stat(d.inbox + "/photo.png", &before)
        let run = try TestSupport.run(TestSupport.inboxd, ["once", "--root", d.root.path, "--app", "com.example.app", "--working-folder", work.path])
        #expect(run.status == 0 && run.out.contains("a.txt -> \(work.path)/a-1.txt"), "\(run.out)\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: d.inbox).isEmpty)
        #expect(try Device.files(in: work.path) == ["photo.png": Data(repeating: 7, count: 2_000_000), "a.txt": Data("already here".utf8), "a-1.txt": Data("a".utf8)])
        var after = stat()
        stat(work.path + "/photo.png", &after)
        #expect(after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
        #expect(after.st_mode & 0o7777 == 0o644)
        let rows = try d.manifest().entries()
        #expect(rows.map(\.storedName) == ["a-1.txt", "photo.png"] && rows.allSatisfy { $0.status == .stored })
    }

    /// 25: no space left in the working folder (a 1 MiB tmpfs): the copy fails with ENOSPC, the
    /// partial copy is removed, the file stays in the Inbox and is retried at the next pass; the
    /// small file moves.
    @Test(.enabled(if: FaultCaseTests.isRoot, "mounting a small tmpfs needs root"))
    func case25NoSpaceOnTheDestination() throws {
        let d = try Device()
        let small = try Self.mountTmpfs(size: "1m")
        defer { _ = try? TestSupport.run("/bin/umount", [small.path]) }
        let big = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0) })
        try d.deliver("big.bin", big)
        try d.deliver("small.txt", Data("small".utf8))
        let options = ["once", "--root", d.root.path, "--app", "com.example.app", "--working-folder", small.path]
        for _ in 0..<2 {
            let run = try TestSupport.run(TestSupport.inboxd, options)
            #expect(run.out.contains("big.bin left for later: cannot write the copy: No space left on device"), "\(run.out)")
            #expect(try Device.files(in: d.inbox) == ["big.bin": big])
            #expect(try FileManager.default.contentsOfDirectory(atPath: small.path).allSatisfy { !$0.hasPrefix(".inboxd-") })
        }
        #expect(try Device.files(in: small.path) == ["small.txt": Data("small".utf8)])
        let rows = try d.manifest().entries()
        #expect(rows.count == 1 && rows[0].storedName == "small.txt")
    }

    /// 27: fsync returns EIO. A failed file flush: nothing moves. A failed folder flush after the
    /// rename: the move is not reported done and its journal row stays open until a start with
    /// a working disk settles it; the file is stored once.
    @Test func case27FsyncReturnsEIO() throws {
        let d = try Device()
        try d.deliver("a.txt", Data("a".utf8))
        let mover = InboxMover(container: d.container, manifest: try d.manifest())
        // The file's flush fails (the Inbox entry), then the working folder's.
        let fileFails = try FaultInjection.with([.fail(.fsync, errno: .ioError, pathSuffix: "/Inbox/a.txt")]) { try mover.moveAll() }
        #expect(fileFails.map(\.outcome) == [.deferred("fsync failed: Input/output error")])
        #expect(try Device.files(in: d.inbox).count == 1 && Device.files(in: d.documents).isEmpty)
        let folderFails = try FaultInjection.with([.fail(.fsync, errno: .ioError, pathSuffix: "/Documents")]) { try mover.moveAll() }
        #expect(folderFails.map(\.outcome) == [.deferred("moved, but flushing the working folder failed")])
        #expect(try d.manifest().entries(status: .moving).count == 1)
        // The next pass, with a working disk, settles it.
        #expect(try mover.moveAll().isEmpty)
        #expect(try Device.files(in: d.documents) == ["a.txt": Data("a".utf8)])
        let rows = try d.manifest().entries()
        #expect(rows.count == 1 && rows[0].status == .stored && rows[0].storedName == "a.txt")
    }
}
