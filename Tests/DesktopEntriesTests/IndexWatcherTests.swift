import Foundation
import Testing
import SystemCalls
import TestHelpers
@testable import DesktopEntries

/// The index watcher (`openin watch`): while it runs, queries skip the freshness check's stat per
/// file, and every change the check would see is still seen by the next query: edits in place,
/// new folders and the files in them, a linked mimeapps.list edited where it really is, a missing
/// association file created. Killed with SIGKILL, queries check their files themselves again.
@Suite(.serialized) struct IndexWatcherTests {
    /// `openin watch` for the tree's folders, with exactly the tree's environment (the watcher's
    /// name is derived from the same locations the test queries).
    static func startWatcher(_ tree: DesktopFixtures.Tree) throws -> ProbeProcess {
        let environment = tree.gioEnvironment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return try ProbeProcess("/usr/bin/env", ["-i"] + environment + [TestSupport.openin, "watch"])
    }

    static func isVouched(_ apps: DesktopApps) -> Bool {
        if case .vouched = apps.origin { return true }
        return false
    }

    @Test func changesAreSeenByTheNextQueryWhileQueriesTrustTheWatcher() throws {
        let tree = try DesktopFixtures.tree()
        let watcher = try Self.startWatcher(tree)
        defer { watcher.signal(SIGKILL) }
        #expect(eventually { IndexWatch.ask(for: tree.locations).token != nil }, "the watcher answers for the tree's locations")

        let first = tree.apps()
        guard case .rebuilt(let path) = first.origin else { Issue.record("first load: \(first.origin)"); return }
        // A query waits 50 ms for the watcher's answer and checks its files itself when the
        // answer is late (a loaded machine): vouched answers are waited for.
        #expect(eventually { tree.apps().origin == .vouched(path) })
        #expect(tree.apps().applications(for: "image/png").map(\.app.id) == ["eog.desktop"])
        // Another locale reads the same files (its index is another file): the same watcher answers.
        var german = tree.locations
        german.locales = ["de_DE", "de"]
        #expect(eventually { IndexWatch.ask(for: german).token != nil })
        let germanApps = DesktopApps(locations: german, cacheDirectory: tree.cache, findProgram: DesktopFixtures.Tree.find)
        #expect(germanApps.origin != tree.apps().origin)
        #expect(eventually { Self.isVouched(DesktopApps(locations: german, cacheDirectory: tree.cache, findProgram: DesktopFixtures.Tree.find)) })

        // An edit in place: same inode, the folder's time unchanged.
        let gedit = tree.usr + "/applications/gedit.desktop"
        var text = try String(contentsOfFile: gedit, encoding: .utf8)
        text = text.replacingOccurrences(of: "MimeType=text/plain;", with: "MimeType=text/plain;image/png;")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: gedit))
        handle.write(Data(text.utf8))
        try handle.close()
        // (The watcher refreshes the indexes of its own cache folder, not this test's.)
        let edited = tree.apps()
        #expect(edited.origin == .rebuilt(path))
        #expect(edited.applications(for: "image/png").map(\.app.id) == ["eog.desktop", "gedit.desktop"])
        // Vouched again once the watcher has taken in the change (it answers "cannot vouch" while
        // it re-reads; the query then checks its files itself, which is slower, not wrong).
        #expect(eventually { tree.apps().origin == .vouched(path) })

        // A new subfolder with an entry, then an edit in place inside it: the new folder is
        // watched before the watcher answers.
        try tree.write("[Desktop Entry]\nType=Application\nName=New\nExec=true\nMimeType=image/png;\n", to: "home/applications/x/new.desktop")
        #expect(tree.apps().applications(for: "image/png").map(\.app.id).contains("x-new.desktop"))
        #expect(eventually { Self.isVouched(tree.apps()) })
        let newEntry = try FileHandle(forWritingTo: URL(fileURLWithPath: tree.home + "/applications/x/new.desktop"))
        newEntry.write(Data("[Desktop Entry]\nType=Application\nName=New\nExec=true\nMimeType=image/png;application/pdf;\n".utf8))
        try newEntry.close()
        #expect(tree.apps().applications(for: "application/pdf").map(\.app.id).contains("x-new.desktop"))

        // A mimeapps.list linked from a dotfiles folder, edited there in place.
        try tree.write("[Default Applications]\nimage/png=eog.desktop\n", to: "dotfiles/mimeapps.list")
        try FileManager.default.createSymbolicLink(atPath: tree.config + "/mimeapps.list", withDestinationPath: tree.root.path + "/dotfiles/mimeapps.list")
        #expect(tree.apps().userDefault(for: "image/png")?.app.id == "eog.desktop")
        #expect(eventually { Self.isVouched(tree.apps()) })
        let dotfile = try FileHandle(forWritingTo: tree.root.appendingPathComponent("dotfiles/mimeapps.list"))
        dotfile.write(Data("[Default Applications]\nimage/png=x-new.desktop\n".utf8))
        try dotfile.close()
        #expect(tree.apps().userDefault(for: "image/png")?.app.id == "x-new.desktop")

        // An association file that was missing (XDG_CONFIG_DIRS), created.
        try tree.write("[Removed Associations]\nimage/png=gedit.desktop\n", to: "etc/mimeapps.list")
        #expect(!tree.apps().applications(for: "image/png").map(\.app.id).contains("gedit.desktop"))
        #expect(eventually { Self.isVouched(tree.apps()) })

        // A second watcher for the same folders is refused.
        let second = try DesktopFixtures.run(["/usr/bin/env", "-i"] + tree.gioEnvironment.map { "\($0.key)=\($0.value)" } + [TestSupport.openin, "watch"])
        #expect(second.status == 2 && second.err.contains("already running"), "\(second.err)")

        // Killed: queries check their files again, and still see changes.
        watcher.signal(SIGKILL)
        #expect(watcher.waitForExit() != nil)
        let unwatched = tree.apps()
        #expect(unwatched.origin == .cached(path))
        try FileManager.default.removeItem(atPath: tree.root.path + "/etc/mimeapps.list")
        #expect(tree.apps().applications(for: "image/png").map(\.app.id).contains("gedit.desktop"))
    }

    /// After a change the watcher brings the cached indexes up to date itself, each locale's: the
    /// first query after it is vouched without rebuilding anything, and sees the change.
    @Test func theWatcherBringsTheIndexesUpToDateAfterAChange() throws {
        let tree = try DesktopFixtures.tree()
        let watcher = try Self.startWatcher(tree)
        defer { watcher.signal(SIGKILL) }
        #expect(eventually { IndexWatch.ask(for: tree.locations).token != nil })
        var german = tree.locations
        german.locales = ["de_DE", "de"]
        // Where queries keep their indexes by default, with the watcher's XDG_CACHE_HOME.
        func apps(_ locations: DesktopLocations) -> DesktopApps {
            DesktopApps(locations: locations, cacheDirectory: tree.cache + "/document-interchange", findProgram: DesktopFixtures.Tree.find)
        }
        guard case .rebuilt(let path) = apps(tree.locations).origin, case .rebuilt(let germanPath) = apps(german).origin else {
            Issue.record("the first queries did not build their indexes")
            return
        }
        #expect(path != germanPath)
        // Temporary files of a writer killed mid-write (two minutes old) go; a new one stays.
        let folder = tree.cache + "/document-interchange"
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/.desktop-apps-1.index.tmp-old"))
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-120)], ofItemAtPath: folder + "/.desktop-apps-1.index.tmp-old")
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/.desktop-apps-1.index.tmp-new"))
        // Written directly, with no query after it until the watcher has refreshed both files.
        try tree.write("[Desktop Entry]\nType=Application\nName=Late\nName[de]=Spät\nExec=true\nMimeType=image/png;\n",
                       to: "home/applications/late.desktop")
        #expect(eventually {
            guard let token = IndexWatch.ask(for: tree.locations).token else { return false }
            return [path, germanPath].allSatisfy { DesktopAppIndex(path: $0)?.watchToken == token }
        }, "both indexes carry the watcher's token after the change")
        #expect(!FileManager.default.fileExists(atPath: folder + "/.desktop-apps-1.index.tmp-old"))
        #expect(FileManager.default.fileExists(atPath: folder + "/.desktop-apps-1.index.tmp-new"))
        let after = apps(tree.locations)
        #expect(after.origin == .vouched(path))
        #expect(after.applications(for: "image/png").map(\.app.id).contains("late.desktop"))
        let germanAfter = apps(german)
        #expect(germanAfter.origin == .vouched(germanPath))
        #expect(germanAfter.applications(for: "image/png").first { $0.app.id == "late.desktop" }?.app.entry?.name == "Spät")

        // A change the freshness check does not see (a mode): the token is recorded in place,
        // nothing rebuilt (the same file).
        let before = try #require(FileSystem.status(path))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: tree.home + "/applications/late.desktop")
        #expect(eventually {
            guard let token = IndexWatch.ask(for: tree.locations).token else { return false }
            return DesktopAppIndex(path: path)?.watchToken == token
        })
        #expect(FileSystem.status(path)?.inode == before.inode)
        #expect(apps(tree.locations).origin == .vouched(path))
    }

    /// A token is recorded only into the file that was found fresh: when another process has
    /// renamed a newer build to the same name since it was mapped, that build keeps its own.
    @Test func aTokenIsRecordedOnlyIntoTheFileThatWasChecked() throws {
        let tree = try DesktopFixtures.tree()
        guard case .rebuilt(let path) = tree.apps().origin else { Issue.record("not built"); return }
        let checked = try #require(DesktopAppIndex(path: path))
        checked.recordWatchToken(41)
        #expect(DesktopAppIndex(path: path)?.watchToken == 41)
        // Another build (token 7) renamed over it, as AtomicFile does.
        var builder = IndexBuilder(locations: tree.locations, watchToken: 7)
        try AtomicFile.write(builder.build(), to: path)
        checked.recordWatchToken(42)
        #expect(DesktopAppIndex(path: path)?.watchToken == 7)
        #expect(checked.watchToken == 41, "the mapped file is the one that was checked")
    }

    /// The processes running `openin watch --idle-exit …` (started by a query) for `tree`: their
    /// environment names its cache folder.
    static func autostarted(for tree: DesktopFixtures.Tree) -> [Int32] {
        let ids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap(Int32.init) ?? []
        return ids.filter { id in
            guard let command = FileManager.default.contents(atPath: "/proc/\(id)/cmdline"),
                  let environment = FileManager.default.contents(atPath: "/proc/\(id)/environ") else { return false }
            let words = command.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return words.dropFirst().starts(with: ["watch", "--idle-exit"])
                && environment.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == "XDG_CACHE_HOME=\(tree.cache)" }
        }
    }

    /// A query starts a watcher itself, once it has answered, when its index has 1,000 sources or
    /// more (DOCUMENT_INTERCHANGE_AUTOWATCH unset: `auto`): a daemon in a session of its own that
    /// holds none of the query's descriptors (the output pipe read to its end here would
    /// otherwise never end), whose answers the next queries use. None for a small tree or with
    /// `off`; a misspelt value is an error and starts nothing. `--idle-exit` ends a watcher that
    /// no query asks.
    @Test func aQueryStartsAWatcherForALargeTreeOnly() throws {
        let tree = try DesktopFixtures.tree()
        let document = tree.root.appendingPathComponent("photo.png").path
        try FileManager.default.copyItem(atPath: TestSupport.packageRoot.appendingPathComponent("Samples/Documents/photo.png").path, toPath: document)
        func query(_ setting: String? = nil) throws -> DesktopFixtures.Output {
            var environment = tree.gioEnvironment
            environment[WatcherAutostart.variable] = setting
            return try DesktopFixtures.run(["/usr/bin/env", "-i"] + environment.map { "\($0.key)=\($0.value)" } + [TestSupport.openin, "--list", "--json", document])
        }
        defer { for id in Self.autostarted(for: tree) { kill(id, SIGKILL) } }
        // A watcher binds its name within milliseconds of starting; one that was started would
        // answer well within this.
        func noneStarted() -> Bool {
            usleep(500_000)
            return IndexWatch.ask(for: tree.locations) == .noWatcher && Self.autostarted(for: tree).isEmpty
        }

        let small = try query()
        #expect(small.status == 0 && small.out.contains("eog.desktop"), "\(small.err)")
        #expect(tree.apps().index.sourceCount < WatcherAutostart.threshold)
        #expect(noneStarted(), "a watcher for a tree of \(tree.apps().index.sourceCount) sources")

        for i in 0..<WatcherAutostart.threshold {
            try tree.write("[Desktop Entry]\nType=Application\nName=Bulk \(i)\nExec=true\nMimeType=text/x-bulk-\(i);\n", to: "home/applications/bulk/app\(i).desktop")
        }
        let misspelt = try query("of")
        #expect(misspelt.status == 2 && misspelt.err == "openin: DOCUMENT_INTERCHANGE_AUTOWATCH must be auto or off, not 'of'\n", "\(misspelt.err)")
        #expect(noneStarted())
        let off = try query("off")
        #expect(off.status == 0 && off.out.contains("eog.desktop"), "\(off.err)")
        #expect(tree.apps().index.sourceCount >= WatcherAutostart.threshold)
        #expect(noneStarted())

        let started = try query()
        #expect(started.status == 0 && started.out == off.out, "\(started.err)")
        #expect(eventually { IndexWatch.ask(for: tree.locations).token != nil }, "the started watcher answers")
        let watchers = Self.autostarted(for: tree)
        #expect(watchers.count == 1, "\(watchers)")
        for id in watchers {
            // /proc/PID/stat: "PID (comm) STATE PPID PGRP SESSION …": a session of its own.
            let stat = try String(contentsOfFile: "/proc/\(id)/stat", encoding: .utf8)
            let fields = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...].split(separator: " ")
            #expect(fields[3] == "\(id)", "session \(fields[3])")
            let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(id)/fd").sorted()
            #expect(descriptors == ["0", "1", "2", "3", "4"], "\(descriptors)")
            for standard in ["0", "1", "2"] {
                #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(id)/fd/\(standard)") == "/dev/null")
            }
            // No signal blocked or ignored (the test runner ignores SIGPIPE, which would pass on),
            // except signals 32 and 33, which glibc keeps for itself and posix_spawn leaves alone.
            let status = try String(contentsOfFile: "/proc/\(id)/status", encoding: .utf8).split(separator: "\n")
            for mask in ["SigBlk:", "SigIgn:"] {
                let line = status.first { $0.hasPrefix(mask) }
                let bits = line.flatMap { UInt64($0.dropFirst(mask.count).trimmingCharacters(in: .whitespaces), radix: 16) }
                #expect(bits.map { $0 & ~(UInt64(1) << 31 | UInt64(1) << 32) } == 0, "\(line.map(String.init) ?? mask)")
            }
        }
        #expect(eventually { Self.isVouched(tree.apps()) }, "later queries use its answers")
        // Another query while it runs starts no second one.
        #expect(try query().status == 0)
        usleep(300_000)
        #expect(Self.autostarted(for: tree) == watchers)
        for id in watchers { kill(id, SIGKILL) }
        #expect(eventually { IndexWatch.ask(for: tree.locations) == .noWatcher })

        // --idle-exit: gone once no query has asked for that long.
        let environment = tree.gioEnvironment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let idle = try ProbeProcess("/usr/bin/env", ["-i"] + environment + [TestSupport.openin, "watch", "--idle-exit", "1"])
        let start = Date()
        #expect(eventually { IndexWatch.ask(for: tree.locations).token != nil })
        #expect(idle.waitForExit(timeout: 60) == 0)
        #expect(Date().timeIntervalSince(start) >= 1)

        // A relative HOME makes the default folders relative to the working folder: no watcher.
        let relative = try DesktopFixtures.run(["/usr/bin/env", "-i", "HOME=home", "PATH=/usr/bin:/bin", TestSupport.openin, "watch"])
        #expect(relative.status == 2 && relative.err.contains("HOME is not an absolute path"), "\(relative.err)")
    }

    /// The watcher watches what the index records: the sources of a full build are exactly those
    /// the watcher's walk lists.
    @Test func theWatchedSourcesAreTheIndexSources() throws {
        let tree = try DesktopFixtures.tree()
        try tree.write("[Desktop Entry]\nType=Application\nName=Deep\nExec=true\n", to: "home/applications/a/b/deep.desktop")
        var full = IndexBuilder(locations: tree.locations)
        _ = full.build()
        var walk = IndexBuilder(locations: tree.locations)
        let listed = walk.collectSources().map(\.path)
        #expect(Set(listed) == Set(full.recordedSources.map(\.path)))
        #expect(listed.count == full.recordedSources.count)
        #expect(listed.contains(tree.home + "/applications/a/b/deep.desktop"))
    }

    /// A missing source is watched as the next name in the deepest folder that exists; a linked
    /// file also where it points.
    @Test func missingAndLinkedSourcesAreWatchedWhereTheyWouldChange() throws {
        let root = try TestSupport.temporaryDirectory().path
        try FileManager.default.createDirectory(atPath: root + "/real", withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/real/target.list"))
        try FileManager.default.createDirectory(atPath: root + "/config", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/config/mimeapps.list", withDestinationPath: root + "/real/target.list")
        let sources = [IndexBuilder.Source(path: root + "/missing/deeper/applications", status: nil),
                       IndexBuilder.Source(path: root + "/config/mimeapps.list", status: FileSystem.status(root + "/config/mimeapps.list")),
                       IndexBuilder.Source(path: root + "/real", status: FileSystem.status(root + "/real"))]
        let set = WatchSet(sources: sources)
        #expect(set.matters("missing", in: root))
        #expect(!set.matters("other", in: root))
        #expect(set.matters("mimeapps.list", in: root + "/config"))
        #expect(!set.matters("other.list", in: root + "/config"))
        #expect(set.matters("target.list", in: root + "/real") && set.matters("anything", in: root + "/real"))
    }
}
