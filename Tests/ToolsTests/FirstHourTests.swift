import Foundation
import TestHelpers
import Testing

/// What a new user meets in the first hour: a typo creates nothing, a query writes nothing, a
/// default is checked before it is kept, paths handed to apps are absolute, and read-only
/// commands leave the manifest as it was.
@Suite struct FirstHourTests {
    /// Runs `arguments` with `folder` as the working folder.
    static func run(in folder: URL, _ arguments: [String], environment: [String: String] = [:]) throws -> TestSupport.Run {
        try TestSupport.run("/bin/sh", ["-c", "cd \"$1\" && shift && exec \"$@\"", "sh", folder.path] + arguments, environment: environment)
    }

    /// Everything below `folder`, as relative paths.
    static func tree(_ folder: URL) -> Set<String> {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        var paths = Set<String>()
        while let next = enumerator?.nextObject() as? String { paths.insert(next) }
        return paths
    }

    @Test func aMistypedRootAppOrTypeIsNamedAndCreatesNothing() throws {
        let root = try TestSupport.sampleDevice()
        let parent = root.deletingLastPathComponent()
        let before = Self.tree(parent)
        let doc = root.appendingPathComponent("Documents/photo.png").path
        let openin = try Self.run(in: parent, [TestSupport.openin, "--root", "Sampels", "--list", doc])
        #expect(openin.status == 2 && openin.stderr.contains("no device root at \(parent.path)/Sampels"), "\(openin.stderr)")
        let uti = try Self.run(in: parent, [TestSupport.uti, "--root", "Sampels", "info", "public.png"])
        #expect(uti.status == 2 && uti.stderr.contains("Sampels"), "\(uti.stderr)")
        let inboxd = try TestSupport.run(TestSupport.inboxd, ["once", "--root", root.path, "--app", "com.nobody"])
        #expect(inboxd.status == 2 && inboxd.stderr.contains("no app com.nobody"), "\(inboxd.stderr)")
        let status = try TestSupport.run(TestSupport.inboxd, ["status", "--root", parent.appendingPathComponent("Sampels").path])
        #expect(status.status == 2 && status.stderr.contains("Sampels"), "\(status.stderr)")
        let type = try TestSupport.run(TestSupport.openin, ["--root", root.path, "default", "set", "public.nonsense", "com.example.photos"])
        #expect(type.status == 2 && type.stderr.contains("unknown type public.nonsense"), "\(type.stderr)")
        // The typos left no folder, container, registry or defaults file behind (the first
        // listing of the device builds its registry, so compare after a good query).
        _ = try TestSupport.run(TestSupport.openin, ["--root", root.path, "--list", doc])
        let after = Self.tree(parent).filter { !$0.hasSuffix("registry.bin") }
        #expect(after == before.filter { !$0.hasSuffix("registry.bin") }, "\(after.symmetricDifference(before))")
    }

    @Test func queriesOnTheUsersOwnRootWriteNothingButTheCache() throws {
        let home = try TestSupport.temporaryDirectory()
        let env = ["HOME": home.path, "XDG_DATA_HOME": "", "XDG_CACHE_HOME": "", "XDG_CONFIG_HOME": "", "DOCUMENT_INTERCHANGE_ROOT": ""]
        let doc = TestSupport.packageRoot.appendingPathComponent("Samples/Documents/photo.png").path
        #expect(try TestSupport.run(TestSupport.uti, ["conforms", "public.png", "public.data"], environment: env).status == 0)
        // 0 when an installed desktop app opens PNG images, 1 when none does: never an error.
        let list = try TestSupport.run(TestSupport.openin, ["--list", doc], environment: env)
        #expect(list.status != 2 && list.stderr.isEmpty, "\(list.stderr)")
        _ = try TestSupport.run(TestSupport.inboxd, ["status"], environment: env)
        let written = Self.tree(home).filter { !$0.hasPrefix(".cache") }
        #expect(written.isEmpty, "\(written)")
    }

    @Test func aDefaultIsCheckedSuggestedAndListed() throws {
        let root = try TestSupport.sampleDevice()
        func openin(_ words: String...) throws -> TestSupport.Run { try TestSupport.run(TestSupport.openin, ["--root", root.path] + words) }
        let byExtension = try openin("default", "set", "png", "com.example.photos")
        #expect(byExtension.status == 2 && byExtension.stderr.contains("did you mean public.png?"), "\(byExtension.stderr)")
        let cannot = try openin("default", "set", "com.example.person", "com.example.photos")
        #expect(cannot.status == 2 && cannot.stderr.contains("cannot open com.example.person"), "\(cannot.stderr)")
        let nobody = try openin("default", "set", "public.png", "com.nobody")
        #expect(nobody.status == 2 && nobody.stderr.contains("no registered app com.nobody"), "\(nobody.stderr)")
        #expect(try openin("default", "list").out.isEmpty)
        #expect(try openin("default", "set", "public.image", "com.example.photos").status == 0)
        #expect(try openin("default", "list").out == "public.image\tcom.example.photos\n")
    }

    /// With a relative `--root`, the app still gets an absolute path and a `file:///` URL, in its
    /// arguments, its environment and its open request.
    @Test func pathsHandedToAnAppAreAbsolute() throws {
        let root = try TestSupport.sampleDevice()
        let log = root.appendingPathComponent("launch.txt").path
        let bundle = root.appendingPathComponent("Apps/Echo.app")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>CFBundleIdentifier</key><string>com.example.echo</string>
        <key>CFBundleName</key><string>Echo</string>
        <key>CFBundleDocumentTypes</key><array><dict>
          <key>CFBundleTypeName</key><string>Text</string>
          <key>CFBundleTypeRole</key><string>Viewer</string>
          <key>LSItemContentTypes</key><array><string>public.plain-text</string></array>
        </dict></array>
        <key>DILaunchCommand</key><array>
          <string>/bin/sh</string><string>-c</string>
          <string>echo "$1|$DI_DOCUMENT_URL|$DI_OPEN_REQUEST" > \(log)</string>
          <string>sh</string><string>%u</string>
        </array>
        </dict></plist>
        """.write(to: bundle.appendingPathComponent("Info.plist"), atomically: true, encoding: .utf8)
        let parent = root.deletingLastPathComponent()
        let run = try Self.run(in: parent, [TestSupport.openin, "--root", "device", "--to", "com.example.echo", "device/Documents/notes.txt"])
        #expect(run.status == 0, "\(run.stderr)")
        // The shell creates the file before echo writes the line: wait for the whole line.
        #expect(eventually { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").hasSuffix("\n") })
        let fields = try String(contentsOfFile: log, encoding: .utf8).trimmingCharacters(in: .newlines).split(separator: "|").map(String.init)
        let inbox = root.appendingPathComponent("Containers/com.example.echo/Documents/Inbox/notes.txt").path
        #expect(fields.count == 3 && fields[0] == "file://" + inbox && fields[1] == fields[0], "\(fields)")
        #expect(fields.count == 3 && fields[2].hasPrefix(root.path + "/"), "\(fields)")
        if fields.count == 3 {
            let path = try TestSupport.run(TestSupport.plutil, ["-extract", "DocumentPath", "raw", "-o", "-", fields[2]])
            #expect(path.out.trimmingCharacters(in: .newlines) == inbox, "\(path.out)")
        }
    }

    /// `status` and `history` read the manifest without writing it (no journal, no new pages),
    /// and a verb that has no JSON form refuses `--json` instead of ignoring it.
    @Test func readOnlyCommandsLeaveTheManifestAlone() throws {
        let root = try TestSupport.sampleDevice()
        let doc = root.appendingPathComponent("Documents/notes.txt").path
        #expect(try TestSupport.run(TestSupport.openin, ["--root", root.path, "--to", "com.example.notes", "--no-launch", doc]).status == 0)
        #expect(try TestSupport.run(TestSupport.inboxd, ["once", "--root", root.path]).status == 0)
        let library = root.appendingPathComponent("Containers/com.example.notes/Library")
        let manifest = library.appendingPathComponent("Manifest.sqlite").path
        let before = try FileManager.default.attributesOfItem(atPath: manifest)
        let listing = Set(try FileManager.default.contentsOfDirectory(atPath: library.path))
        Thread.sleep(forTimeInterval: 0.02)
        let status = try TestSupport.run(TestSupport.inboxd, ["status", "--root", root.path, "--json"])
        #expect(status.status == 0 && (try? JSONSerialization.jsonObject(with: status.stdout)) != nil, "\(status.out)")
        let history = try TestSupport.run(TestSupport.inboxd, ["history", "--root", root.path, "--json"])
        #expect(history.status == 0 && history.out.contains("notes.txt"), "\(history.out)")
        let after = try FileManager.default.attributesOfItem(atPath: manifest)
        #expect(after[.modificationDate] as? Date == before[.modificationDate] as? Date)
        #expect(after[.size] as? Int == before[.size] as? Int)
        // SQLite's shared-memory index of a WAL database may appear beside it; the log stays empty.
        let added = Set(try FileManager.default.contentsOfDirectory(atPath: library.path)).subtracting(listing)
        #expect(added.isSubset(of: ["Manifest.sqlite-wal", "Manifest.sqlite-shm"]), "\(added)")
        if added.contains("Manifest.sqlite-wal") {
            #expect((try FileManager.default.attributesOfItem(atPath: manifest + "-wal")[.size] as? Int) == 0)
        }
        let refused = try TestSupport.run(TestSupport.uti, ["conforms", "public.png", "public.data", "--json"])
        #expect(refused.status == 2 && refused.stderr.contains("--json does not apply to 'conforms'"), "\(refused.stderr)")
    }
}
