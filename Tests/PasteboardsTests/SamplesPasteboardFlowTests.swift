import AppRegistry
import Foundation
import KeyedArchives
import PropertyLists
import SystemCalls
import TestHelpers
import Testing
@testable import Pasteboards

/// Seed 000's channel with the real sample programs: the Person Editor archives a person in an
/// ENHAppDataPackage, puts it on a named pasteboard under its own type and opens the Person Viewer
/// through its scheme; the Viewer, started by that request, reads and unarchives it.
@Suite(.serialized) struct SamplesPasteboardFlowTests {
    static let name = PasteboardName("com.example.person-editor.transfer")
    static let type = "com.example.person-editor.datapackage"
    static let viewerContainer = "Containers/com.example.person-viewer"

    static func program(_ name: String) -> String { TestSupport.productsDirectory.appendingPathComponent(name).path }

    /// Waits for the viewer's launch log to hold a line with `text`.
    static func viewerLog(_ root: URL, containing text: String, seconds: Double = 60) -> String? {
        let end = Date().addingTimeInterval(seconds)
        let path = root.appendingPathComponent(viewerContainer + "/Library/launch.log").path
        while Date() < end {
            if let log = try? String(contentsOfFile: path, encoding: .utf8), log.contains(text) { return log }
            usleep(10_000)
        }
        return nil
    }

    @Test func theViewerGetsTheExactPersonTheEditorPutOnThePasteboard() throws {
        let device = try TestSupport.sampleDevice()
        let root = DeviceRoot(path: device.path)
        // 64 KiB of notes with characters that XML, JSON and the archive all escape or widen.
        var generator = SystemRandomNumberGenerator()
        let notes = String((0..<(64 << 10)).map { _ in "abc xyzÄÖÜ€😀\"\\/<>&\t\n019".randomElement(using: &generator)! })
        let person: PropertyList = .dictionary(["name": .string("Mary Somerville"), "born": .string("1780-12-26"),
                                                "notes": .string(notes), "works": .array([.string("On the Connexion"), .integer(1834)])])
        let file = device.appendingPathComponent("Documents/somerville.person")
        try Data(try XMLPropertyListWriter().write(person)).write(to: file)

        let pasted = try Fixture.run(Self.program("PersonEditor"), ["paste-to-viewer", file.path], root: root)
        #expect(pasted.status == 0, "\(pasted.stderr)")
        #expect(pasted.out.contains("person-viewer://x-callback-url/pastePerson?pasteboard=com.example.person-editor.transfer"))
        let log = Self.viewerLog(device, containing: "Person Viewer unarchived")
        #expect(log?.contains("from Person Editor (com.example.person-editor) on pasteboard com.example.person-editor.transfer, opened by com.example.person-editor") == true, "\(log ?? "no log")")

        // What the viewer unarchived and kept is the editor's person, value for value.
        let kept = try TestSupport.read(device.appendingPathComponent(Self.viewerContainer + "/Documents/person.person")).value
        #expect(kept == person)
        let shown = try Fixture.run(Self.program("PersonViewer"), ["paste"], root: root)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.out.hasPrefix("Person Viewer unarchived an ENHAppDataPackage from Person Editor (com.example.person-editor 1.0 build 1)"))
        var json = PropertyListReadOptions()
        json.readsJSON = true
        let printed: [UInt8] = Array(shown.out.drop { $0 != "\n" }.dropFirst().utf8)
        let printedPerson: PropertyList = try PropertyListReader.read(printed, options: json).value
        #expect(printedPerson == person)

        // The pasteboard holds an archive as Apple's NSKeyedUnarchiver reads ENHAppDataPackage:
        // $archiver, $version 100000, $top.kENHPackageDataKey a UID, the class chain
        // [ENHAppDataPackage, NSObject], four NSStrings and the payload as NSData.
        let board = try #require(try Fixture.store(root).pasteboard(named: Self.name, create: false))
        let archive = try #require(try board.contents().data(forPasteboardType: Self.type))
        #expect(Array(archive.prefix(8)) == Array("bplist00".utf8))
        let top: PropertyList = try PropertyListReader.read(archive).value
        #expect(top["$archiver"]?.stringValue == "NSKeyedArchiver")
        #expect(top["$version"] == PropertyList.integer(100000))
        let topObject: PropertyList? = top["$top"]?["kENHPackageDataKey"]
        guard case .uid(let index)? = topObject, case .array(let objects)? = top["$objects"] else {
            Issue.record("no $top.kENHPackageDataKey UID in \(top)")
            return
        }
        let object: PropertyList = objects[Int(index)]
        guard case .uid(let classIndex)? = object["$class"] else { Issue.record("no $class in \(object)"); return }
        #expect(objects[Int(classIndex)]["$classname"]?.stringValue == "ENHAppDataPackage")
        #expect(objects[Int(classIndex)]["$classes"] == PropertyList.array([.string("ENHAppDataPackage"), .string("NSObject")]))
        let package = try AppDataPackage(unarchiving: archive)
        #expect(package.sourceApplicationIdentifier == "com.example.person-editor")
        #expect(package.sourceApplicationVersion == "1.0" && package.sourceApplicationBuild == "1")
        let payload: PropertyList = try PropertyListReader.read(package.payload).value
        #expect(payload == person)
        // The two apps share it through their team: the owner recorded is the editor's.
        let owner = try #require(try board.store.storage(Self.name).current()?.generation.owner)
        #expect(owner == PasteboardOwner(bundleIdentifier: "com.example.person-editor", teamIdentifier: "ABCDE12345"))
    }

    @Test func aMissingPasteboardOrAPayloadThatIsNoArchiveFailsClearly() throws {
        let device = try TestSupport.sampleDevice()
        let root = DeviceRoot(path: device.path)
        let missing = try Fixture.run(Self.program("PersonViewer"), ["paste"], root: root)
        #expect(missing.status == 1)
        #expect(missing.stderr == "person-viewer: no pasteboard named 'com.example.person-editor.transfer' that this app may see (same team or app group)\n")
        #expect(missing.out.isEmpty)

        // Something else under the editor's type: pbcopy (the user) replaces the package with text.
        #expect(try Fixture.run(Self.program("PersonEditor"), ["paste-to-viewer"], root: root).status == 0)
        #expect(Self.viewerLog(device, containing: "Katherine Johnson") != nil)
        let copied = try Fixture.run(Fixture.pbcopy, ["-pboard", Self.name.rawValue, "--type", Self.type], root: root, stdin: Data("not an archive".utf8))
        #expect(copied.status == 0, "\(copied.stderr)")
        // pbcopy ran as the test process; the viewer runs as the test user, the same person.
        TestUser.own(device)
        let text = try Fixture.run(Self.program("PersonViewer"), ["paste"], root: root)
        #expect(text.status == 1)
        #expect(text.stderr.hasPrefix("person-viewer: pasteboard 'com.example.person-editor.transfer': data package: not a readable property list"), "\(text.stderr)")

        // A package under another type is not looked for.
        let other = try Fixture.run(Self.program("PersonViewer"), ["paste", "--type", "com.example.other"], root: root)
        #expect(other.status == 1)
        #expect(other.stderr == "person-viewer: pasteboard 'com.example.person-editor.transfer' holds nothing of type com.example.other\n")
    }

    /// Without the shared team the viewer may not see the editor's pasteboard, and is not told
    /// that it exists.
    @Test func aViewerOfAnotherTeamDoesNotSeeIt() throws {
        let device = try TestSupport.sampleDevice()
        let root = DeviceRoot(path: device.path)
        try FileManager.default.removeItem(at: device.appendingPathComponent("Apps/PersonViewer.app/Entitlements.plist"))
        #expect(try Fixture.run(Self.program("PersonEditor"), ["paste-to-viewer"], root: root).status == 0)
        let log = Self.viewerLog(device, containing: "could not paste")
        #expect(log?.contains("Person Viewer could not paste from com.example.person-editor: no pasteboard named 'com.example.person-editor.transfer'") == true, "\(log ?? "no log")")
        let shown = try Fixture.run(Self.program("PersonViewer"), ["paste"], root: root)
        #expect(shown.status == 1)
        #expect(shown.stderr.contains("no pasteboard named"))
    }
}
