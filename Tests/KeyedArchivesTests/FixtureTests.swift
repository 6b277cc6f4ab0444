import Foundation
import KeyedArchives
import PropertyLists
import TestHelpers
import Testing

/// The archives written on macOS (swift-corelibs-foundation's unarchiver fixtures): each decodes
/// to the values its name promises, and re-encoding the decoded values with our archiver gives
/// the same object table and the same bytes, binary and XML.
@Suite struct MacOSFixtureTests {
    @Test func allTenFixturesArePresent() { #expect(ArchiveCorpus.foundationFixtures.count == 10) }

    @Test(arguments: ArchiveCorpus.foundationFixtures)
    func reEncodingReproducesTheObjectTableAndTheBytes(_ name: String) throws {
        let bytes = try ArchiveCorpus.foundationBytes(name)
        let original = try KeyedArchive(parsing: bytes)
        let value = try ArchiveCorpus.decodeRoot(bytes)
        let archiver = KeyedArchiver()
        try archiver.encode(value, forKey: "root")
        let again = archiver.finishEncoding()
        #expect(again.objects == original.objects, "object table of \(name)")
        #expect(again.top == original.top)
        let format: ArchiveFormat = ArchiveCorpus.isBinary(bytes) ? .binary : .xml
        #expect(try again.encoded(as: format) == bytes, "bytes of \(name)")
    }

    @Test(arguments: ArchiveCorpus.foundationFixtures)
    func rawArchiveRoundTripsThroughBothFormats(_ name: String) throws {
        let original = try KeyedArchive(parsing: try ArchiveCorpus.foundationBytes(name))
        for format in ArchiveFormat.allCases {
            let again = try KeyedArchive(parsing: try original.encoded(as: format))
            #expect(again == original, "\(name) through \(format)")
        }
    }

    @Test func complexTestIsTheBinaryOneWithOrphanUIDs() throws {
        // The one binary fixture: CF wrote a second copy of a UID each time an object was
        // referred to again; our writer must reproduce those copies, not just the values.
        let bytes = try ArchiveCorpus.foundationBytes("NSKeyedUnarchiver-ComplexTest.plist")
        #expect(ArchiveCorpus.isBinary(bytes))
        let trailer = bytes.suffix(32)
        let objectCount = trailer.dropFirst(8).prefix(8).reduce(0) { $0 << 8 | Int($1) }
        #expect(objectCount == 84)
        let value = try ArchiveCorpus.decodeRoot(bytes)
        #expect(try KeyedArchiver.archivedData(withRootValue: value) == bytes)
    }

    @Test func arrayTest() throws {
        let value = try ArchiveCorpus.decodeRoot(try ArchiveCorpus.foundationBytes("NSKeyedUnarchiver-ArrayTest.plist"))
        #expect(value == .array(["baa", "baa", "black", "sheep"].map(ArchivedValue.string)))
    }

    @Test func complexTest() throws {
        let value = try ArchiveCorpus.decodeRoot(try ArchiveCorpus.foundationBytes("NSKeyedUnarchiver-ComplexTest.plist"))
        #expect(value["array"] == .array([.nsNull, .string("hello"), .integer(34545), .dictionary(["key": .string("val")])]))
        #expect(value["string"] == .string("hello"))
        #expect(value["url"] == .url(ArchivedURL("index.xml", base: ArchivedURL("https://www.swift.org"))))
        #expect(value["uuid"] == .uuid(ArchivedUUID(uuidString: "71DC068E-3420-45FF-919E-3A267D55EC22")!))
    }

    @Test func concreteValueTestIsAGenericNSValue() throws {
        let value = try ArchiveCorpus.decodeRoot(try ArchiveCorpus.foundationBytes("NSKeyedUnarchiver-ConcreteValueTest.plist"))
        guard case .object(let object) = value else { Issue.record("not an object: \(value)"); return }
        #expect(object.archiveClass == ArchiveClass("NSValue"))
        #expect(object.fields["$0"] == .object(.string("[3i]")))
        guard case .object(.object(let array))? = object.fields["$1"] else { Issue.record("no $1 object"); return }
        #expect(array.archiveClass.name == "_NSKeyedCoderOldStyleArray")
        #expect(array.fields["$0"] == .inline(.integer(1)) && array.fields["$2"] == .inline(.integer(3)))
        #expect(array.fields["NS.count"] == .inline(.integer(3)) && array.fields["NS.type"] == .inline(.integer(105)))
    }

    @Test func valueStructures() throws {
        func root(_ name: String) throws -> ArchivedValue {
            try ArchiveCorpus.decodeRoot(try ArchiveCorpus.foundationBytes("NSKeyedUnarchiver-\(name)Test.plist"))
        }
        #expect(try root("EdgeInsets") == .value(.edgeInsets(top: 1, left: 2, bottom: 3, right: 4)))
        #expect(try root("Range") == .value(.range(location: 97345, length: 98345)))
        #expect(try root("Rect") == .value(.rect(x: 400, y: 300, width: 200, height: 300)))
        #expect(try root("URL") == .url(ArchivedURL("foo.xml", base: ArchivedURL("https://www.example.com"))))
        #expect(try root("UUID") == .uuid(ArchivedUUID(uuidString: "0AD863BA-7584-40CF-8896-BD87B3280C34")!))
        #expect(try root("OrderedSet") == .orderedSet(["valgeir", "nico", "puzzle"].map(ArchivedValue.string)))
    }

    @Test func notificationIsAGenericObjectWithDecodedFields() throws {
        let value = try ArchiveCorpus.decodeRoot(try ArchiveCorpus.foundationBytes("NSKeyedUnarchiver-NotificationTest.plist"))
        guard case .object(let object) = value else { Issue.record("not an object"); return }
        #expect(object.archiveClass.name == "NSNotification")
        #expect(object.fields["NS.name"] == .object(.string("notification-name")))
        #expect(object.fields["NS.object"] == .object(.string("notification-object")))
        #expect(object.fields["NS.userinfo"] == .object(.dictionary(["notification-key": .string("notification-val")])))
    }

    @Test func notificationIsRefusedUnlessItsClassIsAllowed() throws {
        let bytes = try ArchiveCorpus.foundationBytes("NSKeyedUnarchiver-NotificationTest.plist")
        let error = ArchiveCorpus.error { _ = try KeyedUnarchiver.unarchivedValue(from: bytes, allowing: ArchiveClass.foundationClassNames) }
        #expect(error?.reason == .classNotAllowed(className: "NSNotification", allowed: ArchiveClass.foundationClassNames.sorted()))
        #expect(error?.objectIndex == 1)
        #expect(error?.keyPath == keys("root"))
    }
}

/// The archives Foundation on Linux wrote (the seed's data package and a dictionary): they decode,
/// and our archiver lays out the same objects in the same order.
@Suite struct LinuxFixtureTests {
    static let linuxName = ["keyedarchive.DataPackage": "ENHAppDataPackage"]

    @Test func packageUnderTheSeedsKey() throws {
        let package = try AppDataPackage(unarchiving: try ArchiveCorpus.bytes("package_forkey.bplist"), classNameSubstitutions: Self.linuxName)
        #expect(package == AppDataPackage(sourceApplicationName: "Person Editor", sourceApplicationIdentifier: "com.EnharmonicHQ.Editor",
                                          sourceApplicationVersion: "1.0", sourceApplicationBuild: "42", payload: Array("aaaaa".utf8)))
    }

    @Test func packageUnderRoot() throws {
        let package = try AppDataPackage(unarchiving: try ArchiveCorpus.bytes("package_root.bplist"), forKey: "root",
                                         classNameSubstitutions: Self.linuxName)
        #expect(package.payload == Array("aaaaa".utf8))
        #expect(package.sourceApplicationIdentifier == "com.EnharmonicHQ.Editor")
    }

    @Test func theModuleQualifiedNameIsRefusedWithoutASubstitution() throws {
        let error = ArchiveCorpus.error { _ = try AppDataPackage(unarchiving: try ArchiveCorpus.bytes("package_forkey.bplist")) }
        #expect(error?.reason == .classNotAllowed(className: "keyedarchive.DataPackage", allowed: ["ENHAppDataPackage"]))
        #expect(error?.description.contains("module-qualified") == true)
    }

    @Test func ourPackageArchiveHasFoundationsLayoutWithTheClassNameAsGiven() throws {
        let linux = try KeyedArchive(parsing: try ArchiveCorpus.bytes("package_forkey.bplist"))
        let package = try AppDataPackage(unarchiving: try ArchiveCorpus.bytes("package_forkey.bplist"), classNameSubstitutions: Self.linuxName)
        let ours = try KeyedArchive(parsing: try package.dataRepresentation())
        #expect(ours.top == linux.top)
        #expect(ours.objects.count == linux.objects.count)
        for (i, (a, b)) in zip(ours.objects, linux.objects).enumerated() where i != 7 {
            #expect(a == b, "object \(i)")
        }
        #expect(ours.objects[7] == .dictionary(["$classname": .string("ENHAppDataPackage"),
                                                "$classes": .array([.string("ENHAppDataPackage"), .string("NSObject")])]))
    }

    @Test func dictionaryArrayAndDate() throws {
        let bytes = try ArchiveCorpus.bytes("dict_array_date.bplist")
        let value = try KeyedUnarchiver.unarchivedValue(from: bytes, allowing: ArchiveClass.propertyListClassNames)
        #expect(value["k"] == .string("v"))
        #expect(value["n"] == .integer(7))
        #expect(value["a"] == .array([.string("x"), .date(PropertyListDate(secondsSinceReferenceDate: 0))]))
        let again = try KeyedArchive(parsing: try KeyedArchiver.archivedData(withRootValue: value))
        #expect(again == (try KeyedArchive(parsing: bytes)))
    }
}
