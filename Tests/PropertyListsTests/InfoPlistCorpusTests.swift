import Foundation
import PropertyLists
import TestHelpers
import Testing

/// The 31 real Info.plists: every one parses, equals Python plistlib's reading, and survives
/// XML ↔ binary ↔ XML unchanged.
@Suite struct InfoPlistCorpusTests {
    let files = TestSupport.corpusFiles()

    @Test func corpusIsPresent() {
        #expect(files.count == 31)
    }

    @Test func everyFileEqualsPlistlibReading() throws {
        let expected = try CanonicalText.pythonReading(files)
        #expect(expected.count == files.count)
        for (file, python) in zip(files, expected) {
            let ours = try TestSupport.read(file)
            #expect(CanonicalText.of(ours.value) == python, "\(file.lastPathComponent)")
        }
    }

    @Test func plistlibReadsTheBinaryAndXMLWeWrite() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var written: [URL] = []
        var ours: [String] = []
        for file in files {
            let value = try TestSupport.read(file).value
            let binary = dir.appendingPathComponent(file.lastPathComponent + ".bin")
            try Data(BinaryPropertyListWriter().write(value)).write(to: binary)
            let xml = dir.appendingPathComponent(file.lastPathComponent + ".xml")
            try Data(XMLPropertyListWriter().write(value)).write(to: xml)
            written += [binary, xml]
            ours += [CanonicalText.of(value), CanonicalText.of(value)]
        }
        #expect(try CanonicalText.pythonReading(written) == ours)
    }

    @Test func xmlToBinaryToXMLPreservesEveryValue() throws {
        for file in files {
            let original = try TestSupport.read(file)
            let binary = BinaryPropertyListWriter().write(original.value)
            let fromBinary = try PropertyListReader.read(binary)
            #expect(fromBinary.format == .binary)
            #expect(fromBinary.value == original.value, "\(file.lastPathComponent)")
            let xml = try XMLPropertyListWriter().write(fromBinary.value)
            let fromXML = try PropertyListReader.read(xml)
            #expect(fromXML.value == original.value, "\(file.lastPathComponent)")
            // Writing is deterministic: the same value gives the same bytes (with keys sorted, since
            // the XML writer sorts them and the binary writer keeps source order by default).
            #expect(try XMLPropertyListWriter().write(fromXML.value) == xml)
            let sorted = BinaryPropertyListWriter(sortsKeys: true)
            #expect(sorted.write(fromXML.value) == sorted.write(original.value), "\(file.lastPathComponent)")
        }
    }

    @Test func keyOrderIsKeptFromTheSource() throws {
        let file = try #require(files.first { $0.lastPathComponent.hasPrefix("toland__qlmarkdown") }, "the corpus (../shared) is missing")
        let bytes = Array(try Data(contentsOf: file))
        let keys = try PropertyListReader.read(bytes).value.dictionaryValue!.keys
        // The first keys exactly as they stand in the file.
        #expect(Array(keys.prefix(3)) == ["CFBundleDevelopmentRegion", "CFBundleDocumentTypes", "CFBundleExecutable"])
    }

    @Test func lintLocationsPointAtTheKeyElement() throws {
        let file = try #require(files.first { $0.lastPathComponent.hasPrefix("toland__qlmarkdown") }, "the corpus (../shared) is missing")
        var options = PropertyListReadOptions()
        options.recordsLocations = true
        let document = try PropertyListReader.read(Array(try Data(contentsOf: file)), options: options)
        let lines = String(decoding: try Data(contentsOf: file), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let path = PropertyListPath([.key("CFBundleDocumentTypes"), .index(0), .key("LSItemContentTypes"), .index(1)])
        let location = try #require(document.location(of: path)?.line)
        #expect(lines[location - 1].contains("net.multimarkdown.text"))
        let keyLine = try #require(document.location(of: PropertyListPath([.key("CFBundleIdentifier")]))?.line)
        #expect(lines[keyLine - 1].contains("<key>CFBundleIdentifier</key>"))
    }
}
