import Foundation
import KeyedArchives
import PropertyLists
import TestHelpers
import Testing

/// Every archive the keyed-archive fuzzer turned up (Fuzz/Regressions/keyed-*): it reads or is
/// refused without a crash, and what decodes survives the fuzzer's round trip.
@Suite struct KeyedFuzzRegressionTests {
    static let directory = TestSupport.packageRoot.appendingPathComponent("Fuzz/Regressions")
    static let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasPrefix("keyed-") }.sorted()

    @Test func regressionsArePresent() { #expect(Self.files.count >= 1) }

    @Test(arguments: files)
    func decodesAndRoundTripsLikeTheFuzzer(_ name: String) throws {
        let bytes = Array(try Data(contentsOf: Self.directory.appendingPathComponent(name)))
        guard let archive = try? KeyedArchive(parsing: bytes) else { return }
        _ = try? archive.resolvedTopLevel()
        #expect(try KeyedArchive(parsing: archive.encoded(as: .binary)) == archive)
        let everything = ArchiveClass.foundationClassNames.union(["NSObject"])
        for key in archive.top.keys {
            guard let value = try? KeyedUnarchiver(archive: archive).decodeValue(forKey: key, allowing: everything) else { continue }
            let first = try KeyedArchiver.archivedData(withRootValue: value)
            let again = try KeyedUnarchiver.unarchivedValue(from: first, allowing: everything)
            #expect(again == value)
            let second = try KeyedArchiver.archivedData(withRootValue: again)
            #expect(try KeyedArchive(parsing: first).resolvedTopLevel() == KeyedArchive(parsing: second).resolvedTopLevel())
        }
    }

    @Test func referencesInsideAMixedInlineArrayAreDecoded() throws {
        // The first finding: an unknown class whose NS.objects mixes a string with references.
        let bytes = Array(try Data(contentsOf: Self.directory.appendingPathComponent("keyed-mixed-inline-references.bplist")))
        let value = try KeyedUnarchiver.unarchivedValue(from: bytes, allowing: ["NSObject"])
        guard case .object(let object) = value, case .array(let items)? = object.fields["NS.objects"] else {
            Issue.record("\(value)"); return
        }
        #expect(object.archiveClass.name == "NWDictionary")
        #expect(items.count == 4)
        #expect(items[1] == .object(.string("hello")))
        guard case .inline(.string)? = items.first else { Issue.record("\(items)"); return }
    }

    @Test func archiveEqualityIgnoresTheOrderOfTopLevelKeys() throws {
        // The second finding: six $top keys come back from the binary writer in CF's hash
        // order, which an order-sensitive comparison took for a change.
        let bytes = Array(try Data(contentsOf: Self.directory.appendingPathComponent("keyed-top-keys-in-hash-order.bplist")))
        let archive = try KeyedArchive(parsing: bytes)
        let again = try KeyedArchive(parsing: archive.encoded(as: .binary))
        #expect(Array(again.top.keys) != Array(archive.top.keys))
        #expect(again == archive)
        #expect(again.hashValue == archive.hashValue)
        var other = archive
        other.top["payload"] = .uid(2)
        #expect(other != archive)
    }
}
