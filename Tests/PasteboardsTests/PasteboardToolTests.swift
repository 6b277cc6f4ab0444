import Foundation
import Testing
import TestHelpers
import UniformTypes
@testable import Pasteboards

/// `pbcopy` and `pbpaste` as real processes on a device root.
@Suite struct PasteboardToolTests {
    @Test func copyAndPasteTextAsOnMacOS() throws {
        let root = try Fixture.root()
        let text = "héllo wörld\n\u{1F600}\n"
        #expect(try Fixture.run(Fixture.pbcopy, [], root: root, stdin: Data(text.utf8)).status == 0)
        let paste = try Fixture.run(Fixture.pbpaste, [], root: root)
        #expect(paste.status == 0 && paste.out == text)
        #expect(try Fixture.run(Fixture.pbpaste, ["--types"], root: root).out == "public.utf8-plain-text\n")
        #expect(try Fixture.run(Fixture.pbpaste, ["--change-count"], root: root).out == "1\n")
        #expect(try Fixture.run(Fixture.pbcopy, ["--change-count"], root: root, stdin: Data("again".utf8)).out == "2\n")
        // Empty input is an empty text item, and a new change.
        #expect(try Fixture.run(Fixture.pbcopy, [], root: root, stdin: Data()).status == 0)
        #expect(try Fixture.run(Fixture.pbpaste, [], root: root).stdout.isEmpty)
        #expect(try Fixture.run(Fixture.pbpaste, ["--change-count"], root: root).out == "3\n")
    }

    @Test func rtfAndEPSAreDetectedAndPreferIsHonoured() throws {
        let root = try Fixture.root()
        let rtf = "{\\rtf1\\ansi bold}"
        #expect(try Fixture.run(Fixture.pbcopy, [], root: root, stdin: Data(rtf.utf8)).status == 0)
        #expect(try Fixture.run(Fixture.pbpaste, ["--types"], root: root).out == "public.rtf\n")
        // No plain text: pbpaste falls back to RTF.
        #expect(try Fixture.run(Fixture.pbpaste, [], root: root).out == rtf)
        let eps = "%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 1 1\n"
        #expect(try Fixture.run(Fixture.pbcopy, ["-pboard", "find"], root: root, stdin: Data(eps.utf8)).status == 0)
        #expect(try Fixture.run(Fixture.pbpaste, ["-pboard", "find", "--types"], root: root).out == "com.adobe.encapsulated-postscript\n")
        #expect(try Fixture.run(Fixture.pbpaste, ["-pboard", "find", "-Prefer", "ps"], root: root).out == eps)
        // The general pasteboard is untouched by a copy to find.
        #expect(try Fixture.run(Fixture.pbpaste, ["--change-count"], root: root).out == "1\n")
        #expect(try Fixture.run(Fixture.pbpaste, ["-Prefer", "pdf"], root: root).status == 2)
    }

    @Test func typesConformanceAndNamedPasteboards() throws {
        let root = try Fixture.root()
        let bytes = Data((0..<256).map { UInt8($0) })
        #expect(try Fixture.run(Fixture.pbcopy, ["-pboard", "com.example.transfer", "--type", "public.png"], root: root, stdin: bytes).status == 0)
        #expect(try Fixture.run(Fixture.pbpaste, ["-pboard", "com.example.transfer", "--type", "public.png"], root: root).stdout == bytes)
        // Through conformance, with the catalog's registry.
        #expect(try Fixture.run(Fixture.pbpaste, ["-pboard", "com.example.transfer", "--type", "public.image"], root: root).stdout == bytes)
        let wrong = try Fixture.run(Fixture.pbpaste, ["-pboard", "com.example.transfer", "--type", "public.text"], root: root)
        #expect(wrong.status == 1 && wrong.stderr.contains("no representation of type public.text"))
        // Plain pbpaste on image data writes nothing, successfully (as on macOS).
        let plain = try Fixture.run(Fixture.pbpaste, ["-pboard", "com.example.transfer"], root: root)
        #expect(plain.status == 0 && plain.stdout.isEmpty)
        #expect(try Fixture.run(Fixture.pbcopy, [], root: root, stdin: Data("text".utf8)).status == 0)
        #expect(try Fixture.run(Fixture.pbpaste, ["--type", "public.text"], root: root).out == "text")
        let missing = try Fixture.run(Fixture.pbpaste, ["-pboard", "com.example.none"], root: root)
        #expect(missing.status == 1 && missing.stderr == "pbpaste: no pasteboard named 'com.example.none'\n")
        let badRoot = try Fixture.run(Fixture.pbcopy, ["--root", "/nonexistent/root"], root: root, stdin: Data("x".utf8))
        #expect(badRoot.status == 1 && badRoot.stderr.contains("the device root /nonexistent/root does not exist"))
        let operand = try Fixture.run(Fixture.pbcopy, ["file.txt"], root: root)
        #expect(operand.status == 2 && operand.stderr.contains("takes no operands"))
    }

    @Test func localeEncodingsAndExpiry() throws {
        let root = try Fixture.root()
        #expect(try Fixture.run(Fixture.pbcopy, [], root: root, stdin: Data([0x63, 0x61, 0x66, 0xE9]), environment: ["LANG": "fr_FR.ISO-8859-1", "LC_ALL": ""]).status == 0)
        #expect(try Fixture.run(Fixture.pbpaste, [], root: root, environment: ["LANG": "en_US.UTF-8", "LC_ALL": ""]).out == "café")
        #expect(try Fixture.run(Fixture.pbpaste, [], root: root, environment: ["LC_ALL": "de_DE.ISO-8859-1"]).stdout == Data([0x63, 0x61, 0x66, 0xE9]))
        // Long enough to be read back before it expires on a loaded machine (0.3 s was not
        // always: pbcopy's own exit and the store's opening fall inside the time).
        #expect(try Fixture.run(Fixture.pbcopy, ["--expires", "3", "--local-only"], root: root, stdin: Data("soon gone".utf8)).status == 0)
        let contents = try Fixture.store(root).general().contents()
        #expect(contents.options.localOnly && contents.string == "soon gone")
        #expect(eventually { (try? Fixture.run(Fixture.pbpaste, [], root: root).stdout.isEmpty) == true }, "the copy expires")
        #expect(try Fixture.run(Fixture.pbpaste, ["--change-count"], root: root).out == "2\n")
    }

    @Test func helpAndManPageComeFromTheDeclaration() throws {
        let root = try Fixture.root()
        let help = try Fixture.run(Fixture.pbpaste, ["--help"], root: root)
        #expect(help.status == 0 && help.out.contains("-Prefer") && help.out.contains("--change-count"))
        let man = try Fixture.run(Fixture.pbcopy, ["--generate-man"], root: root)
        #expect(man.status == 0 && man.out.contains("\\-pboard") && man.out.contains("\\-\\-local\\-only"))
    }

    /// A writer killed with SIGKILL at each step of a write leaves the previous item set (before
    /// the rename) or the next one (after), never a mix, and the next write cleans up.
    @Test(arguments: ["pasteboard.locked", "pasteboard.header-written", "pasteboard.data-written", "pasteboard.synced", "pasteboard.renamed"])
    func killedAtEachStepOfAWrite(step: String) throws {
        let root = try Fixture.root()
        #expect(try Fixture.run(Fixture.pbcopy, [], root: root, stdin: Data("before".utf8)).status == 0)
        let next = Data(repeating: 0x6E, count: 300_000)
        let killed = try Fixture.run(Fixture.pbcopy, [], root: root, stdin: next, environment: ["DI_FAULTS": "crash=\(step)"])
        #expect(killed.status == 137, "pbcopy was to be killed at \(step): \(killed.stderr)")
        let after = try Fixture.run(Fixture.pbpaste, [], root: root).stdout
        let count = try Fixture.run(Fixture.pbpaste, ["--change-count"], root: root).out
        if step == "pasteboard.renamed" {
            #expect(after == next && count == "2\n")
        } else {
            #expect(after == Data("before".utf8) && count == "1\n")
        }
        #expect(try Fixture.run(Fixture.pbcopy, [], root: root, stdin: Data("clean".utf8)).status == 0)
        let folder = Fixture.store(root).folder + "/general"
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["content", "lock"])
        #expect(try Fixture.run(Fixture.pbpaste, [], root: root).out == "clean")
    }
}

/// Many real processes on one pasteboard, and writers killed at random points
/// (Fixtures/stress_driver.py; larger runs in docs/pasteboards.md).
@Suite(.serialized) struct PasteboardStressTests {
    static let driver = TestSupportPaths.fixture("stress_driver.py")

    @Test func concurrentWritersAndReadersSeeNoTornItemSet() throws {
        let run = try Fixture.run("/usr/bin/env", ["python3", Self.driver, TestSupportPaths.products, "concurrent", "12", "3"], root: try Fixture.root())
        #expect(run.status == 0, "\(run.out)")
        #expect(run.out.contains("copies=48") && run.out.contains("change_count=49") && run.out.contains("problems=0"))
    }

    @Test func writersKilledAtRandomPointsLeaveTheOldOrTheNewItemSet() throws {
        let run = try Fixture.run("/usr/bin/env", ["python3", Self.driver, TestSupportPaths.products, "kill", "40", "4"], root: try Fixture.root())
        #expect(run.status == 0, "\(run.out)")
        #expect(run.out.contains("kills=40") && run.out.contains("problems=0"))
    }
}
