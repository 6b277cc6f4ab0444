import Foundation
import OrderedCollections
import PropertyLists
import SharedDefaults
import Testing
import TestHelpers

@Suite struct SharedDefaultsAPITests {
    func suite(_ folder: String, _ name: String = "group.com.example.test") throws -> SharedDefaults {
        SharedDefaults(location: try DefaultsLocation(suite: name, folder: folder))
    }

    @Test func typedValuesRoundTripAndConvertAsFoundationDoes() throws {
        let defaults = try suite(try Probe.folder())
        defaults.set("hello", forKey: "s")
        defaults.set(42, forKey: "i")
        defaults.set(2.5, forKey: "d")
        defaults.set(true, forKey: "b")
        defaults.set(.data([1, 2, 3]), forKey: "data")
        defaults.set(.array([.string("a"), .string("b")]), forKey: "strings")
        defaults.set(.dictionary(["k": .integer(1)]), forKey: "dict")
        #expect(defaults.string(forKey: "s") == "hello")
        #expect(defaults.integer(forKey: "i") == 42 && defaults.integer(forKey: "d") == 2 && defaults.integer(forKey: "b") == 1)
        #expect(defaults.double(forKey: "d") == 2.5 && defaults.double(forKey: "i") == 42)
        #expect(defaults.bool(forKey: "b") && defaults.bool(forKey: "i") && !defaults.bool(forKey: "missing"))
        #expect(defaults.data(forKey: "data") == [1, 2, 3])
        #expect(defaults.stringArray(forKey: "strings") == ["a", "b"])
        #expect(defaults.dictionary(forKey: "dict") == ["k": .integer(1)])
        #expect(defaults.string(forKey: "i") == nil && defaults.integer(forKey: "missing") == 0)
        defaults.removeObject(forKey: "s")
        #expect(defaults.object(forKey: "s") == nil)
        #expect(defaults.lastError == nil)
    }

    @Test func registeredDefaultsShowThroughUntilSet() throws {
        let defaults = try suite(try Probe.folder())
        defaults.register(defaults: ["Theme": .string("light"), "Size": .integer(12)])
        #expect(defaults.string(forKey: "Theme") == "light")
        defaults.set("dark", forKey: "Theme")
        #expect(defaults.string(forKey: "Theme") == "dark")
        let all = defaults.dictionaryRepresentation()
        #expect(all["Theme"] == .string("dark") && all["Size"] == .integer(12))
        #expect(defaults.persistentDomain() == ["Theme": .string("dark")], "registered values are not stored")
        defaults.removeObject(forKey: "Theme")
        #expect(defaults.string(forKey: "Theme") == "light")
    }

    @Test func anotherObjectSeesAWriteWithoutSynchronizeAndPlutilReadsTheMergedFile() throws {
        let folder = try Probe.folder()
        let writer = try suite(folder), reader = try suite(folder)
        #expect(reader.object(forKey: "k") == nil)
        writer.set("v1", forKey: "k")
        #expect(reader.string(forKey: "k") == "v1")
        #expect(writer.synchronize())
        let file = writer.location.propertyList
        let lint = try TestSupport.run(TestSupport.plutil, ["-lint", file])
        #expect(lint.status == 0, "\(lint.out)")
        #expect(try TestSupport.read(URL(fileURLWithPath: file)).value == .dictionary(["k": .string("v1")]))
        // After the merge the journal is empty and a fresh object reads the property list.
        #expect((try FileManager.default.attributesOfItem(atPath: writer.location.journal)[.size] as? Int) == 0)
        #expect(try suite(folder).string(forKey: "k") == "v1")
    }

    @Test func modifyIsOneStepAndReplacingTheDomainDropsOtherKeys() throws {
        let folder = try Probe.folder()
        let defaults = try suite(folder)
        defaults.set(1, forKey: "count")
        defaults.set("x", forKey: "other")
        try defaults.modify { values in [("count", .integer((values["count"].flatMap { if case .integer(let n) = $0 { n } else { nil } } ?? 0) + 1))] }
        #expect(try suite(folder).integer(forKey: "count") == 2)
        try defaults.setPersistentDomain(["only": .bool(true)])
        #expect(try suite(folder).persistentDomain() == ["only": .bool(true)])
        try defaults.removePersistentDomain()
        #expect(try suite(folder).persistentDomain().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: defaults.location.propertyList))
    }

    @Test func damagedJournalBytesAreSkippedAndLaterRecordsKept() throws {
        let folder = try Probe.folder()
        let defaults = try suite(folder)
        defaults.set("before", forKey: "a")
        // A record cut short (as by a writer killed inside its write), then garbage, then
        // another process's intact records.
        let journal = FileHandle(forWritingAtPath: defaults.location.journal)!
        journal.seekToEndOfFile()
        journal.write(Data("DFJ1".utf8 + [200, 0, 0, 0, 1, 2, 3, 4] + Array(repeating: 0x41, count: 30)))
        journal.write(Data("not a record at all".utf8))
        try journal.close()
        try suite(folder).save(.string("after"), forKey: "b")
        let fresh = try suite(folder)
        #expect(fresh.string(forKey: "a") == "before" && fresh.string(forKey: "b") == "after")
        #expect(fresh.synchronize())
        #expect(try TestSupport.read(URL(fileURLWithPath: fresh.location.propertyList)).value == .dictionary(["a": .string("before"), "b": .string("after")]))
    }

    @Test func unreadableStoreIsReportedAndNeverOverwritten() throws {
        let folder = try Probe.folder()
        let defaults = try suite(folder)
        try Data("<plist><dict><key>k</key>".utf8).write(to: URL(fileURLWithPath: defaults.location.propertyList))
        defaults.set("v", forKey: "new")
        #expect(!defaults.synchronize())
        guard case .unreadableStore(let path, _)? = defaults.lastError else { Issue.record("\(String(describing: defaults.lastError))"); return }
        #expect(path == defaults.location.propertyList)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "<plist><dict><key>k</key>", "the damaged file is left for the user")
    }

    @Test func hugeValueIsRefusedWithItsKey() throws {
        let defaults = try suite(try Probe.folder())
        #expect(throws: SharedDefaultsError.self) { try defaults.save(.data(Array(repeating: 7, count: 17 << 20)), forKey: "big") }
        defaults.set(.data(Array(repeating: 7, count: 17 << 20)), forKey: "big")
        guard case .valueTooLarge(let key, _)? = defaults.lastError else { Issue.record("no error"); return }
        #expect(key == "big" && defaults.object(forKey: "big") == nil)
    }
}
