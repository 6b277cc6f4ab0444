import Foundation
import TestHelpers
import Testing
@testable import UniformTypes

/// Reading the shared MIME database's package files, merging them, and importing them into the
/// registry: identifiers, conformance, tags, and the content-typing rules GIO follows.
@Suite struct SharedMIMEInfoTests {
    static func package(_ body: String, path: String = "test.xml") throws -> MIMEPackageReader.Package {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">
            \(body)
            </mime-info>
            """
        return try MIMEPackageReader.read(Array(xml.utf8), path: path)
    }

    static func database(_ body: String) throws -> SharedMIMEDatabase {
        SharedMIMEDatabase(packages: [(path: "test.xml", package: try package(body))])
    }

    /// The test catalog, with a database.
    static func registry(_ body: String) throws -> TypeRegistry {
        var diagnostics: [DeclarationDiagnostic] = []
        let all = TypeDeclaration.declarations(in: TestCatalog.plist, source: "catalog", asSystem: true, diagnostics: &diagnostics)
        return TypeRegistry(declarations: all, mimeDatabase: try database(body))
    }

    // MARK: Reading

    @Test func everyElementIsRead() throws {
        let p = try Self.package("""
            <mime-type type="application/x-example">
              <comment>Example document</comment>
              <comment xml:lang="fr">Document d'exemple</comment>
              <acronym>EX</acronym><expanded-acronym>EXample</expanded-acronym>
              <icon name="example-icon"/><generic-icon name="x-office-document"/>
              <sub-class-of type="application/xml"/>
              <alias type="application/example"/>
              <glob pattern="*.ex"/><glob pattern="*.EX" case-sensitive="true" weight="80"/>
              <magic priority="60">
                <match type="string" value="EX\\x01\\n\\101" offset="0:3" mask="0xFFFF00FFFF">
                  <match type="big16" value="0x1234" offset="8"/>
                  <match type="little32" value="0x01020304" offset="10"/>
                </match>
                <match type="byte" value="017" offset="2"/>
              </magic>
              <root-XML namespaceURI="urn:example" localName="doc"/>
            </mime-type>
            """)
        #expect(p.diagnostics.isEmpty)
        let t = try #require(p.types.first?.definition)
        #expect(t.mimeType == "application/x-example" && t.comment == "Example document")
        #expect(t.localizedComments == ["fr": "Document d'exemple"] && t.acronym == "EX" && t.expandedAcronym == "EXample")
        #expect(t.icon == "example-icon" && t.genericIcon == "x-office-document")
        #expect(t.parents == ["application/xml"] && t.aliases == ["application/example"])
        #expect(t.globs == [MIMEGlob(pattern: "*.ex"), MIMEGlob(pattern: "*.EX", weight: 80, caseSensitive: true)])
        #expect(t.rootXML == [MIMERootXML(namespaceURI: "urn:example", localName: "doc")])
        let magic = try #require(t.magic.first)
        #expect(magic.priority == 60 && magic.matches.count == 2)
        let first = magic.matches[0]
        #expect(first.rangeStart == 0 && first.rangeLength == 4)
        #expect(first.value == [0x45, 0x58, 0x01, 0x0A, 0x41] && first.mask == [0xFF, 0xFF, 0x00, 0xFF, 0xFF])
        #expect(first.children.map(\.value) == [[0x12, 0x34], [0x04, 0x03, 0x02, 0x01]])
        #expect(magic.matches[1].value == [0o17])
        #expect(first.extent == 14)
        #expect(t.source == "test.xml:3")
    }

    @Test func badElementsAreReportedWithTheirLineAndSkipped() throws {
        let p = try Self.package("""
            <mime-type type="application/x-a">
              <glob pattern="*.a" weight="500"/>
              <magic><match type="big16" value="0x123456" offset="0"/><match type="string" value="A" offset="4"/></magic>
              <magic priority="x"><match type="string" value="B" offset="0"/></magic>
              <magic><match type="float" value="1" offset="0"/><match type="string" value="C" offset="9:2"/></magic>
            </mime-type>
            <mime-type type="no-slash"/>
            """)
        let messages = p.diagnostics.map(\.description)
        #expect(messages.count == 6)
        #expect(messages.contains("test.xml:4: glob weight '500' is not 0-100; skipped"))
        #expect(messages.contains("test.xml:5: value '0x123456' does not fit in 2 bytes; this <match> is skipped"))
        #expect(messages.contains("test.xml:6: magic priority 'x' is not 0-100; skipped"))
        #expect(messages.contains("test.xml:7: unknown match type 'float'; this <match> is skipped"))
        #expect(messages.contains("test.xml:7: offset range '9:2' ends before it starts; this <match> is skipped"))
        #expect(messages.contains { $0.hasPrefix("test.xml:9: <mime-type> without a valid type") })
        #expect(p.types.count == 1 && p.types[0].definition.magic.count == 1)
    }

    @Test func malformedFilesAreErrorsWithTheirLine() {
        #expect(throws: MIMEPackageDiagnostic.self) { try MIMEPackageReader.read(Array("<mime-info>\n<mime-type type=\"a/b\">\n</mime-info>".utf8), path: "bad.xml") }
        do {
            _ = try MIMEPackageReader.read(Array("<mime-info>\n<mime-type type=\"a/b\">\n</mime-info>".utf8), path: "bad.xml")
        } catch {
            #expect(error.file == "bad.xml" && error.line == 3)
        }
        #expect(throws: MIMEPackageDiagnostic.self) { try MIMEPackageReader.read(Array("<plist/>".utf8), path: "p.xml") }
        #expect(throws: MIMEPackageDiagnostic.self) { try MIMEPackageReader.read([], path: "empty.xml") }
    }

    @Test func hostilePackagesEndQuickly() throws {
        // Entity expansion, nesting beyond the limit, and a huge offset range: each ends, reported.
        var laughs = "<!DOCTYPE mime-info [<!ENTITY a \"aaaaaaaaaa\">"
        for i in 1...9 { laughs += "<!ENTITY \(Character(UnicodeScalar(97 + i)!)) \"" + String(repeating: "&\(Character(UnicodeScalar(96 + i)!));", count: 10) + "\">" }
        laughs += "]><mime-info><mime-type type=\"a/b\"><comment>&j;</comment></mime-type></mime-info>"
        let start = Date()
        let result = try? MIMEPackageReader.read(Array(laughs.utf8), path: "laughs.xml")
        #expect(Date().timeIntervalSince(start) < 20)
        #expect((result?.types.first?.definition.comment?.count ?? 0) < 1_000_000)
        let deep = String(repeating: "<match type=\"byte\" value=\"1\" offset=\"0\">", count: 40) + String(repeating: "</match>", count: 40)
        let p = try Self.package("<mime-type type=\"a/b\"><magic>\(deep)</magic></mime-type>")
        #expect(p.diagnostics.contains { $0.message.hasPrefix("nested deeper than 32 levels") })
        let wide = try Self.registry("<mime-type type=\"a/b\"><magic><match type=\"string\" value=\"Z\" offset=\"0:1073741823\"/></magic></mime-type>")
        let detector = FileTypeDetector(registry: wide)
        #expect(Array("no zee here".utf8).withUnsafeBytes { detector.guess(name: nil, content: $0) }.matchedMIMEType != "a/b")
        #expect(Array("at the end: Z".utf8).withUnsafeBytes { detector.guess(name: nil, content: $0) }.matchedMIMEType == "a/b")
    }

    // MARK: Merging

    @Test func laterPackagesAddAndDeleteAllReplaces() throws {
        let base = try Self.package("""
            <mime-type type="text/x-a"><comment>A</comment><glob pattern="*.a"/><magic><match type="string" value="A" offset="0"/></magic></mime-type>
            """, path: "base.xml")
        let more = try Self.package("""
            <mime-type type="text/x-a"><glob pattern="*.aa"/><sub-class-of type="text/plain"/></mime-type>
            """, path: "more.xml")
        let override = try Self.package("""
            <mime-type type="TEXT/X-A"><comment>Ay</comment><glob-deleteall/><glob pattern="*.ay"/><magic-deleteall/></mime-type>
            """, path: "Override.xml")
        let merged = SharedMIMEDatabase(packages: [("base.xml", base), ("more.xml", more)])
        #expect(merged.definition(of: "text/x-a")?.globs.map(\.pattern) == ["*.a", "*.aa"])
        #expect(merged.definition(of: "text/x-a")?.parents == ["text/plain"])
        let replaced = SharedMIMEDatabase(packages: [("base.xml", base), ("more.xml", more), ("Override.xml", override)])
        let t = try #require(replaced.definition(of: "Text/X-A"))
        #expect(t.globs.map(\.pattern) == ["*.ay"] && t.magic.isEmpty && t.comment == "Ay" && t.source == "Override.xml:3")
    }

    @Test func foldersAndFilesAreReadInGIOsOrder() throws {
        let home = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        for (dir, name, glob) in [("user/mime", "z.xml", "*.user"), ("system/mime", "a.xml", "*.sys"), ("system/mime", "Override.xml", "*.over"), ("system/mime", "b.xml", "*.b")] {
            let packages = home.appendingPathComponent(dir).appendingPathComponent("packages")
            try FileManager.default.createDirectory(at: packages, withIntermediateDirectories: true)
            try Data("<mime-info><mime-type type=\"x/y\"><glob pattern=\"\(glob)\"/></mime-type></mime-info>".utf8).write(to: packages.appendingPathComponent(name))
        }
        try Data("not xml".utf8).write(to: home.appendingPathComponent("system/mime/packages/broken.xml"))
        let system = home.appendingPathComponent("system/mime").path
        #expect(SharedMIMEDatabase.packageFiles(in: system).map { ($0 as NSString).lastPathComponent } == ["a.xml", "b.xml", "broken.xml", "Override.xml"])
        // The user's folder is the most important: merged last.
        let database = SharedMIMEDatabase.load(mimeDirectories: [home.appendingPathComponent("user/mime").path, system])
        #expect(database.definition(of: "x/y")?.globs.map(\.pattern) == ["*.sys", "*.b", "*.over", "*.user"])
        #expect(database.diagnostics.count == 1 && database.diagnostics[0].file.hasSuffix("broken.xml"))
    }

    // MARK: Import

    @Test func identifiersAreStableAndDerivedFromTheMIMEType() {
        #expect(SharedMIMEImport.identifier(forMIMEType: "audio/x-vorbis+ogg") == "org.freedesktop.mime.audio.x-vorbis-plus-ogg")
        #expect(SharedMIMEImport.identifier(forMIMEType: "audio/AMR") == "org.freedesktop.mime.audio.amr")
        #expect(SharedMIMEImport.identifier(forMIMEType: "application/x-a_b") == "org.freedesktop.mime.application.x-a-x5f-b")
        #expect(TypeIdentifierSyntax.problem(with: SharedMIMEImport.identifier(forMIMEType: "application/vnd.ms-excel.sheet.macroEnabled.12")) == nil)
    }

    @Test func applesTypesKeepTheirIdentityAndConformance() throws {
        let r = try Self.registry("""
            <mime-type type="image/png"><comment>PNG</comment><sub-class-of type="application/x-other"/><glob pattern="*.png"/><glob pattern="*.apng2"/></mime-type>
            <mime-type type="image/jpeg"><alias type="image/pjpeg"/><glob pattern="*.jfif"/></mime-type>
            <mime-type type="application/x-other"><glob pattern="*.other"/></mime-type>
            <mime-type type="audio/x-vorbis+ogg"><sub-class-of type="application/ogg"/><glob pattern="*.ogg"/></mime-type>
            <mime-type type="application/ogg"><glob pattern="*.ogx"/></mime-type>
            <mime-type type="text/x-toml"><glob pattern="*.toml"/><glob pattern="*.TOML" case-sensitive="true"/></mime-type>
            <mime-type type="application/x-key"><glob pattern="*.mp4"/></mime-type>
            """)
        let png = try #require(UTType("public.png", in: r))
        #expect(png.parents.map(\.identifier) == ["public.image"])   // Apple's conformance stays Apple's
        #expect(png.tags(of: .filenameExtension) == ["png", "apng2"])
        #expect(UTType(mimeType: "image/pjpeg", in: r)?.identifier == "public.jpeg")
        #expect(UTType(filenameExtension: "jfif", in: r)?.identifier == "public.jpeg")
        let ogg = try #require(UTType(filenameExtension: "ogg", in: r))
        #expect(ogg.identifier == "org.freedesktop.mime.audio.x-vorbis-plus-ogg")
        #expect(ogg.parents.map(\.identifier) == ["org.freedesktop.mime.application.ogg", "public.audio"])
        #expect(ogg.conforms(to: UTType("public.data", in: r)!) && ogg.declaringSource?.hasPrefix("shared-mime-info test.xml:") == true)
        let toml = try #require(UTType(mimeType: "text/x-toml", in: r))
        #expect(toml.parents.map(\.identifier) == ["public.plain-text"] && toml.tags(of: .filenameExtension) == ["toml"])
        // An extension Apple's types claim keeps Apple's answer.
        #expect(UTType(filenameExtension: "mp4", in: r)?.identifier == "public.mpeg-4")
        #expect(UTType.types(tag: "mp4", tagClass: .filenameExtension, conformingTo: nil, in: r).map(\.identifier)
                == ["public.mpeg-4", "public.mpeg-4-audio", "org.freedesktop.mime.application.x-key"])
        #expect(UTType(mimeType: "application/octet-stream", in: r) != nil)
    }

    // MARK: Content typing

    static let rules = """
        <mime-type type="text/x-readme"><glob pattern="README"/><glob pattern="README*" weight="10"/></mime-type>
        <mime-type type="application/gzip"><glob pattern="*.gz"/><magic><match type="string" value="\\037\\213" offset="0"/></magic></mime-type>
        <mime-type type="application/x-compressed-tar"><sub-class-of type="application/gzip"/><glob pattern="*.tar.gz"/><glob pattern="*.tgz"/></mime-type>
        <mime-type type="text/x-c++src"><glob pattern="*.C" case-sensitive="true"/><glob pattern="*.cpp"/></mime-type>
        <mime-type type="text/x-csrc"><glob pattern="*.c" case-sensitive="true"/></mime-type>
        <mime-type type="text/x-objcsrc"><glob pattern="*.m"/><magic priority="30"><match type="string" value="#import" offset="0"/></magic></mime-type>
        <mime-type type="text/x-matlab"><glob pattern="*.m"/><magic priority="10"><match type="string" value="function" offset="0"/></magic></mime-type>
        <mime-type type="image/x-strong"><glob pattern="*.wk"/><glob pattern="*.st" weight="60"/><magic priority="90"><match type="string" value="STRONG" offset="0"/></magic></mime-type>
        <mime-type type="application/x-weak"><glob pattern="*.wk"/><glob pattern="*.st"/></mime-type>
        <mime-type type="application/x-nested"><magic><match type="string" value="NEST" offset="0"><match type="little16" value="0x0201" offset="4:8"/></match></magic></mime-type>
        <mime-type type="application/x-masked"><magic><match type="string" value="M\\x00K" offset="0" mask="0xFF00FF"/></magic></mime-type>
        <mime-type type="application/x-desktop"><glob pattern="*.desktop"/><magic><match type="string" value="[Desktop Entry]" offset="0"/></magic></mime-type>
        <mime-type type="text/plain"><glob pattern="*.txt"/></mime-type>
        <mime-type type="application/octet-stream"/>
        <mime-type type="application/x-zerosize"/>
        <mime-type type="text/x-troff-man"><glob pattern="*.[1-9]"/></mime-type>
        """

    func guess(_ r: TypeRegistry, _ name: String?, _ content: String?) -> FileTypeDetector.Answer {
        guess(r, name, bytes: content.map { Array($0.utf8) })
    }

    func guess(_ r: TypeRegistry, _ name: String?, bytes: [UInt8]?) -> FileTypeDetector.Answer {
        let detector = FileTypeDetector(registry: r)
        guard let bytes else { return detector.guess(name: name, content: nil) }
        return bytes.withUnsafeBytes { detector.guess(name: name, content: $0) }
    }

    @Test func globsFollowGIOsOrder() throws {
        let r = try Self.registry(Self.rules)
        #expect(guess(r, "README", nil).mimeType == "text/x-readme")                  // literal
        #expect(guess(r, "readme", nil).mimeType == "text/x-readme")                  // literals ignore case unless told
        #expect(guess(r, "README.md", nil).mimeType == "text/x-readme")               // pattern
        #expect(guess(r, "x.tar.gz", nil).mimeType == "application/x-compressed-tar") // longest suffix
        #expect(guess(r, "X.TGZ", nil).mimeType == "application/x-compressed-tar")
        #expect(guess(r, "a.C", nil).mimeType == "text/x-c++src")                     // case-sensitive
        #expect(guess(r, "a.c", nil).mimeType == "text/x-csrc")
        #expect(guess(r, "A.CPP", nil).mimeType == "text/x-c++src")
        #expect(guess(r, "page.3", nil).mimeType == "text/x-troff-man")               // fnmatch brackets
        #expect(guess(r, "dir/sub/x.cpp", nil).mimeType == "text/x-c++src")           // the last component
        #expect(guess(r, "a.st", nil).mimeType == "image/x-strong")                   // weight
        let ambiguous = guess(r, "a.m", nil)
        #expect(ambiguous.mimeType == "text/x-objcsrc" && ambiguous.rule == .ambiguousFileName)   // declaration order
        #expect(guess(r, "nothing.xyz", nil).mimeType == "application/octet-stream")
    }

    @Test func contentDecidesWhatTheNameCannot() throws {
        let r = try Self.registry(Self.rules)
        #expect(guess(r, "a.m", "function y = f(x)\n").mimeType == "text/x-matlab")
        #expect(guess(r, "a.m", "#import <x.h>\n").mimeType == "text/x-objcsrc")
        #expect(guess(r, "a.m", "plain words\n").rule == .fileNameAndContent)          // text/plain: the first text candidate
        #expect(guess(r, "a.wk", "STRONG").mimeType == "image/x-strong")
        #expect(guess(r, "a.wk", "weak").mimeType == "image/x-strong")                 // no help: the first
        #expect(guess(r, "b.st", "\u{1}\u{2}").mimeType == "image/x-strong")
        // A name with one candidate is never second-guessed; priority 80 and up beats an ambiguous name.
        #expect(guess(r, "x.gz", "STRONG").mimeType == "application/gzip")
        #expect(guess(r, nil, "STRONG").rule == .magic(priority: 90))
        #expect(guess(r, nil, "NEST\u{0}\u{0}\u{0}\u{0}\u{1}\u{2}").mimeType == "application/x-nested")   // nested, in range
        #expect(guess(r, nil, "NEST\u{1}\u{2}").mimeType == "application/x-nested")
        #expect(guess(r, nil, "NEST\u{0}\u{0}\u{0}\u{0}\u{0}\u{1}\u{2}").mimeType != "application/x-nested")   // past the range
        #expect(guess(r, nil, "NEST\u{2}\u{1}").mimeType != "application/x-nested")                            // little-endian
        #expect(guess(r, nil, "M\u{7}K").mimeType == "application/x-masked")          // masked byte
        #expect(guess(r, nil, "").rule == .emptyFile)
        #expect(guess(r, nil, "").mimeType == "application/x-zerosize")
        #expect(guess(r, nil, "hello\tworld\n").mimeType == "text/plain")
        #expect(guess(r, nil, "\u{1}\u{2}binary").mimeType == "application/octet-stream")
        // A desktop entry disguised under another name is only text.
        #expect(guess(r, nil, "[Desktop Entry]\n").mimeType == "application/x-desktop")
        #expect(guess(r, "photo.unknown", "[Desktop Entry]\n").mimeType == "text/plain")
        #expect(guess(r, "launch.desktop", "[Desktop Entry]\n").mimeType == "application/x-desktop")
        // Text under an extension nothing claims: the extension's dynamic type, conforming to plain text.
        let srt = guess(r, "movie.srt", "1\n00:00:01,000 --> 00:00:02,000\n")
        #expect(srt.type.isDynamic && srt.type.conforms(to: UTType("public.plain-text", in: r)!) && srt.mimeType == "text/plain")
    }

    @Test func aFormatTheDatabaseLacksStandsInForItsSharedExtension() throws {
        // `*.smi` is SMIL (text) to the database and an old disk image (binary) to Apple's catalog.
        var diagnostics: [DeclarationDiagnostic] = []
        var all: [TypeDeclaration] = []
        for plist in TestCatalog.real.plists { all += TypeDeclaration.declarations(in: plist, source: "catalog", asSystem: true, diagnostics: &diagnostics) }
        let r = TypeRegistry(declarations: all, mimeDatabase: try Self.database("""
            <mime-type type="application/smil+xml"><sub-class-of type="application/xml"/><glob pattern="*.smi"/></mime-type>
            <mime-type type="application/xml"><sub-class-of type="text/plain"/><glob pattern="*.xml"/></mime-type>
            <mime-type type="text/plain"/><mime-type type="application/octet-stream"/>
            """))
        #expect(guess(r, "old.smi", bytes: [0x00, 0x01, 0xFF, 0x7F]).type.identifier == "com.apple.disk-image-smi")
        #expect(guess(r, "old.smi", bytes: [0x00, 0x01, 0xFF, 0x7F]).matchedMIMEType == nil)   // Apple gives it no MIME type
        #expect(guess(r, "talk.smi", "<smil><body/></smil>").mimeType == "application/smil+xml")
        #expect(guess(r, "talk.smi", nil).mimeType == "application/smil+xml")
        #expect(UTType(filenameExtension: "smi", in: r)?.identifier == "com.apple.disk-image-smi")   // Apple's answer stands
    }

    @Test func extensionsOnlyTheCatalogKnowsStillCount() throws {
        let r = try Self.registry(Self.rules)
        // `yaml` is the test catalog's own; the database has no glob for it.
        let yaml = guess(r, "a.yaml", "k: v\n")
        #expect(yaml.type.identifier == "public.yaml" && yaml.rule == .filenameExtension("yaml"))
        #expect(guess(r, "a.yaml", nil).type.identifier == "public.yaml")
        // Magic outweighs such an extension unless the type conforms to what the magic found.
        #expect(guess(r, "a.yaml", bytes: [0x1F, 0x8B, 0x08]).mimeType == "application/gzip")
    }
}
