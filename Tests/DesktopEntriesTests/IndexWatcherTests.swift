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
        #expect(eventually { IndexWatch.token(for: tree.locations) != nil }, "the watcher answers for the tree's locations")

        let first = tree.apps()
        guard case .rebuilt(let path) = first.origin else { Issue.record("first load: \(first.origin)"); return }
        // A query waits 50 ms for the watcher's answer and checks its files itself when the
        // answer is late (a loaded machine): vouched answers are waited for.
        #expect(eventually { tree.apps().origin == .vouched(path) })
        #expect(tree.apps().applications(for: "image/png").map(\.app.id) == ["eog.desktop"])
        // Another locale reads the same files (its index is another file): the same watcher answers.
        var german = tree.locations
        german.locales = ["de_DE", "de"]
        #expect(eventually { IndexWatch.token(for: german) != nil })
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
