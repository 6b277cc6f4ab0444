import Foundation
import TestHelpers
import Testing

/// An empty file is typed as GIO types a file (`gio info`: GLib never sniffs an empty file and
/// answers text/plain, so that a new file opens in a text editor): never
/// `application/x-zerosize`, which no app claims. A name whose type is text keeps it.
@Suite struct EmptyFileTests {
    static let names = ["empty", "empty.py", "empty.png", "empty.txt", "notes.md", "Makefile", "empty.c", "letter.odt", "archive.zip"]

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/gio"), "gio (libglib2.0-bin) is not installed"))
    func emptyFilesAreTextAsGIOTypesThem() throws {
        let dir = try TestSupport.temporaryDirectory()
        for name in Self.names { _ = FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: Data()) }
        let paths = Self.names.map { dir.appendingPathComponent($0).path }
        let json = try TestSupport.run(TestSupport.uti, ["for-file", "--json"] + paths)
        let answers = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]], "\(json.stderr)")
        #expect(answers.count == Self.names.count)
        for (name, answer) in zip(Self.names, answers) {
            let gio = try TestSupport.run("/usr/bin/gio", ["info", "-a", "standard::content-type", dir.appendingPathComponent(name).path])
            let gioType = try #require(gio.out.split(separator: "\n").first { $0.contains("standard::content-type:") }?.split(separator: " ").last.map(String.init))
            let gioUTI = try TestSupport.run(TestSupport.uti, ["for-mime", gioType]).out.trimmingCharacters(in: .whitespacesAndNewlines)
            let ours = try #require(answer["identifier"] as? String)
            // GIO's answer is text/plain for each; ours is that type or a text type of the name.
            #expect(gioType == "text/plain", "\(name): GIO says \(gioType)")
            let conforms = try TestSupport.run(TestSupport.uti, ["conforms", ours, gioUTI])
            #expect(conforms.status == 0, "\(name): ours \(ours) is not \(gioUTI) (GIO: \(gioType))")
            #expect((answer["reason"] as? String)?.hasPrefix("it is empty") == true, "\(name): \(answer)")
        }
        // Where the name's type is not text, exactly GIO's type.
        for (name, answer) in zip(Self.names, answers) where ["empty", "empty.png", "letter.odt", "archive.zip"].contains(name) {
            #expect(answer["identifier"] as? String == "public.plain-text", "\(name): \(answer)")
        }
    }
}
