import Foundation
import PropertyLists
import TestHelpers
import Testing

/// Every case of ../shared/corpus/bad-plists gets the answer its manifest asks for, run as a
/// separate `plutil -lint` process under a time and memory limit, so a hang or a blow-up fails
/// the test instead of stalling CI. Where the manifest lets us choose, docs/property-lists.md
/// records the choice and this table enforces it.
@Suite struct BadPlistCorpusTests {
    struct Case: Sendable, CustomStringConvertible {
        var id: String
        var file: String
        var expect: String
        var description: String { id }
    }

    static let cases: [Case] = {
        let url = TestSupport.badCorpus.appendingPathComponent("manifest.json")
        guard let data = try? Data(contentsOf: url),
              let entries = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return [] }
        return entries.map { Case(id: $0["id"] as! String, file: $0["file"] as! String, expect: $0["expect"] as! String) }
    }()

    /// Our decision for every case whose manifest answer leaves a choice (see docs/property-lists.md).
    static let decisions: [String: Bool] = [
        "b04-version-15": false, "b05-version-0x": true, "b23-int-16-bytes": true, "b28-set-marker": false,
        "b31-uid": true, "b34-ascii-high-bit": false, "b35-utf16-lone-surrogate": false, "b38-dag-bomb": false,
        "b40-trailing-garbage": false, "b43-ref-size-too-small": false, "x08-duplicate-keys": true,
        "x11-empty-plist": false, "x15-int-uint64-max": true, "x16-int-hex": true, "x19-real-nan-inf": true,
        "x21-date-bad-fields": false, "x22-date-no-time": false, "x26-data-bad-padding": false,
        "x42-cf-uid": true, "x46-huge-key": true,
    ]

    static func shouldAccept(_ c: Case) -> Bool {
        if let decided = decisions[c.id] { return decided }
        if c.expect.hasPrefix("accept") { return true }
        if c.expect.hasPrefix("reject") { return false }
        Issue.record("no decision recorded for \(c.id): \(c.expect)")
        return false
    }

    /// The three large cases are not stored; the corpus generator makes them.
    static let generated: URL? = {
        guard let dir = try? TestSupport.temporaryDirectory() else { return nil }
        let script = TestSupport.badCorpus.appendingPathComponent("gen_bad_corpus.py").path
        guard let run = try? TestSupport.run("/usr/bin/env", ["python3", script, dir.path]), run.status == 0 else { return nil }
        return dir
    }()

    static func path(of c: Case) -> String {
        let stored = TestSupport.badCorpus.appendingPathComponent(c.file)
        if FileManager.default.fileExists(atPath: stored.path) { return stored.path }
        return (generated ?? stored.deletingLastPathComponent()).appendingPathComponent(c.file).path
    }

    @Test func manifestIsComplete() {
        #expect(Self.cases.count == 99)
    }

    @Test(arguments: cases)
    func answersAsTheManifestAsks(_ c: Case) throws {
        let file = Self.path(of: c)
        #expect(FileManager.default.fileExists(atPath: file), "missing \(file)")
        // 512 MiB of address space is far below what a blow-up needs and far above our budget;
        // 20 s is 100 times what the slowest case takes.
        let run = try TestSupport.run("/usr/bin/prlimit", ["--as=\(512 << 20)", "--", "/usr/bin/timeout", "20", TestSupport.plutil, "-lint", file])
        let accept = Self.shouldAccept(c)
        #expect(run.status == (accept ? 0 : 1), "\(c.id): exit \(run.status), stderr: \(run.stderr)")
        if accept {
            #expect(run.out.hasSuffix(": OK\n"))
        } else {
            // A rejection says where: a line and column, or a byte offset (empty input has no "where").
            let located = run.stderr.contains("line ") || run.stderr.contains("byte offset")
            #expect(located || run.stderr.contains("empty") || run.stderr.contains("white space"), "\(c.id): \(run.stderr)")
        }
    }

    // Values of the accepted cases that have a defined meaning.

    static func value(_ id: String) throws -> PropertyListDocument {
        try TestSupport.read(TestSupport.badCorpus.appendingPathComponent(id))
    }

    @Test func acceptedValues() throws {
        #expect(try Self.value("x16-int-hex.plist").value == .integer(31))
        #expect(try Self.value("x25-data-split-base64.plist").value == .data(Array("ABCDEF".utf8)))
        #expect(try Self.value("x38-cdata.plist").value == .string("a<b>&c"))
        #expect(try Self.value("x35-latin1-decl.plist").value == .string("café"))
        #expect(try Self.value("x34-utf16-bom.plist").format == .xml)
        #expect(try Self.value("x15-int-uint64-max.plist").value == .unsignedInteger(UInt64.max))
        #expect(try Self.value("b23-int-16-bytes.plist").value == .integer(1))
        #expect(try Self.value("x42-cf-uid.plist").value == .uid(3))
        #expect(try Self.value("b31-uid.plist").value == .dictionary(["k": .uid(5)]))
        #expect(try Self.value("b42-shared-objects.plist").value == .array(Array(repeating: .string("same"), count: 3)))
        #expect(try Self.value("b41-offset-size-3.plist").value == .dictionary(["CFBundleIdentifier": .string("com.example.ok")]))
        let reals = try Self.value("x19-real-nan-inf.plist").value.arrayValue ?? []
        #expect(reals.count == 3)
        if case .real(let r) = reals[0] { #expect(r.isNaN) } else { Issue.record("not a real") }
        #expect(Array(reals.dropFirst()) == [.real(.infinity), .real(-.infinity)])
    }

    @Test func whitespaceInStringsIsKeptExactly() throws {
        let raw = String(decoding: try Data(contentsOf: TestSupport.badCorpus.appendingPathComponent("x47-whitespace-in-string.plist")), as: UTF8.self)
        let value = try Self.value("x47-whitespace-in-string.plist").value
        for (key, v) in value.dictionaryValue ?? [:] {
            #expect(raw.contains("<key>\(key)</key>"))
            if case .string(let s) = v { #expect(raw.contains("<string>\(s)</string>")) }
        }
        #expect(value.dictionaryValue?.keys.contains { $0.first == " " || $0.last == " " } == true)
    }

    @Test func duplicateKeysKeepTheLastAndAreReported() throws {
        let document = try Self.value("x08-duplicate-keys.plist")
        #expect(document.duplicateKeys.count == 1)
        let key = try #require(document.duplicateKeys.first?.keyPath.components.last)
        guard case .key(let name) = key else { Issue.record("not a key"); return }
        let raw = String(decoding: try Data(contentsOf: TestSupport.badCorpus.appendingPathComponent("x08-duplicate-keys.plist")), as: UTF8.self)
        // The value kept is the one after the last occurrence of the key.
        let lastValue = raw.components(separatedBy: "<key>\(name)</key>").last!
        if case .string(let s)? = document.value[name] { #expect(lastValue.contains("<string>\(s)</string>")) }
        #expect(document.duplicateKeys.first?.location?.line != nil)
    }

    @Test func stringOrArrayAccessorTakesEitherForm() throws {
        let root = PropertyListCursor(try Self.value("x48-uti-tag-as-string.plist").value)
        for declaration in try root.array("UTExportedTypeDeclarations") ?? [] {
            let conforms = try declaration.stringOrArray("UTTypeConformsTo")
            #expect(conforms?.isEmpty == false)
            let tags = try declaration.dictionary("UTTypeTagSpecification")
            #expect(try tags?.stringOrArray("public.filename-extension")?.isEmpty == false)
        }
    }

    @Test func externalDTDIsNeverFetchedAndEntitiesNeverRead() throws {
        // x30 names a local file in an external entity; the reader refuses the declaration itself,
        // so the file is never opened (the error is about the declaration, not the file).
        do {
            _ = try Self.value("x30-xxe-file.plist")
            Issue.record("accepted an external entity")
        } catch let error as PropertyListError {
            #expect(error.message.contains("entity declarations are not allowed"))
        }
        #expect(try Self.value("x31-xxe-network-dtd.plist").format == .xml)
    }
}
