import AppRegistry
import Foundation
import PropertyLists
import TestHelpers
import Testing
import UniformTypes

/// `uti lint` on the real Info.plists finds every mistake ../shared/corpus/infoplist/README.md
/// lists, at the right line; and each rule on a small input.
@Suite struct LintTests {
    static let output: String = {
        let files = TestSupport.corpusFiles().map(\.path)
        return (try? TestSupport.run(TestSupport.uti, ["lint"] + files).out) ?? ""
    }()

    func findings(_ filePrefix: String, _ text: String) -> [Substring] {
        Self.output.split(separator: "\n").filter { $0.contains(filePrefix) && $0.contains(text) }
    }

    func line(of needle: String, in filePrefix: String, after: Int = 0) -> Int? {
        let file = TestSupport.corpusFiles().first { $0.lastPathComponent.hasPrefix(filePrefix) }!
        let lines = (try? String(contentsOf: file, encoding: .utf8))?.components(separatedBy: "\n") ?? []
        return lines.indices.first { $0 >= after && lines[$0].contains(needle) }.map { $0 + 1 }
    }

    @Test func findsEveryMistakeTheCorpusREADMEList() throws {
        // MacVim exports Apple's types, one conforming to itself; names types it never declares;
        // claims l and phtml under two types each.
        // One finding per cause: MacVim's 26 exports in Apple's domain are one finding naming them.
        let apple = findings("macvim", "types exported in Apple's domain")
        #expect(apple.count == 1 && apple.first?.contains("26 types exported in Apple's domain: public.plain-text") == true, "\(apple)")
        #expect(findings("macvim", "public.plain-text conforms to itself").count == 1)
        #expect(findings("macvim", "declared neither in this file nor by the system").count == 1)
        #expect(findings("macvim", "declared neither in this file nor by the system").first?.contains("public.assembler-source") == true)
        #expect(findings("macvim", "public.filename-extension l is claimed by several types").count == 1)
        #expect(findings("macvim", "public.filename-extension phtml is claimed by several types").count == 1)
        #expect(findings("transmission", "conforms to com.bittorrent.torrent, which neither").count == 1)
        #expect(findings("kiwix", "'Item 0' is not a standard tag class").count == 1)
        #expect(findings("kiwix", "public.filename-extension is an empty list").count == 1)
        for app in ["adium", "godotengine", "toland__qlmarkdown", "ccrma__miniAudicle", "OpenBoard-org"] {
            #expect(!findings(app, "declared neither in this file nor by the system").isEmpty, "\(app)")
        }
        #expect(findings("godotengine", "CFBundleSignature \"godot\" must be exactly 4 characters").count == 1)
        #expect(findings("rowanj__gitx", "empty extension").count == 1)
        #expect(findings("MacDownApp", "net.daringfireball.markdown in another vendor's domain").count == 1)
        #expect(findings("Whisky-App", "com.microsoft.bat in another vendor's domain").count == 1)
        // What macOS reads anyway (LSTypeIsPackage as 1 or "YES") is a warning, gathered per file.
        #expect(findings("MacPass", "warning: 2 booleans written as strings or numbers").count == 1)
        #expect(findings("MacDownApp", "warning: 3 booleans written as strings or numbers").count == 1)
        #expect(findings("", "must be a boolean").isEmpty)
        #expect(!findings("MacPass", "${PRODUCT_NAME:rfc1034identifier}").isEmpty)
        // A summary line ends the report; the corpus had 348 findings before they were gathered.
        #expect(Self.output.split(separator: "\n").last?.hasPrefix("31 files: ") == true)
        #expect(Self.output.split(separator: "\n").count < 120)
    }

    @Test func findingsPointAtTheOffendingLine() throws {
        let signature = try #require(findings("godotengine", "CFBundleSignature").first)
        let keyLine = try #require(line(of: "<key>CFBundleSignature</key>", in: "godotengine"))
        #expect(signature.contains("Info.plist:\(keyLine):"))
        let torrent = try #require(findings("transmission", "com.bittorrent.torrent").first)
        let parentLine = try #require(line(of: "<string>com.bittorrent.torrent</string>", in: "transmission"))
        #expect(torrent.contains("Info.plist:\(parentLine):"))
    }

    func lint(_ xml: String, definitions: [String: String] = [:]) throws -> [LintFinding] {
        var options = PropertyListReadOptions()
        options.recordsLocations = true
        let document = try PropertyListReader.read(Array(xml.utf8), options: options)
        let catalog = TestCatalog.registry()
        return InfoPlistLinter(catalog: catalog, definitions: definitions).lint(document)
    }

    @Test func rulesOnSmallInputs() throws {
        let findings = try lint("""
            <plist><dict>
            <key>CFBundleIdentifier</key><string>com.example.app</string>
            <key>LSSupportsOpeningDocumentsInPlace</key><string>YES</string>
            <key>CFBundleDocumentTypes</key><array><dict>
              <key>CFBundleTypeExtension</key><array><string>txt</string></array>
              <key>CFBundleTypeRole</key><string>Editor</string>
              <key>LSItemContentTypes</key><array><string>com.example.doc</string><string>com.example.doc</string>
                <string>dyn.ah62d4rv4ge81g6xy</string><string>com.example.missing</string></array>
            </dict></array>
            <key>UTExportedTypeDeclarations</key><array>
              <dict><key>UTTypeIdentifier</key><string>com.example.doc</string>
                <key>UTTypeConformsTo</key><string>public.data</string>
                <key>UTTypeTagSpecification</key><dict><key>com.apple.ostype</key><string>DOCUMENT</string>
                  <key>public.mime-type</key><string>nonsense</string><key>public.filename-extension</key><string>.doc</string></dict></dict>
              <dict><key>UTTypeIdentifier</key><string>bad_type</string><key>UTTypeConformsTo</key><string>public.data</string></dict>
              <dict><key>UTTypeIdentifier</key><string>com.example.orphan</string><key>UTTypeConformsTo</key><string>public.content</string>
                <key>UTTypeTagSpecification</key><dict><key>public.filename-extension</key><string>orphan</string></dict></dict>
              <dict><key>UTTypeIdentifier</key><string>com.example.a</string><key>UTTypeConformsTo</key><array><string>com.example.b</string></array></dict>
              <dict><key>UTTypeIdentifier</key><string>com.example.b</string><key>UTTypeConformsTo</key><array><string>com.example.a</string></array></dict>
              <dict><key>UTTypeIdentifier</key><string>com.example.doc</string></dict>
            </array>
            </dict></plist>
            """)
        func has(_ severity: LintFinding.Severity, _ text: String) -> Bool {
            findings.contains { $0.severity == severity && $0.message.contains(text) }
        }
        #expect(has(.warning, "unknown key CFBundleTypeExtension; did you mean CFBundleTypeExtensions?"))
        #expect(has(.warning, "LSSupportsOpeningDocumentsInPlace is the string \"YES\", not a boolean; macOS reads it as true"))
        #expect(has(.warning, "com.example.doc is listed twice"))
        #expect(has(.error, "dyn.ah62d4rv4ge81g6xy is a dynamic identifier"))
        #expect(has(.error, "com.example.missing is declared neither"))
        #expect(has(.warning, "no LSHandlerRank"))
        #expect(has(.error, "OSType \"DOCUMENT\" must be exactly 4 characters"))
        #expect(has(.error, "MIME type \"nonsense\""))
        #expect(has(.error, "filename extension \".doc\" must not start with a dot"))
        #expect(has(.error, "invalid type identifier \"bad_type\""))
        #expect(has(.warning, "com.example.orphan conforms to neither public.data nor com.apple.package"))
        #expect(has(.error, "com.example.a conforms to itself through a cycle"))
        #expect(has(.error, "com.example.doc is declared again"))
        #expect(findings.allSatisfy { $0.location?.line != nil })
    }

    @Test func buildVariablesWarnOrSubstitute() throws {
        let xml = "<plist><dict><key>CFBundleIdentifier</key><string>$(PRODUCT_BUNDLE_IDENTIFIER)</string></dict></plist>"
        #expect(try lint(xml).contains { $0.severity == .warning && $0.message.contains("$(PRODUCT_BUNDLE_IDENTIFIER)") })
        #expect(try lint(xml, definitions: ["PRODUCT_BUNDLE_IDENTIFIER": "com.example"]).isEmpty)
    }

    @Test func exitStatusAndJSON() throws {
        let good = TestSupport.packageRoot.appendingPathComponent("Samples/Apps/PersonEditor.app/Info.plist").path
        let clean = try TestSupport.run(TestSupport.uti, ["lint", good])
        #expect(clean.status == 0, "\(clean.out)")
        let godot = TestSupport.corpusFiles().first { $0.lastPathComponent.hasPrefix("godot") }!.path
        let run = try TestSupport.run(TestSupport.uti, ["lint", "--json", godot])
        #expect(run.status == 1)
        let array = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [[String: Any]])
        #expect(array.contains { ($0["message"] as? String)?.contains("CFBundleSignature") == true && $0["line"] as? Int == 23 && $0["severity"] as? String == "error" })
    }
}
