import AppRegistry
import Foundation
import PropertyLists
import TestHelpers
import Testing
@testable import UniformTypes

/// A device root's registry: built from the catalog and registered apps, rebuilt when a source
/// changes, safe under concurrent rebuilds; and `uti` on top of it.
@Suite struct RegistryStoreTests {
    let catalog = TestSupport.packageRoot.appendingPathComponent("UTIs").path

    /// Runs `uti` on a device root, without the machine's shared MIME database (XDG data folders
    /// that hold none) unless `mime` names a data folder, so the answers do not depend on the machine.
    func uti(_ root: URL, _ arguments: [String], mime: URL? = nil) throws -> TestSupport.Run {
        let data = mime?.path ?? root.appendingPathComponent("no-xdg-data").path
        return try TestSupport.run("/usr/bin/env", ["XDG_DATA_HOME=\(data)", "XDG_DATA_DIRS=\(data)", TestSupport.uti, "--root", root.path] + arguments)
    }

    func writeApp(_ dir: URL, id: String, types: [(String, [String], [String])]) throws {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let declarations = types.map { t -> PropertyList in
            .dictionary(["UTTypeIdentifier": .string(t.0), "UTTypeConformsTo": .array(t.1.map(PropertyList.string)),
                         "UTTypeTagSpecification": .dictionary(["public.filename-extension": .array(t.2.map(PropertyList.string))])])
        }
        let plist: PropertyList = .dictionary(["CFBundleIdentifier": .string(id), "UTExportedTypeDeclarations": .array(declarations)])
        try Data(XMLPropertyListWriter().write(plist)).write(to: dir.appendingPathComponent("Info.plist"))
    }

    @Test func conformsAnswersByExitStatus() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let yes = try uti(root, ["conforms", "public.png", "public.data"])
        #expect(yes.status == 0 && yes.out == "true\n")
        let no = try uti(root, ["conforms", "public.zip-archive", "public.content"])
        #expect(no.status == 1 && no.out == "false\n")
        #expect(try uti(root, ["conforms", "-q", "public.PNG", "public.item"]).out.isEmpty)
        let bad = try uti(root, ["conforms", "bad_type", "public.data"])
        #expect(bad.status == 2 && bad.stderr.contains("'_' at offset 3"))
        #expect(try uti(root, ["conforms", "com.example.unknown", "public.data"]).status == 2)
    }

    @Test func infoUsesApplesNamesInJSON() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let run = try uti(root, ["info", "--extension", "JPG", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        #expect(object["identifier"] as? String == "public.jpeg")
        #expect(object["preferredFilenameExtension"] as? String == "jpeg")
        #expect(object["preferredMIMEType"] as? String == "image/jpeg")
        #expect((object["tags"] as? [String: [String]])?["public.filename-extension"] == ["jpeg", "jpg", "jpe"])
        #expect(object["isDeclared"] as? Bool == true && object["isPublic"] as? Bool == true)
        #expect(Set(object["supertypes"] as? [String] ?? []) == ["public.image", "public.data", "public.item", "public.content"])
        let tree = try JSONSerialization.jsonObject(with: try uti(root, ["tree", "public.svg-image", "--json"]).stdout) as? [String: Any]
        #expect((tree?["conformsTo"] as? [[String: Any]])?.compactMap { $0["identifier"] as? String } == ["public.image", "public.xml"])
        let dump = try JSONSerialization.jsonObject(with: try uti(root, ["dump", "--json"]).stdout) as? [String: Any]
        #expect(((dump?["types"] as? [[String: Any]])?.count ?? 0) > 40)
        let lines = try uti(root, ["for-extension", "md", "jpg", "srt"]).out
        #expect(lines == "dyn.ah62d4rv4ge8043a\npublic.jpeg\ndyn.ah62d4rv4ge81g6xy\n")
    }

    /// The shared MIME database of the XDG data folders becomes types, and a package added to it
    /// is seen by the next query; `for-file --mime --by` judges as GIO does.
    @Test func theSharedMIMEDatabaseIsImportedAndWatched() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let system = root.appendingPathComponent("system"), home = root.appendingPathComponent("home")
        func run(_ arguments: [String]) throws -> TestSupport.Run {
            try TestSupport.run("/usr/bin/env", ["XDG_DATA_HOME=\(home.path)", "XDG_DATA_DIRS=\(system.path)", TestSupport.uti, "--root", root.path] + arguments)
        }
        // Kotlin: macOS 26 answers a dynamic type (Tests/UniformTypesTests/Fixtures/macos26-answers.tsv).
        #expect(try run(["for-extension", "kt"]).out.hasPrefix("dyn."))
        let packages = system.appendingPathComponent("mime/packages")
        try FileManager.default.createDirectory(at: packages, withIntermediateDirectories: true)
        let corpus = TestSupport.shared.appendingPathComponent("corpus/shared-mime-info")
        try FileManager.default.copyItem(at: corpus.appendingPathComponent("freedesktop.org.xml"), to: packages.appendingPathComponent("freedesktop.org.xml"))
        // toml is Apple's public.toml (macOS 26), which takes the database's MIME type; kt is the database's own.
        #expect(try run(["for-extension", "kt", "toml", "ogg", "png"]).out == "org.freedesktop.mime.text.x-kotlin\npublic.toml\norg.freedesktop.mime.audio.ogg\npublic.png\n")
        #expect(try run(["for-mime", "application/toml"]).out == "public.toml\n")
        let info = try run(["info", "org.freedesktop.mime.text.x-kotlin"]).out
        #expect(info.contains("kind: declared, system by shared-mime-info \(packages.path)/freedesktop.org.xml:"))
        #expect(info.contains("conforms to: public.plain-text") && info.contains("public.mime-type: text/x-kotlin"))

        let files = corpus.appendingPathComponent("mime-detection")
        let paths = ["test.toml", "debian-goodies_0.63_all.deb", "test.ogg", "sample2.amr"].map { files.appendingPathComponent($0).path }
        // Expected answers from the suite's list (test.toml by content alone is text, as for GIO).
        #expect(try run(["for-file", "--mime", "--by", "name"] + paths).out == "application/toml\napplication/vnd.debian.binary-package\naudio/ogg\naudio/AMR\n")
        #expect(try run(["for-file", "--mime", "--by", "content"] + paths).out == "text/plain\napplication/vnd.debian.binary-package\naudio/x-vorbis+ogg\naudio/AMR\n")
        #expect(try run(["for-file", "--mime"] + paths).out == "application/toml\napplication/vnd.debian.binary-package\naudio/x-vorbis+ogg\naudio/AMR\n")
        #expect(try run(["for-file", "--by", "both", paths[2]]).out == "org.freedesktop.mime.audio.x-vorbis-plus-ogg\n")
        #expect(try run(["for-file", "--by", "neither", paths[2]]).status == 2)
        let json = try JSONSerialization.jsonObject(with: try run(["for-file", "--json", paths[1]]).stdout) as? [[String: Any]]
        #expect(json?.first?["mimeType"] as? String == "application/vnd.debian.binary-package")

        // The user's folder ($XDG_DATA_HOME/mime) counts too, and a broken package is reported, not fatal.
        let user = home.appendingPathComponent("mime/packages")
        try FileManager.default.createDirectory(at: user, withIntermediateDirectories: true)
        try Data(#"<mime-info><mime-type type="application/x-example"><glob pattern="*.exmp"/></mime-type></mime-info>"#.utf8)
            .write(to: user.appendingPathComponent("example.xml"))
        #expect(try run(["for-extension", "exmp"]).out == "org.freedesktop.mime.application.x-example\n")
        try Data("<mime-info><mime-type".utf8).write(to: user.appendingPathComponent("broken.xml"))
        let rebuild = try run(["rebuild"])
        #expect(rebuild.status == 0 && rebuild.stderr.contains("\(user.path)/broken.xml:1:"))
    }

    @Test func theWholeCorpusRegistersAndEveryQueryEnds() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let register = try uti(root, ["register"] + TestSupport.corpusFiles().map(\.path))
        #expect(register.status == 0, "\(register.stderr)")
        let device = DeviceRoot(path: root.path)
        let registry = try RegistryStore.open(root: device, catalog: catalog)
        #expect(RegisteredApp.all(on: device).count == 31)
        // Conflicts resolved as documented: system over apps; between two exporters, the source
        // that sorts first (MacDown's file name sorts before MacVim's).
        let markdown = try #require(UTType("net.daringfireball.markdown", in: registry))
        #expect(markdown.declaringSource == "MacDownApp__macdown__MacDown__MacDown-Info.plist")
        #expect(UTType("public.plain-text", in: registry)?.declaringSource == "public.plist")
        #expect(registry.diagnostics.contains(.undeclaredParent(identifier: "org.bittorrent.torrent", parent: "com.bittorrent.torrent", source: "org.m0k.transmission")))
        // MacVim's own public.plain-text (which conforms to itself) loses to the catalog's.
        #expect(registry.diagnostics.contains(.overridden(identifier: "public.plain-text", loser: "macvim-dev__macvim__src__MacVim__Info.plist",
                                                           loserKind: .exported, winner: "public.plist", winnerKind: .system)))
        // NSUserActivityTypes as recorded: Brave kept Firefox's browsing activity, so both can
        // continue it; Kiwix alone its article; Firefox's intents are looked up the same way.
        let browsing = AppBundle.continuing("org.mozilla.ios.firefox.browsing", in: registry).map(\.infoPlistPath)
        #expect(browsing.count == 2 && browsing.contains { $0.contains("brave") } && browsing.contains { $0.contains("firefox") }, "\(browsing)")
        #expect(AppBundle.continuing("org.kiwix.kiwix.article-view", in: registry).map(\.infoPlistPath).allSatisfy { $0.contains("kiwix") })
        #expect(AppBundle.continuing("org.kiwix.kiwix.article-view", in: registry).count == 1)
        #expect(AppBundle.continuing("QuickActionIntent", in: registry).count == 1)
        #expect(AppBundle.continuing("org.mozilla.ios.Firefox.browsing", in: registry).isEmpty)  // compared exactly
        // Every query on every type terminates.
        for a in registry.allNumbers {
            let t = UTType(registry.identifier(of: a), in: registry)!
            _ = t.supertypes
            _ = t.localizedDescription
            for b in registry.allNumbers { _ = registry.conforms(a, to: b) }
        }
        #expect(UTType(filenameExtension: "torrent", in: registry)?.identifier == "org.bittorrent.torrent")
    }

    @Test func editingAddingAndRemovingSourcesRebuildsAutomatically() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let bundle = root.appendingPathComponent("bundles/Person.app")
        try writeApp(bundle, id: "com.example.person-editor", types: [("com.example.person", ["public.data"], ["person"])])
        #expect(try uti(root, ["register", bundle.path]).status == 0)
        #expect(try uti(root, ["for-extension", "person"]).out == "com.example.person\n")
        // An edited Info.plist is picked up when the app is registered again (as with lsregister).
        try writeApp(bundle, id: "com.example.person-editor", types: [("com.example.person", ["public.data"], ["person", "contact"])])
        #expect(try uti(root, ["register", "-q", bundle.path]).status == 0)
        #expect(try uti(root, ["for-extension", "contact"]).out == "com.example.person\n")
        // Registering another app changes Apps/: the next query rebuilds by itself.
        let other = root.appendingPathComponent("bundles/Notes.app")
        try writeApp(other, id: "com.example.notes", types: [("com.example.note", ["public.plain-text"], ["notebook-entry"])])
        let link = root.appendingPathComponent("Apps/com.example.notes")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: other)
        #expect(try uti(root, ["for-extension", "notebook-entry"]).out == "com.example.note\n")
        // So does a catalog change (a device root's own UTIs/ folder replaces the built-in one).
        let catalog = root.appendingPathComponent("UTIs")
        try FileManager.default.createDirectory(at: catalog, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestSupport.packageRoot.appendingPathComponent("UTIs/public.plist"), to: catalog.appendingPathComponent("public.plist"))
        #expect(try uti(root, ["for-extension", "pdf"]).out.hasPrefix("dyn."))
        // A catalog file added, and one replaced by a rename (as editors and package managers save).
        try FileManager.default.copyItem(at: TestSupport.packageRoot.appendingPathComponent("UTIs/com.adobe.plist"), to: catalog.appendingPathComponent("com.adobe.plist"))
        #expect(try uti(root, ["for-extension", "pdf"]).out == "com.adobe.pdf\n")
        let replacement = catalog.appendingPathComponent(".com.adobe.plist.new")
        try String(contentsOf: catalog.appendingPathComponent("com.adobe.plist"), encoding: .utf8)
            .replacingOccurrences(of: "<string>pdf</string>", with: "<string>pdfx</string>").write(to: replacement, atomically: false, encoding: .utf8)
        #expect(rename(replacement.path, catalog.appendingPathComponent("com.adobe.plist").path) == 0)
        #expect(try uti(root, ["for-extension", "pdfx"]).out == "com.adobe.pdf\n")
        // A damaged registry file is rebuilt, not trusted.
        let file = root.appendingPathComponent("registry.bin")
        let bytes = try Data(contentsOf: file)
        try bytes.prefix(bytes.count / 2).write(to: file)
        #expect(try uti(root, ["conforms", "com.example.person", "public.item"]).status == 0)
        #expect(try TypeRegistry(mapping: file.path).typeCount > 0)
        // Unregistering removes the types.
        #expect(try uti(root, ["unregister", "com.example.person-editor"]).status == 0)
        #expect(try uti(root, ["for-extension", "person"]).out.hasPrefix("dyn."))
    }

    /// A relative `--root` is relative to the working directory (it once created `/NAME`); a
    /// query on an existing root keeps its registry there.
    @Test func aRelativeRootIsTakenWhereTheCommandRuns() throws {
        let dir = try TestSupport.temporaryDirectory()
        let name = "relative-root-\(getpid())"
        try FileManager.default.createDirectory(at: dir.appendingPathComponent(name + "/device"), withIntermediateDirectories: true)
        let run = try TestSupport.run("/bin/sh", ["-c", "cd '\(dir.path)' && '\(TestSupport.uti)' --root \(name)/device conforms public.png public.data"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent(name + "/device/registry.bin").path))
        #expect(!FileManager.default.fileExists(atPath: "/" + name))
    }

    @Test func aDeviceRootWhoseRegistryCannotBeWrittenIsStillAnswered() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.copyItem(at: TestSupport.packageRoot.appendingPathComponent("Samples/Apps"), to: root.appendingPathComponent("Apps"))
        // A non-empty folder where registry.bin belongs: the rename fails even for root, as a
        // read-only location would for a user.
        let blocker = root.appendingPathComponent("registry.bin/keep")
        try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: true)
        let run = try uti(root, ["for-extension", "person"])
        #expect(run.status == 0 && run.out == "com.example.person\n", "\(run.stderr)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
        // An explicit rebuild does report the failure.
        let rebuild = try uti(root, ["rebuild"])
        #expect(rebuild.status == 2 && rebuild.stderr.contains("cannot write the registry"))
    }

    @Test func concurrentRebuildsLeaveAValidRegistry() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try uti(root, ["register"] + TestSupport.corpusFiles().prefix(10).map(\.path))
        for _ in 0..<10 {
            let processes = (0..<4).map { _ -> Process in
                let p = Process()
                p.executableURL = URL(fileURLWithPath: TestSupport.uti)
                p.arguments = ["--root", root.path, "-q", "rebuild"]
                p.standardOutput = FileHandle.nullDevice
                p.standardError = FileHandle.nullDevice
                try? p.run()
                return p
            }
            // Readers during the rebuilds always map a complete file.
            for _ in 0..<20 {
                if let registry = try? TypeRegistry(mapping: root.appendingPathComponent("registry.bin").path) {
                    #expect(registry.number(of: "public.data") != nil)
                }
            }
            for p in processes { p.waitUntilExit(); #expect(p.terminationStatus == 0) }
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
        #expect(try TypeRegistry(mapping: root.appendingPathComponent("registry.bin").path).typeCount > 50)
    }
}

/// Descriptions translated by a bundle's InfoPlist.strings, chosen by the user's language.
@Suite struct LocalizationTests {
    @Test func descriptionsFollowTheLanguage() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.copyItem(at: TestSupport.packageRoot.appendingPathComponent("Samples/Apps"), to: root.appendingPathComponent("Apps"))
        let registry = try RegistryStore.open(root: DeviceRoot(path: root.path), catalog: TestSupport.packageRoot.appendingPathComponent("UTIs").path)
        let person = try #require(UTType("com.example.person", in: registry))
        #expect(person.localizedDescription(languages: []) == "Person")
        #expect(person.localizedDescription(languages: ["fr_FR", "fr"]) == "Fiche personne")
        #expect(person.localizedDescription(languages: ["de"]) == "Person")
        #expect(person.declaration?.localizedDescriptions == ["fr": "Fiche personne"])
        // Through the tool, with LANG as a user sets it.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestSupport.uti)
        process.arguments = ["--root", root.path, "info", "com.example.person", "--json"]
        process.environment = ["LANG": "fr_FR.UTF-8", "PATH": "/usr/bin:/bin"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        #expect(object?["localizedDescription"] as? String == "Fiche personne")
    }
}

/// `uti graph` and `uti completions`.
@Suite struct GraphAndCompletionTests {
    @Test func graphIsDotWithEveryEdge() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let run = try TestSupport.run(TestSupport.uti, ["--root", root.path, "graph", "public.svg-image"])
        #expect(run.status == 0)
        #expect(run.out.hasPrefix("digraph conformance {"))
        for edge in [#""public.svg-image" -> "public.image""#, #""public.svg-image" -> "public.xml""#, #""public.xml" -> "public.text""#] {
            #expect(run.out.contains(edge))
        }
        #expect(!run.out.contains("public.png"))
        let svg = try TestSupport.run(TestSupport.uti, ["--root", root.path, "graph", "public.png", "--format", "svg"])
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/dot") {
            #expect(svg.status == 0 && svg.out.contains("<svg"))
        } else {
            #expect(svg.status == 2 && svg.stderr.contains("Graphviz"))
        }
    }

    @Test func completionScriptsForEachShell() throws {
        for shell in ["bash", "zsh", "fish"] {
            let run = try TestSupport.run(TestSupport.uti, ["completions", shell])
            #expect(run.status == 0 && run.out.contains("conforms"), "\(shell)")
        }
        let bash = try TestSupport.run(TestSupport.uti, ["completions", "bash"]).out
        let check = try TestSupport.run("/bin/bash", ["-n", "-c", bash])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(try TestSupport.run(TestSupport.uti, ["completions", "tcsh"]).status == 2)
    }
}
