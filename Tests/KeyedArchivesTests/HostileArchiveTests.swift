import Foundation
import KeyedArchives
import PropertyLists
import TestHelpers
import Testing

/// The 13 hostile archives of the corpus (Foundation on Linux crashes on 04, 07, 09 and 10):
/// each gets the error its case calls for, with the object and the key path, or the stated value.
@Suite struct HostileArchiveTests {
    static func package(_ number: Int) -> KeyedArchiveError? {
        ArchiveCorpus.error { _ = try AppDataPackage(unarchiving: try ArchiveCorpus.hostileBytes(number)) }
    }

    static func array(_ number: Int, limits: KeyedArchiveLimits = .init()) -> KeyedArchiveError? {
        ArchiveCorpus.error {
            _ = try KeyedUnarchiver.unarchivedValue(from: try ArchiveCorpus.hostileBytes(number), allowing: ["NSArray", "NSString"], limits: limits)
        }
    }

    @Test func allThirteenArePresent() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: ArchiveCorpus.hostile.path)
        #expect(names.filter { $0.hasSuffix(".bplist") }.count == 13)
    }

    @Test func controlDecodes() throws {
        let package = try AppDataPackage(unarchiving: try ArchiveCorpus.hostileBytes(0))
        #expect(package.payload.count == 5)
        #expect(package.sourceApplicationName == "Person Editor")
    }

    @Test func referenceOutOfRange() {
        let error = Self.package(1)
        #expect(error?.reason == .referenceOutOfRange(999, objectCount: 8))
        #expect(error?.objectIndex == 1)
        #expect(error?.keyPath == keys("kENHPackageDataKey", "payload"))
    }

    @Test func stringWhereDataIsExpected() {
        let error = Self.package(2)
        #expect(error?.reason == .typeMismatch(expected: "an NSData", found: "an NSString"))
        #expect(error?.objectIndex == 2)
        #expect(error?.keyPath == keys("kENHPackageDataKey", "payload"))
    }

    @Test func integerWhereAReferenceIsExpected() {
        let error = Self.package(3)
        #expect(error?.reason == .notAReference(found: "an integer (7)"))
        #expect(error?.objectIndex == 1)
        #expect(error?.keyPath == keys("kENHPackageDataKey", "payload"))
    }

    @Test func payloadPointingBackAtThePackageIsACycle() {
        let error = Self.package(4)
        #expect(error?.reason == .cycle(objectIndex: 1))
        #expect(error?.keyPath == keys("kENHPackageDataKey", "payload"))
    }

    @Test func unknownClass() {
        let error = Self.package(5)
        #expect(error?.reason == .classNotAllowed(className: "NoSuchClass", allowed: ["ENHAppDataPackage"]))
        #expect(error?.objectIndex == 1)
        #expect(error?.keyPath == keys("kENHPackageDataKey"))
    }

    @Test func moduleQualifiedClassName() {
        let error = Self.package(6)
        #expect(error?.reason == .classNotAllowed(className: "keyedarchive.DataPackage", allowed: ["ENHAppDataPackage"]))
        #expect(error?.description.contains("module-qualified Swift class name") == true)
    }

    @Test func classReferenceToAString() {
        let error = Self.package(7)
        guard case .malformedClass(let what)? = error?.reason else { Issue.record("\(String(describing: error))"); return }
        #expect(what.contains("object 2") && what.contains("a string"))
        #expect(error?.objectIndex == 1)
        #expect(error?.keyPath == keys("kENHPackageDataKey", "$class"))
    }

    @Test func otherTopLevelKey() {
        let error = Self.package(8)
        #expect(error?.reason == .missingTopLevelKey("kENHPackageDataKey", available: ["root"]))
        #expect(error?.description == "at $top: $top has no key 'kENHPackageDataKey' (it has 'root')")
    }

    @Test func arrayContainingItself() {
        let error = Self.array(9)
        #expect(error?.reason == .cycle(objectIndex: 1))
        #expect(error?.keyPath == PropertyListPath([.key("root"), .key("NS.objects"), .index(0)]))
    }

    @Test func arrayNested100000Deep() {
        var limits = KeyedArchiveLimits()
        limits.maximumDepth = 100
        let error = Self.array(10, limits: limits)
        #expect(error?.reason == .tooDeep(limit: 100))
        #expect(error?.objectIndex == 101)
        // With the default limits the depth limit or the stack guard stops it, whichever first.
        let byDefault = Self.array(10)
        #expect(byDefault?.reason == .tooDeep(limit: 512) || { if case .stackExhausted? = byDefault?.reason { true } else { false } }())
    }

    @Test func otherArchiver() {
        #expect(Self.array(11)?.reason == .unsupportedArchiver("Evil"))
    }

    @Test func otherVersion() {
        #expect(Self.array(12)?.reason == .unsupportedVersion("99999"))
    }

    @Test(arguments: 0..<13)
    func resolvingForPlutilNeverCrashes(_ number: Int) throws {
        let bytes = try ArchiveCorpus.hostileBytes(number)
        guard let archive = try? KeyedArchive(parsing: bytes) else { #expect([11, 12].contains(number)); return }
        let error = ArchiveCorpus.error { _ = try archive.resolvedTopLevel() }
        // Cases whose problem is in the reference graph fail; type confusions are data to plutil.
        #expect((error != nil) == [1, 4, 7, 9, 10].contains(number), "case \(number): \(String(describing: error))")
    }
}
