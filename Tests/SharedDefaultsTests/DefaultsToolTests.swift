import Foundation
import PropertyLists
import SharedDefaults
import Testing
import TestHelpers

/// `defaults` against a device root: Apple's syntax and output.
@Suite struct DefaultsToolTests {
    static let group = "group.com.example.notes"

    /// A device root with the apps whose domains the tests write: the Notes sample app
    /// (com.example.notes) and the Group Notes sample, which is in group.com.example.notes. A
    /// write to a domain no registered app owns is refused (`--new-domain` makes one).
    func root() throws -> String {
        let root = try TestSupport.temporaryDirectory().path
        try FileManager.default.createDirectory(atPath: root + "/Apps", withIntermediateDirectories: true)
        let samples = TestSupport.packageRoot.appendingPathComponent("Samples").path
        try FileManager.default.createSymbolicLink(atPath: root + "/Apps/com.example.notes", withDestinationPath: samples + "/Apps/Notes.app")
        try FileManager.default.createSymbolicLink(atPath: root + "/Apps/com.example.groupnotes", withDestinationPath: samples + "/AppGroups/Apps/GroupNotes.app")
        return root
    }

    func ok(_ root: String, _ arguments: [String], stdin: Data? = nil) throws -> String {
        let run = try defaultsTool(root, arguments, stdin: stdin)
        #expect(run.status == 0, "defaults \(arguments.joined(separator: " ")): \(run.stderr)")
        return run.out
    }

    /// The words after the key, as Apple's `defaults write` reads them (the grammar is the
    /// tool's own): each written and read back through `export` as an XML property list.
    @Test func writeValueWordsAsAppleReadsThem() throws {
        let r = try root()
        func written(_ words: [String]) throws -> PropertyList? {
            _ = try ok(r, ["write", Self.group, "k"] + words)
            let exported = try ok(r, ["export", Self.group, "-"])
            return try PropertyListReader.read(Array(exported.utf8)).value["k"]
        }
        #expect(try written(["1"]) == .string("1"))
        #expect(try written(["(a, \"b c\")"]) == .array([.string("a"), .string("b c")]))
        #expect(try written(["-int", "7"]) == .integer(7))
        #expect(try written(["-bool", "NO"]) == .bool(false))
        #expect(try written(["-array", "x", "-int", "2"]) == .array([.string("x"), .integer(2)]))
        #expect(try written(["-dict", "k2", "-float", "1.5"]) == .dictionary(["k2": .real(1.5)]))
        #expect(try written(["-dict-add", "k3", "x"]) == .dictionary(["k2": .real(1.5), "k3": .string("x")]))
        #expect(try written(["-data", "00ff"]) == .data([0, 255]))
        #expect(try written(["-date", "2026-11-24 03:00:00 +0000"]) == written(["-date", "2026-11-24T03:00:00Z"]))
        #expect(try written(["-string", "kept"]) == .string("kept"))
        for bad in [["-int", "x"], ["-bool", "maybe"], ["-dict", "k"], ["-data", "abc"], ["a", "b"], ["-string"]] {
            let run = try defaultsTool(r, ["write", Self.group, "k"] + bad)
            #expect(run.status == 2 && run.stderr.hasPrefix("defaults: "), "\(bad): \(run.stderr)")
        }
        // The refused writes changed nothing.
        let exported = try ok(r, ["export", Self.group, "-"])
        #expect(try PropertyListReader.read(Array(exported.utf8)).value["k"] == .string("kept"))
    }

    /// `SharedDefaults(suiteName:)` in a process the launcher started (its environment names the
    /// app and the root, nothing else is set up): the group's suite is shared with the `defaults`
    /// tool, and a group the app is not in gives nil, as Foundation's initializer does.
    @Test func suiteNameFindsTheLaunchedAppAndItsGroup() throws {
        let r = try root()
        _ = try ok(r, ["write", "com.example.notes", "warm", "-string", "up"])   // builds the registry
        let launched = ["DI_BUNDLE_IDENTIFIER": "com.example.groupnotes", "DOCUMENT_INTERCHANGE_ROOT": r]
        let set = try TestSupport.run(Probe.path, ["suite-name", Self.group, "Note", "Buy milk"], environment: launched)
        #expect(set.out == "set\n", "\(set.out)\(set.stderr)")
        #expect(try ok(r, ["read", Self.group, "Note"]) == "Buy milk\n")
        let outsider = try TestSupport.run(Probe.path, ["suite-name", Self.group, "Note", "x"],
                                           environment: ["DI_BUNDLE_IDENTIFIER": "com.example.notes", "DOCUMENT_INTERCHANGE_ROOT": r])
        #expect(outsider.out == "nil\n", "\(outsider.out)\(outsider.stderr)")
        let nobody = try TestSupport.run(Probe.path, ["suite-name", Self.group, "Note", "x"], environment: ["DOCUMENT_INTERCHANGE_ROOT": r, "DI_BUNDLE_IDENTIFIER": ""])
        #expect(nobody.out == "nil\n")
        #expect(try ok(r, ["read", Self.group, "Note"]) == "Buy milk\n")
    }

    @Test func readPrintsTheOldStyleDescription() throws {
        let r = try root()
        _ = try ok(r, ["write", Self.group, "Note", "-string", "Buy milk"])
        _ = try ok(r, ["write", Self.group, "Count", "-int", "3"])
        _ = try ok(r, ["write", Self.group, "Done", "-bool", "yes"])
        _ = try ok(r, ["write", Self.group, "Ratio", "-float", "0.25"])
        _ = try ok(r, ["write", Self.group, "Tags", "-array", "work", "home office"])
        _ = try ok(r, ["write", Self.group, "Tags", "-array-add", "-int", "7"])
        _ = try ok(r, ["write", Self.group, "Map", "-dict", "a", "1", "é", "x"])
        _ = try ok(r, ["write", Self.group, "When", "-date", "2026-11-24T03:00:00Z"])
        _ = try ok(r, ["write", Self.group, "Blob", "-data", "0a0b0c"])
        let expected = """
        {
            Blob = {length = 3, bytes = 0x0a0b0c};
            Count = 3;
            Done = 1;
            Map =     {
                a = 1;
                "\\U00e9" = x;
            };
            Note = "Buy milk";
            Ratio = 0.25;
            Tags =     (
                work,
                "home office",
                7
            );
            When = "2026-11-24 03:00:00 +0000";
        }

        """
        #expect(try ok(r, ["read", Self.group]) == expected)
        #expect(try ok(r, ["read", Self.group, "Note"]) == "Buy milk\n")
        #expect(try ok(r, ["read", Self.group, "When"]) == "2026-11-24 03:00:00 +0000\n")
        #expect(try ok(r, ["read", Self.group, "Tags"]) == "(\n    work,\n    \"home office\",\n    7\n)\n")
        for (key, type) in [("Note", "string"), ("Count", "integer"), ("Done", "boolean"), ("Ratio", "float"), ("Tags", "array"),
                            ("Map", "dictionary"), ("When", "date"), ("Blob", "data")] {
            #expect(try ok(r, ["read-type", Self.group, key]) == "Type is \(type)\n")
        }
    }

    @Test func untypedValuesAreOldStylePlistsAndBareWordsStrings() throws {
        let r = try root()
        _ = try ok(r, ["write", "com.example.notes", "One", "1"])
        _ = try ok(r, ["write", "com.example.notes", "List", "(a, { b = c; })"])
        #expect(try ok(r, ["read-type", "com.example.notes", "One"]) == "Type is string\n")
        #expect(try ok(r, ["read", "com.example.notes", "List"]) == "(\n    a,\n        {\n        b = c;\n    }\n)\n")
        // The whole domain replaced by a plist.
        _ = try ok(r, ["write", "com.example.notes", "{ Only = here; }"])
        #expect(try ok(r, ["read", "com.example.notes"]) == "{\n    Only = here;\n}\n")
        #expect(FileManager.default.fileExists(atPath: r + "/Containers/com.example.notes/Library/Preferences/com.example.notes.plist"))
    }

    @Test func missingDomainsAndKeysAreErrorsThatCreateNothing() throws {
        let r = try root()
        let domain = try defaultsTool(r, ["read", "com.example.absent"])
        #expect(domain.status == 1 && domain.stderr.contains("Domain com.example.absent does not exist"))
        let key = try defaultsTool(r, ["read", Self.group, "Nope"])
        #expect(key.status == 1 && key.stderr.contains("The domain/default pair of (\(Self.group), Nope) does not exist"))
        #expect(!FileManager.default.fileExists(atPath: r + "/Groups") && !FileManager.default.fileExists(atPath: r + "/Containers"))
        let gone = try defaultsTool(r + "/absent", ["read", Self.group])
        #expect(gone.status == 2 && gone.stderr.contains("no device root"))
        _ = try ok(r, ["write", Self.group, "Tags", "-array", "a"])
        let wrongType = try defaultsTool(r, ["write", Self.group, "Tags", "-dict-add", "k", "v"])
        #expect(wrongType.status == 1 && wrongType.stderr.contains("not a dictionary"))
        let badValue = try defaultsTool(r, ["write", Self.group, "N", "-int", "many"])
        #expect(badValue.status == 2 && badValue.stderr.contains("-int many: not an integer"))
    }

    @Test func deleteRenameDomainsFindExportImport() throws {
        let r = try root()
        _ = try ok(r, ["write", Self.group, "Note", "Milk"])
        _ = try ok(r, ["write", Self.group, "Other", "-int", "2"])
        _ = try ok(r, ["write", "com.example.notes", "Theme", "dark"])
        #expect(try ok(r, ["domains"]) == "com.example.notes, \(Self.group)\n")
        #expect(try ok(r, ["find", "milk"]) == "Found 1 keys in domain '\(Self.group)': {\n    Note = Milk;\n}\n")
        #expect(try ok(r, ["find", "nothing-like-this"]) == "Couldn't find 'nothing-like-this' anywhere\n")
        _ = try ok(r, ["rename", Self.group, "Note", "Memo"])
        #expect(try ok(r, ["read", Self.group, "Memo"]) == "Milk\n")
        let renameMissing = try defaultsTool(r, ["rename", Self.group, "Note", "X"])
        #expect(renameMissing.status == 1)
        _ = try ok(r, ["delete", Self.group, "Memo"])
        #expect(try defaultsTool(r, ["read", Self.group, "Memo"]).status == 1)
        let exported = try ok(r, ["export", Self.group, "-"])
        #expect(try PropertyListReader.read(Array(exported.utf8)).value == .dictionary(["Other": .integer(2)]))
        #expect(exported.hasPrefix("<?xml"))
        _ = try ok(r, ["import", "com.example.notes", "-"], stdin: Data(exported.utf8))
        #expect(try ok(r, ["read", "com.example.notes"]) == "{\n    Other = 2;\n}\n")
        _ = try ok(r, ["delete", "com.example.notes"])
        #expect(try ok(r, ["domains"]) == "\(Self.group)\n")
        let twice = try defaultsTool(r, ["delete", "com.example.notes"])
        #expect(twice.status == 1 && twice.stderr.contains("Domain (com.example.notes) not found."))
    }

    @Test func aRunningMemberSeesTheToolsWriteAtOnce() throws {
        let r = try root()
        _ = try ok(r, ["write", Self.group, "Seed", "-int", "1"])
        let location = try DefaultsDomain.location(of: Self.group, on: .init(path: r))
        let app = SharedDefaults(location: location)
        #expect(app.integer(forKey: "Seed") == 1)
        _ = try ok(r, ["write", Self.group, "Seed", "-int", "2"])
        #expect(app.integer(forKey: "Seed") == 2)
        app.set(3, forKey: "Seed")
        #expect(try ok(r, ["read", Self.group, "Seed"]) == "3\n")
        let mode = try FileManager.default.attributesOfItem(atPath: r + "/Groups/" + Self.group)[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }

    @Test func sampleAppAndWidgetShareANote() throws {
        let r = try TestSupport.temporaryDirectory().path
        try FileManager.default.copyItem(atPath: TestSupport.packageRoot.appendingPathComponent("Samples/AppGroups/Apps").path, toPath: r + "/Apps")
        let sample = TestSupport.productsDirectory.appendingPathComponent("group-notes").path
        let app = r + "/Apps/GroupNotes.app", widget = app + "/PlugIns/NoteWidget.appex"
        // The widget says it is watching once its observation is in place; the note is written
        // after that (a fixed wait could write before it, and the watcher would wait forever).
        let watcher = try ProbeProcess(sample, [r, widget, "watch", "1"])
        defer { watcher.stop() }
        #expect(watcher.waitForLine(startingWith: "com.example.groupnotes.widget is watching") != nil, "\(watcher.output)")
        let saved = try TestSupport.run(sample, [r, app, "write", "Buy milk"])
        #expect(saved.status == 0, "\(saved.out)")
        #expect(watcher.waitForExit() == 0, "the widget saw the change: \(watcher.output)")
        #expect(eventually { watcher.output.contains { $0.contains("com.example.groupnotes.widget sees: Buy milk — Buy milk") } }, "\(watcher.output)")
        let shown = try TestSupport.run(sample, [r, widget, "show"])
        #expect(shown.out == "com.example.groupnotes.widget sees: Buy milk — Buy milk [edits: 1]\n")
        let intruder = try TestSupport.run(sample, [r, TestSupport.packageRoot.appendingPathComponent("Samples/Apps/Mail.app").path, "show"])
        #expect(intruder.status == 1 && intruder.out.contains("com.example.mail is not a member of group.com.example.notes"))
    }
}
