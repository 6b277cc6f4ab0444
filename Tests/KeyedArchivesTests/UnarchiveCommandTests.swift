import Foundation
import KeyedArchives
import PropertyLists
import TestHelpers
import Testing

/// `plutil -unarchive`: an archive's `$top` with references resolved and each `$class` named, in
/// any output format, with the other verbs; hostile archives fail with the object and key path.
@Suite struct UnarchiveCommandTests {
    static let complex = ArchiveCorpus.foundation.appendingPathComponent("NSKeyedUnarchiver-ComplexTest.plist").path

    @Test func aloneItPrintsXMLAndLeavesTheArchiveAlone() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("complex.plist")
        try FileManager.default.copyItem(atPath: Self.complex, toPath: copy.path)
        let before = try Data(contentsOf: copy)
        let run = try TestSupport.run(TestSupport.plutil, ["-unarchive", copy.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Data(contentsOf: copy) == before)
        let value = try PropertyListReader.read(Array(run.stdout))
        #expect(value.format == .xml)
        let root = try #require(value.value["root"])
        #expect(root["$class"] == .string("NSDictionary"))
        #expect(root["NS.keys"] == .array(["array", "string", "url", "uuid"].map(PropertyList.string)))
        #expect(root["NS.objects"]?[1] == .string("hello"))
        #expect(root["NS.objects"]?[2]?["NS.base"]?["NS.relative"] == .string("https://www.swift.org"))
        #expect(root["NS.objects"]?[2]?["NS.base"]?["NS.base"] == .string("$null"))
        #expect(root["NS.objects"]?[0]?["NS.objects"]?[0] == .dictionary(["$class": .string("NSNull")]))
    }

    @Test func convertsToJSONForScripts() throws {
        let run = try TestSupport.run(TestSupport.plutil, ["-unarchive", "-convert", "json", "-o", "-", ArchiveCorpus.directory.appendingPathComponent("dict_array_date.bplist").path])
        #expect(run.status == 0, "\(run.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        let root = try #require(json["root"] as? [String: Any])
        #expect(root["$class"] as? String == "NSDictionary")
        #expect(root["NS.keys"] as? [String] == ["a", "n", "k"])
        let objects = try #require(root["NS.objects"] as? [Any])
        #expect(objects[1] as? Int == 7)
        #expect((objects[0] as? [String: Any])?["$class"] as? String == "NSArray")
    }

    @Test func extractWorksOnTheResolvedGraph() throws {
        let file = ArchiveCorpus.directory.appendingPathComponent("package_forkey.bplist").path
        let name = try TestSupport.run(TestSupport.plutil, ["-unarchive", "-extract", "kENHPackageDataKey.sourceApplicationName", "raw", "-o", "-", file])
        #expect(name.status == 0)
        #expect(name.out == "Person Editor\n")
        let cls = try TestSupport.run(TestSupport.plutil, ["-unarchive", "-extract", "kENHPackageDataKey.$class", "raw", "-o", "-", file])
        #expect(cls.out == "keyedarchive.DataPackage\n")
        let payload = try TestSupport.run(TestSupport.plutil, ["-unarchive", "-extract", "kENHPackageDataKey.payload", "raw", "-o", "-", file])
        #expect(payload.out == "YWFhYWE=\n")
    }

    @Test func convertWritesWhereToldLikeConvert() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out.bin")
        let run = try TestSupport.run(TestSupport.plutil, ["-unarchive", "-convert", "binary1", "-o", out.path, Self.complex])
        #expect(run.status == 0, "\(run.stderr)")
        let written = try PropertyListReader.read(Array(try Data(contentsOf: out)))
        #expect(written.format == .binary)
        #expect(written.value["root"]?["NS.keys"]?[3] == .string("uuid"))
    }

    @Test func hostileArchivesFailWithObjectAndKeyPath() throws {
        let cycle = try TestSupport.run(TestSupport.plutil, ["-unarchive", ArchiveCorpus.hostile.appendingPathComponent("09.bplist").path])
        #expect(cycle.status == 1)
        #expect(cycle.stderr.contains("09.bplist: object 1 at root.NS.objects[0]: object 1 contains itself (a reference cycle)"))
        let outOfRange = try TestSupport.run(TestSupport.plutil, ["-unarchive", ArchiveCorpus.hostile.appendingPathComponent("01.bplist").path])
        #expect(outOfRange.status == 1)
        #expect(outOfRange.stderr.contains("object 1 at kENHPackageDataKey.payload: reference 999 is beyond the 8 objects of the archive"))
        let deep = try TestSupport.run(TestSupport.plutil, ["-unarchive", ArchiveCorpus.hostile.appendingPathComponent("10.bplist").path])
        #expect(deep.status == 1)
        #expect(deep.stderr.contains("objects nested"))
    }

    @Test func anOrdinaryPlistIsNotAnArchive() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("Info.plist")
        try Data("<plist><dict><key>a</key><string>b</string></dict></plist>".utf8).write(to: file)
        let run = try TestSupport.run(TestSupport.plutil, ["-unarchive", file.path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("not a keyed archive: there is no $archiver key"))
    }
}
