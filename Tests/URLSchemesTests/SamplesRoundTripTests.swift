import Foundation
import PropertyLists
import TestHelpers
import Testing

/// The seed's story with the real sample programs: the Viewer handed a person document, the
/// Editor asking for it with an x-callback-url, the Viewer answering through the Editor's scheme
/// with base64url JSON, the Editor storing it; then the same with a 1 MiB person (A → B → A).
@Suite(.serialized) struct SamplesRoundTripTests {
    static let viewerContainer = "Containers/com.example.person-viewer"
    static let editorContainer = "Containers/com.example.person-editor"
    static let stored = editorContainer + "/Documents/Person from Viewer.person"

    static func askViewer(_ root: URL) throws -> TestSupport.Run {
        try TestSupport.run("/usr/bin/env", ["DOCUMENT_INTERCHANGE_ROOT=\(root.path)", TestSupport.productsDirectory.appendingPathComponent("PersonEditor").path,
                                             "ask-viewer"])
    }

    @Test func theEditorGetsTheViewersPersonThroughTheirSchemes() throws {
        let root = try TestSupport.sampleDevice()
        let doc = root.appendingPathComponent("Documents/file.person").path
        let handed = try TestSupport.run(TestSupport.openin, ["--root", root.path, "--to", "com.example.person-viewer", "--from", "com.example.person-editor", doc])
        #expect(handed.status == 0, "\(handed.stderr)")
        let kept = root.appendingPathComponent(Self.viewerContainer + "/Documents/person.person").path
        #expect(OpenurlToolTests.waitFor(kept))
        let asked = try Self.askViewer(root)
        #expect(asked.status == 0, "\(asked.out) \(asked.stderr)")
        #expect(asked.out.contains("x-success=person-editor%3A%2F%2Fx-callback-url%2FpersonExported"))
        let stored = root.appendingPathComponent(Self.stored).path
        #expect(OpenurlToolTests.waitFor(stored))
        let person = try PropertyListReader.read(contentsOf: .init(stored)).value
        #expect(person["name"]?.stringValue == "Ada Lovelace" && person["born"]?.stringValue == "1815-12-10")
        // The apps write their log lines after the work they describe (a stored file is synced
        // before its line): wait for the lines.
        func log(_ container: String) -> String {
            (try? String(contentsOfFile: root.appendingPathComponent(container + "/Library/launch.log").path, encoding: .utf8)) ?? ""
        }
        #expect(eventually { log(Self.viewerContainer).contains("answered exportPerson from com.example.person-editor") })
        #expect(log(Self.viewerContainer).contains("Person Viewer opened \(root.path)/\(Self.viewerContainer)/Documents/Inbox/file.person from com.example.person-editor"))
        #expect(eventually { log(Self.editorContainer).contains("from com.example.person-viewer") })
        // Every request was claimed: none is left behind.
        for container in [Self.viewerContainer, Self.editorContainer] {
            let left = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(container + "/Library/OpenRequests").path)
            #expect(left.filter { $0.hasSuffix(".plist") && !$0.contains("file.person") }.allSatisfy { !$0.hasPrefix(".claimed") })
        }
    }

    /// A 1 MiB person: the answer URL (about 1.4 MiB of base64url) cannot be one argument, so it
    /// reaches the Editor through its request file, intact.
    @Test func aOneMebibytePayloadRoundTripsIntact() throws {
        let root = try TestSupport.sampleDevice()
        var generator = SystemRandomNumberGenerator()
        let notes = String((0..<(1 << 20)).map { _ in "abcdefghij klmnopqrstuvwxyzÄÖÜ\"\\/<>&0123456789".randomElement(using: &generator)! })
        let person: PropertyList = .dictionary(["name": .string("Mary Somerville"), "born": .string("1780-12-26"), "notes": .string(notes)])
        let documents = root.appendingPathComponent(Self.viewerContainer + "/Documents")
        try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
        try Data(try XMLPropertyListWriter().write(person)).write(to: documents.appendingPathComponent("person.person"))
        let start = Date()
        #expect(try Self.askViewer(root).status == 0)
        let stored = root.appendingPathComponent(Self.stored).path
        #expect(OpenurlToolTests.waitFor(stored, seconds: 30))
        let back = try PropertyListReader.read(contentsOf: .init(stored)).value
        #expect(back["notes"]?.stringValue == notes)
        #expect(back["name"]?.stringValue == "Mary Somerville")
        let logPath = root.appendingPathComponent(Self.editorContainer + "/Library/launch.log").path
        // The editor logs what it stored after syncing the file: wait for the line.
        #expect(eventually { ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").contains("Person Editor stored") })
        let log = try String(contentsOfFile: logPath, encoding: .utf8)
        let bytes = Int(log.split(separator: "(").last?.split(separator: " ").first ?? "") ?? 0
        #expect(bytes > 1 << 20)
        print("1 MiB round trip A -> B -> A: \(Int(Date().timeIntervalSince(start) * 1000)) ms, \(bytes) bytes of JSON")
    }
}
