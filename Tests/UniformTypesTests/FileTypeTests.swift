import Foundation
import TestHelpers
import Testing
import UniformTypes

/// The type of a file: the name first, the content when the name has no claimed extension.
@Suite struct FileTypeTests {
    let registry = TestCatalog.registry()

    func answer(_ name: String, _ bytes: [UInt8]?, directory: Bool = false) throws -> FileTypeDetector.Answer {
        let dir = try TestSupport.temporaryDirectory()
        let url = dir.appendingPathComponent(name)
        if directory { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        else if let bytes { try Data(bytes).write(to: url) }
        defer { try? FileManager.default.removeItem(at: dir) }
        return FileTypeDetector(registry: registry).type(ofFileAt: url.path)
    }

    @Test func theNameDecidesFirst() throws {
        // A PNG named .jpg is a JPEG by name, as on macOS.
        let a = try answer("photo.JPG", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(a.type.identifier == "public.jpeg")
        #expect(a.rule == .filenameExtension("JPG"))
    }

    @Test func contentDecidesWhenTheNameCannot() throws {
        let png = try answer("scan", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0])
        #expect(png.type.identifier == "public.png" && png.rule == .contentSignature("PNG signature"))
        let text = try answer("README", Array("héllo\n".utf8))
        #expect(text.type.identifier == "public.plain-text" && text.rule == .textContent)
        let subtitle = try answer("movie.srt", Array("1\n00:00:01,000 --> 00:00:02,000\nHi\n".utf8))
        #expect(subtitle.type.isDynamic && subtitle.type.conforms(to: UTType("public.plain-text", in: registry)!))
        let binary = try answer("blob.xyz", [0, 1, 2, 3, 0xFF])
        #expect(binary.type.identifier == DynamicTypeIdentifier.identifier(tag: "xyz", tagClass: "public.filename-extension", conformingTo: "public.data"))
        #expect(binary.type.conforms(to: UTType("public.data", in: registry)!) && binary.rule == .fallback)
        let unnamed = try answer("blob", [0, 1, 2])
        #expect(unnamed.type.identifier == "public.data")
    }

    @Test func foldersAndMissingFiles() throws {
        #expect(try answer("Photos", nil, directory: true).rule == .directory)
        let missing = FileTypeDetector(registry: registry).type(ofFileAt: "/nonexistent/file.png")
        #expect(missing.type.identifier == "public.png")
        let gone = FileTypeDetector(registry: registry).type(ofFileAt: "/nonexistent/file")
        if case .unreadable = gone.rule {} else { Issue.record("expected unreadable, got \(gone.rule)") }
    }

    @Test func extensionsAreTheLastComponentsSuffix() {
        #expect(FileTypeDetector.filenameExtension(of: "a/b/archive.tar.gz") == "gz")
        #expect(FileTypeDetector.filenameExtension(of: ".bashrc") == nil)
        #expect(FileTypeDetector.filenameExtension(of: "dir.d/file") == nil)
        #expect(FileTypeDetector.filenameExtension(of: "trailing.") == nil)
    }
}
