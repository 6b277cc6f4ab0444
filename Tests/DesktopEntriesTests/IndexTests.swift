import Foundation
import Testing
@testable import DesktopEntries

/// The compiled index: reused while nothing changed, rebuilt by the next query after any change
/// (an edit in place, a new or removed entry, a new mimeapps.list, a new MIME database), never
/// trusted when damaged.
@Suite(.serialized) struct IndexTests {
    @Test func reusedUntilAnythingChanges() throws {
        let tree = try DesktopFixtures.tree()
        let first = tree.apps()
        guard case .rebuilt(let path) = first.origin else { Issue.record("first load: \(first.origin)"); return }
        #expect(tree.apps().origin == .cached(path))
        #expect(first.index.sourceCount > 40)
        #expect(first.applications(for: "image/png").map(\.app.id) == ["eog.desktop"])

        // An edit in place (same inode, the folder's time unchanged): seen by the next query.
        let gedit = tree.usr + "/applications/gedit.desktop"
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: gedit))
        handle.seekToEndOfFile()
        handle.write(Data("Keywords=x;\n".utf8))
        try handle.close()
        var text = try String(contentsOfFile: gedit, encoding: .utf8)
        text = text.replacingOccurrences(of: "MimeType=text/plain;", with: "MimeType=text/plain;image/png;")
        try Data(text.utf8).write(to: URL(fileURLWithPath: gedit))
        let edited = tree.apps()
        #expect(edited.origin == .rebuilt(path))
        #expect(edited.applications(for: "image/png").map(\.app.id) == ["eog.desktop", "gedit.desktop"])

        // A new entry in a new subfolder, then a new mimeapps.list in the config folder.
        try tree.write("[Desktop Entry]\nType=Application\nName=New\nExec=true\nMimeType=image/png;\n", to: "home/applications/x/new.desktop")
        #expect(tree.apps().applications(for: "image/png").map(\.app.id).contains("x-new.desktop"))
        // An edit in place in the subfolder (statted relative to it): seen too.
        try Data("[Desktop Entry]\nType=Application\nName=New\nExec=true\nMimeType=image/png;application/pdf;\n".utf8)
            .write(to: URL(fileURLWithPath: tree.home + "/applications/x/new.desktop"))
        #expect(tree.apps().applications(for: "application/pdf").map(\.app.id).contains("x-new.desktop"))
        try tree.write("[Default Applications]\nimage/png=x-new.desktop\n", to: "config/mimeapps.list")
        let configured = tree.apps()
        #expect(configured.userDefault(for: "image/png")?.app.id == "x-new.desktop")
        #expect(configured.userDefault(for: "image/png")?.provenance == .defaultEntry(file: tree.config + "/mimeapps.list", line: 2))
        // Removed: gone at once.
        try FileManager.default.removeItem(atPath: tree.home + "/applications/x/new.desktop")
        let removed = tree.apps()
        #expect(removed.userDefault(for: "image/png") == nil)
        #expect(removed.app("x-new.desktop") == nil)
        #expect(tree.apps().origin == .cached(path))
    }

    /// A rebuild takes the entries of files that still stat as the stale index recorded them
    /// from it, and writes the bytes a full build writes: after an edit that keeps the size, a
    /// new file, a removed one, one moved over another, one that no longer parses, and a new
    /// mimeapps.list.
    @Test func aRebuildReusesUnchangedEntriesAndWritesWhatAFullBuildWrites() throws {
        let tree = try DesktopFixtures.tree()
        func full() -> [UInt8] {
            var builder = IndexBuilder(locations: tree.locations)
            return builder.build()
        }
        let previous = try #require(DesktopAppIndex(bytes: full()))
        let total = previous.appCount
        #expect(total > 30)
        var unchanged = IndexBuilder(locations: tree.locations, reusing: previous)
        // Compared as one Bool: a failure names the difference below, not two arrays of bytes.
        let unchangedIsFull = unchanged.build() == full()
        #expect(unchangedIsFull, "a rebuild with nothing changed differs from a full build")
        #expect(unchanged.reusedEntries == total)

        let applications = tree.usr + "/applications/"
        let past = Date(timeIntervalSince1970: 1_000_000_000)
        // Same size, another name; its time set apart so that a coarse clock cannot hide the edit.
        let gedit = try String(contentsOfFile: applications + "gedit.desktop", encoding: .utf8)
        try Data(gedit.replacingOccurrences(of: "\nName=gedit\n", with: "\nName=gedot\n").utf8).write(to: URL(fileURLWithPath: applications + "gedit.desktop"))
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: applications + "gedit.desktop")
        try Data("not a key file\n".utf8).write(to: URL(fileURLWithPath: applications + "baobab.desktop"))
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: applications + "baobab.desktop")
        try FileManager.default.removeItem(atPath: applications + "kde4/kate.desktop")
        // totem.desktop is now cheese's file: its own time and size, another inode.
        #expect(rename(applications + "cheese.desktop", applications + "totem.desktop") == 0)
        try tree.write("[Desktop Entry]\nType=Application\nName=New\nExec=true\nMimeType=image/png;\n", to: "home/applications/new.desktop")
        try tree.write("[Default Applications]\nimage/png=new.desktop\n", to: "config/mimeapps.list")

        var rebuild = IndexBuilder(locations: tree.locations, reusing: previous)
        let bytes = rebuild.build()
        let rebuiltIsFull = bytes == full()
        #expect(rebuiltIsFull, "the rebuild differs from a full build")
        // gedit, baobab, totem and new are read; kate and cheese are gone.
        #expect(rebuild.reusedEntries == total - 5)
        let index = try #require(DesktopAppIndex(bytes: bytes))
        #expect(index.app(index.records(for: "gedit.desktop").first!).entry?.name == "gedot")
        #expect(index.app(index.records(for: "totem.desktop").first!).entry?.name == "Cheese")
        #expect(index.app(index.records(for: "baobab.desktop").first!).entry == nil)

        // An index built for other locations is not used.
        var other = tree.locations
        other.locales = ["de"]
        var foreign = IndexBuilder(locations: other, reusing: previous)
        _ = foreign.build()
        #expect(foreign.reusedEntries == 0)
    }

    /// A file that did not parse is read again even when it stats as it did: what failed may
    /// have been the reading (permissions, a descriptor limit), not the bytes. Here the bytes
    /// are replaced in place by as many others, and the time is put back.
    @Test func aFileThatDidNotParseIsReadAgain() throws {
        let tree = try DesktopFixtures.tree()
        let path = tree.home + "/applications/later.desktop"
        let good = "[Desktop Entry]\nType=Application\nName=Later\nExec=true\nMimeType=image/png;\n"
        // Not a key=value pair, a group or a comment: a key file error.
        try tree.write(String(repeating: "x", count: good.utf8.count - 1) + "\n", to: "home/applications/later.desktop")
        var first = IndexBuilder(locations: tree.locations)
        let previous = try #require(DesktopAppIndex(bytes: first.build()))
        #expect(previous.app(previous.records(for: "later.desktop").first!).entry == nil)
        var before = stat()
        #expect(stat(path, &before) == 0)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.write(Data(good.utf8))
        try handle.close()
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        var after = stat()
        #expect(stat(path, &after) == 0)
        #expect(after.st_ino == before.st_ino && after.st_size == before.st_size && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)

        var rebuild = IndexBuilder(locations: tree.locations, reusing: previous)
        let index = try #require(DesktopAppIndex(bytes: rebuild.build()))
        #expect(index.app(index.records(for: "later.desktop").first!).entry?.name == "Later")
        #expect(rebuild.reusedEntries == previous.appCount - 1)
    }

    /// What the index could not give back exactly is never put in it: a list value holding the
    /// index's separator U+001E is dropped (with a problem naming the file and line), and names
    /// that differ only in Unicode normalization stay two names with their own bytes (Swift's
    /// `String` equality would make them one). A rebuild that reuses them writes a full build's bytes.
    @Test func valuesTheIndexCannotHoldExactlyAreKeptApart() throws {
        let tree = try DesktopFixtures.tree()
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        try tree.write("[Desktop Entry]\nType=Application\nName=\(composed)\nExec=true\nMimeType=text/x-one\u{1E}image/png;application/pdf;\n",
                       to: "home/applications/\(composed).desktop")
        try tree.write("[Desktop Entry]\nType=Application\nName=\(decomposed)\nExec=true\nMimeType=text/x-two;\n",
                       to: "home/applications/\(decomposed).desktop")
        func full() -> [UInt8] {
            var builder = IndexBuilder(locations: tree.locations)
            return builder.build()
        }
        let bytes = full()
        let index = try #require(DesktopAppIndex(bytes: bytes))
        let oneRecord = try #require(index.records(for: "\(composed).desktop").first)
        let twoRecord = try #require(index.records(for: "\(decomposed).desktop").first)
        #expect(oneRecord != twoRecord)
        let one = try #require(index.app(oneRecord).entry)
        let two = try #require(index.app(twoRecord).entry)
        #expect(Array(one.name!.utf8) == Array(composed.utf8))
        #expect(Array(two.name!.utf8) == Array(decomposed.utf8))
        #expect(one.mimeTypes == ["application/pdf"])
        #expect(one.problems.contains { $0.contains("\(composed).desktop:5:") && $0.contains("U+001E") })
        #expect(!index.tweaks(for: "image/png").contains { $0.id.utf8.elementsEqual("\(composed).desktop".utf8) })
        #expect(index.tweaks(for: "text/x-two").map { Array($0.id.utf8) } == [Array("\(decomposed).desktop".utf8)])
        var rebuild = IndexBuilder(locations: tree.locations, reusing: index)
        let same = rebuild.build() == bytes
        #expect(same, "the rebuild differs from a full build")
        #expect(rebuild.reusedEntries == index.appCount)
    }

    @Test func folderPrefixIsComparedExactly() {
        let path = Array("/usr/share/applications/kde4/okular.desktop".utf8)
        path.withUnsafeBytes { p in
            for length in 0...path.count {
                var prefix = Array(path[..<length])
                #expect(prefix.withUnsafeBytes { DesktopAppIndex.isPrefix($0, of: p) })
                guard length > 0 else { continue }
                prefix[length - 1] ^= 1
                #expect(!prefix.withUnsafeBytes { DesktopAppIndex.isPrefix($0, of: p) }, "\(length)")
            }
            #expect(!(path + [0x41]).withUnsafeBytes { DesktopAppIndex.isPrefix($0, of: p) })
        }
    }

    @Test func damagedOrForeignIndexIsRebuilt() throws {
        let tree = try DesktopFixtures.tree()
        guard case .rebuilt(let path) = tree.apps().origin else { Issue.record("not built"); return }
        let good = try Data(contentsOf: URL(fileURLWithPath: path))
        for damage in [Data(), Data("garbage".utf8), good.prefix(good.count / 2), good.prefix(100) + Data(repeating: 0xFF, count: good.count - 100)] {
            try damage.write(to: URL(fileURLWithPath: path))
            let apps = tree.apps()
            #expect(apps.origin == .rebuilt(path))
            #expect(apps.applications(for: "image/png").map(\.app.id) == ["eog.desktop"])
        }
        // Other locations (another current desktop) get another file.
        var other = tree
        other.desktops = ["KDE"]
        #expect(DesktopApps.indexPath(for: other.locations, in: tree.cache) != path)
        // No writable cache: built in memory, same answers.
        let apps = DesktopApps(locations: tree.locations, cacheDirectory: "/proc/no-cache-here", findProgram: DesktopFixtures.Tree.find)
        #expect(apps.origin == .inMemory)
        #expect(apps.applications(for: "image/png").map(\.app.id) == ["eog.desktop"])
    }

    /// An index whose records are damaged (but whose sources still match, so it is used) answers
    /// without crashing: every reference is bounds-checked. 400 damaged copies, each with 1–16
    /// bytes changed among the apps, associations, MIME tables and strings.
    @Test func damagedRecordsNeverCrash() throws {
        let tree = try DesktopFixtures.tree()
        guard case .rebuilt(let path) = tree.apps().origin else { Issue.record("not built"); return }
        let good = try Data(contentsOf: URL(fileURLWithPath: path))
        let index = try #require(DesktopAppIndex(bytes: Array(good)))
        let start = index.header(.appOffset) * 4
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17
            return Int(truncatingIfNeeded: seed & 0x7FFF_FFFF)
        }
        var answered = 0
        for _ in 0..<400 {
            var bytes = good
            for _ in 0...(next() % 16) { bytes[start + next() % (bytes.count - start)] = UInt8(next() & 0xFF) }
            try bytes.write(to: URL(fileURLWithPath: path))
            let apps = tree.apps()
            for mime in ["image/png", "application/pdf", "text/plain", "application/x-nothing"] {
                _ = apps.applications(for: mime)
                _ = apps.gioDefault(for: mime)
                _ = apps.userDefault(for: mime)
            }
            _ = apps.allApps()
            if case .cached = apps.origin { answered += 1 }
        }
        #expect(answered > 100, "most damaged copies are used (their sources still match)")
    }

    /// A link from a subfolder back to its parent is read once, not forever.
    @Test func folderLinkLoopsEnd() throws {
        let tree = try DesktopFixtures.tree()
        try FileManager.default.createSymbolicLink(atPath: tree.usr + "/applications/loop", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: tree.usr + "/applications/kde4/back", withDestinationPath: "../kde4")
        let apps = tree.apps()
        #expect(apps.app("kde4-okular.desktop") != nil)
        #expect(apps.applications(for: "image/png").map(\.app.id) == ["eog.desktop"])
    }

    /// Subfolders give `-` IDs; the more important folder's file wins; names are localized.
    @Test func idsPrecedenceAndNames() throws {
        let tree = try DesktopFixtures.tree()
        let apps = tree.apps()
        #expect(apps.app("kde4-okular.desktop")?.path == tree.usr + "/applications/kde4/okular.desktop")
        #expect(apps.app("eog.desktop")?.folder.origin == "XDG_DATA_HOME")
        #expect(apps.file("eog.desktop")?.path == tree.home + "/applications/eog.desktop")
        let all = apps.allApps().map(\.id)
        // frobnicator.desktop's program (/does-not-exist) is not installed: GIO leaves it out, so do we.
        #expect(all.contains("kde4-okular.desktop") && !all.contains("frobnicator.desktop"))
        #expect(apps.whyNotAvailable("frobnicator.desktop").hasSuffix("its program /does-not-exist is not installed"))
        #expect(all == all.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        let german = DesktopApps(locations: DesktopLocations(configHome: tree.config, configDirs: [], dataHome: tree.home, dataDirs: [tree.usr],
                                                             locales: LocaleNames.variants(of: "de_DE.UTF-8")),
                                 cacheDirectory: tree.cache, findProgram: DesktopFixtures.Tree.find)
        #expect(german.app("org.gnome.Calculator.desktop")?.name == "Taschenrechner")
        #expect(apps.app("org.gnome.Calculator.desktop")?.name == "Calculator")
    }
}
