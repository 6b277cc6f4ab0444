import Foundation
import TestHelpers
import Testing

/// A mistake creates nothing: a document is not registered as an app, a mistyped root is not
/// created, a mistyped defaults domain is not written, and the sheet never offers an activity that
/// would then refuse the document (nor does a refused delivery leave empty folders).
@Suite struct NoStateFromMistakesTests {
    static var defaults: String { TestSupport.productsDirectory.appendingPathComponent("defaults").path }

    /// Everything below `folder`, as relative paths.
    static func tree(_ folder: URL) -> Set<String> { FirstHourTests.tree(folder) }

    @Test func onlyAnAppIsRegisteredAndOnlyOnARootThatExistsOrIsAskedFor() throws {
        let root = try TestSupport.sampleDevice()
        let parent = root.deletingLastPathComponent()
        let before = Self.tree(parent)
        // A document (a plist with no CFBundleIdentifier) is not an app.
        let document = try TestSupport.run(TestSupport.uti, ["--root", root.path, "register", root.appendingPathComponent("Documents/file.person").path])
        #expect(document.status == 2 && document.stderr.contains("is not an app's Info.plist: it has no CFBundleIdentifier, nor any other key of an Info.plist"), "\(document.stderr)")
        // A plist whose top level is an array, and one with an identifier that is not one.
        let array = parent.appendingPathComponent("array.plist"), bad = parent.appendingPathComponent("bad.plist")
        try Data("<plist><array/></plist>".utf8).write(to: array)
        try Data("<plist><dict><key>CFBundleIdentifier</key><string>com.example.a b</string></dict></plist>".utf8).write(to: bad)
        let notADictionary = try TestSupport.run(TestSupport.uti, ["--root", root.path, "register", array.path])
        #expect(notADictionary.status == 2 && notADictionary.stderr.contains("its top level is not a dictionary"), "\(notADictionary.stderr)")
        let invalid = try TestSupport.run(TestSupport.uti, ["--root", root.path, "register", bad.path])
        #expect(invalid.status == 2 && invalid.stderr.contains("is not a bundle identifier: it contains ' '"), "\(invalid.stderr)")
        // A mistyped root is named, with the folder it resembles, and not created.
        let typo = parent.appendingPathComponent("devcie").path
        let mistyped = try TestSupport.run(TestSupport.uti, ["--root", typo, "register", root.appendingPathComponent("Apps/Notes.app").path])
        #expect(mistyped.status == 2 && mistyped.stderr.contains("no device root at \(typo) (did you mean \(root.path)?)"), "\(mistyped.stderr)")
        #expect(Self.tree(parent).subtracting(before) == ["array.plist", "bad.plist"])
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("Apps/file.person").path))
        // On purpose, it is.
        let created = try TestSupport.run(TestSupport.uti, ["--root", typo, "register", "--create-root", root.appendingPathComponent("Apps/Notes.app").path])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(FileManager.default.fileExists(atPath: typo + "/Apps/com.example.notes"))
    }

    @Test func lintReportsAPropertyListWithoutABundleIdentifier() throws {
        let plist = try TestSupport.temporaryDirectory().appendingPathComponent("Info.plist")
        try Data("<plist><dict><key>CFBundleName</key><string>Nameless</string></dict></plist>".utf8).write(to: plist)
        let lint = try TestSupport.run(TestSupport.uti, ["lint", plist.path])
        #expect(lint.status != 0 && lint.out.contains("no CFBundleIdentifier"), "\(lint.out)\(lint.stderr)")
    }

    @Test func aMistypedDefaultsDomainIsRefusedWithASuggestion() throws {
        let root = try TestSupport.sampleDevice()
        let groups = root.appendingPathComponent("Apps/GroupNotes.app")
        try FileManager.default.createSymbolicLink(atPath: groups.path, withDestinationPath: TestSupport.packageRoot.appendingPathComponent("Samples/AppGroups/Apps/GroupNotes.app").path)
        let before = Self.tree(root)
        func write(_ words: String...) throws -> TestSupport.Run { try TestSupport.run(Self.defaults, ["--root", root.path, "write"] + words) }
        let app = try write("com.exmaple.notes", "Key", "value")
        #expect(app.status == 1 && app.stderr.contains("(did you mean com.example.notes?)") && app.stderr.contains("--new-domain"), "\(app.stderr)")
        let group = try write("group.com.exmaple.notes", "Key", "value")
        #expect(group.status == 1 && group.stderr.contains("(did you mean group.com.example.notes?)"), "\(group.stderr)")
        let imported = try TestSupport.run(Self.defaults, ["--root", root.path, "import", "com.exmaple.notes", "-"], stdin: Data("{ a = b; }".utf8))
        #expect(imported.status == 1, "\(imported.stderr)")
        #expect(Self.tree(root) == before, "\(Self.tree(root).symmetricDifference(before))")
        #expect(try TestSupport.run(Self.defaults, ["--root", root.path, "domains"]).out == "\n")
        // A registered app, a group one of them is in, and a new domain on purpose are written.
        #expect(try write("com.example.notes", "Key", "value").status == 0)
        #expect(try write("group.com.example.notes", "Key", "value").status == 0)
        #expect(try write("--new-domain", "com.example.later", "Key", "value").status == 0)
        // A domain that holds defaults takes more without the option.
        #expect(try write("com.example.later", "Other", "value").status == 0)
        #expect(try TestSupport.run(Self.defaults, ["--root", root.path, "domains"]).out == "com.example.later, com.example.notes, group.com.example.notes\n")
    }

    @Test func activitiesThatWouldRefuseAFolderOrADeviceAreNotOffered() throws {
        let root = try TestSupport.sampleDevice()
        let folder = root.appendingPathComponent("Documents")
        for path in [folder.path, "/dev/zero"] {
            let json = try TestSupport.run(TestSupport.openin, ["--root", root.path, "--list", "--json", "--all", path], environment: ["DISPLAY": ":0"])
            let sheet = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any], "\(json.stderr)")
            #expect((sheet["activities"] as? [Any])?.isEmpty == true, "\(path): \(json.out)")
            let withheld = (sheet["notEligible"] as? [[String: Any]] ?? []).compactMap { $0["identifier"] as? String }
            #expect(withheld.contains("copy-to-folder") && withheld.contains("com.example.mail.share"), "\(path): \(withheld)")
        }
        let asked = try TestSupport.run(TestSupport.openin, ["--root", root.path, "--activity", "com.example.mail.share", folder.path])
        #expect(asked.status == 1 && asked.stderr.contains("is not offered: \(folder.path) is a folder, not a file"), "\(asked.stderr)")
        let mistyped = try TestSupport.run(TestSupport.openin, ["--root", root.path, "--activity", "copy-to-fodler", folder.path])
        #expect(mistyped.status == 2 && mistyped.stderr.contains("no activity named copy-to-fodler (did you mean copy-to-folder?)"), "\(mistyped.stderr)")
    }
}
