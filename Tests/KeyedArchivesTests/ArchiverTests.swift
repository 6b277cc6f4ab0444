import Foundation
import KeyedArchives
import PropertyLists
import TestHelpers
import Testing

/// A person with a name, an optional manager (a shared, possibly cyclic reference) and reports.
private final class Employee: KeyedCoding {
    static let archiveClass = ArchiveClass("ENHEmployee")
    let name: String
    var manager: Employee?
    var reports: [Employee] = []

    init(name: String) { self.name = name }

    func encode(with archiver: KeyedArchiver) throws(KeyedArchiveError) {
        archiver.encode(name, forKey: "name")
        try archiver.encode(manager, forKey: "manager")
        try archiver.encodeArray(reports, forKey: "reports")
    }

    /// Decodes the reports eagerly and the manager not at all: a report's manager is this very
    /// object, a cycle, which the caller resolves through decodeReference(forKey:) instead.
    init(from unarchiver: KeyedUnarchiver) throws(KeyedArchiveError) {
        guard let name = try unarchiver.decodeString(forKey: "name") else { throw unarchiver.failure(.missingValue(key: "name"), forKey: "name") }
        self.name = name
        self.managerReference = try unarchiver.decodeReference(forKey: "manager")
        self.reports = try unarchiver.decodeArray(of: Employee.self, forKey: "reports") ?? []
    }

    var managerReference: ArchiveReference?
}

/// A value type with every kind of field NSCoder offers.
private struct Sample: KeyedCoding, Equatable {
    static let archiveClass = ArchiveClass("ENHSample", superclasses: ["ENHBase", "NSObject"])
    var count: Int64
    var ratio: Double
    var flag: Bool
    var bytes: [UInt8]
    var title: String?
    var blob: [UInt8]?
    var when: PropertyListDate?
    var link: ArchivedURL?
    var id: ArchivedUUID?
    var extra: ArchivedValue?

    func encode(with archiver: KeyedArchiver) throws(KeyedArchiveError) {
        archiver.encode(count, forKey: "count")
        archiver.encode(ratio, forKey: "ratio")
        archiver.encode(flag, forKey: "flag")
        archiver.encodeBytes(bytes, forKey: "bytes")
        archiver.encode(title, forKey: "title")
        archiver.encode(data: blob, forKey: "blob")
        if let when { try archiver.encode(.date(when), forKey: "when") }
        if let link { try archiver.encode(.url(link), forKey: "link") }
        if let id { try archiver.encode(.uuid(id), forKey: "id") }
        if let extra { try archiver.encode(extra, forKey: "extra") }
    }

    init(count: Int64, ratio: Double, flag: Bool, bytes: [UInt8], title: String?, blob: [UInt8]?, when: PropertyListDate?,
         link: ArchivedURL?, id: ArchivedUUID?, extra: ArchivedValue?) {
        (self.count, self.ratio, self.flag, self.bytes, self.title, self.blob) = (count, ratio, flag, bytes, title, blob)
        (self.when, self.link, self.id, self.extra) = (when, link, id, extra)
    }

    init(from unarchiver: KeyedUnarchiver) throws(KeyedArchiveError) {
        count = try unarchiver.decodeInteger(forKey: "count")
        ratio = try unarchiver.decodeDouble(forKey: "ratio")
        flag = try unarchiver.decodeBool(forKey: "flag")
        bytes = try unarchiver.decodeBytes(forKey: "bytes") ?? []
        title = try unarchiver.decodeString(forKey: "title")
        blob = try unarchiver.decodeData(forKey: "blob")
        when = try unarchiver.decodeDate(forKey: "when")
        link = try unarchiver.decodeURL(forKey: "link")
        id = try unarchiver.decodeUUID(forKey: "id")
        extra = try unarchiver.decodeValue(forKey: "extra", allowing: ArchiveClass.foundationClassNames)
    }
}

/// The archiver and unarchiver on values built here: every Foundation kind, app types, shared
/// and cyclic class instances, secure decoding, and both formats.
@Suite struct ArchiverTests {
    static let everyKind: ArchivedValue = .dictionary([
        "string": .string("café ☕️"),
        "mutableString": .mutableString("grows"),
        "data": .data([0, 1, 2, 255]),
        "mutableData": .mutableData([9, 8]),
        "integer": .integer(-42),
        "big": .unsignedInteger(UInt64.max),
        "real": .real(2.5),
        "bool": .bool(true),
        "date": .date(PropertyListDate(secondsSinceReferenceDate: 123_456.5)),
        "array": .array([.string("a"), .integer(1), .null, .nsNull]),
        "mutableArray": .array([.string("a")], mutable: true),
        "set": .set([.string("x"), .string("y")]),
        "orderedSet": .orderedSet([.string("p"), .string("q")], mutable: true),
        "nested": .dictionary([.init(key: .integer(7), value: .string("number key"))], mutable: true),
        "url": .url(ArchivedURL("b/c.html", base: ArchivedURL("https://example.com/a/"))),
        "uuid": .uuid(ArchivedUUID(uuidString: "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")!),
        "point": .value(.point(x: 1.5, y: -2)),
        "size": .value(.size(width: 0.1, height: 3)),
        "rect": .value(.rect(x: 0, y: 0, width: 640, height: 480)),
        "range": .value(.range(location: 3, length: 9)),
        "transform": .value(.affineTransform(a: 1, b: 0, c: 0, d: 1, tx: 5, ty: 6)),
        "insets": .value(.edgeInsets(top: 1, left: 2, bottom: 3, right: 4, uiKit: true)),
        "offset": .value(.offset(horizontal: 1, vertical: 2)),
        "directional": .value(.directionalEdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4)),
        "custom": .object(ArchivedObject(archiveClass: ArchiveClass("ENHWidget"), fields: [
            "size": .inline(.integer(3)), "label": .object(.string("knob")), "parts": .objects([.string("a"), .string("b")]),
        ])),
    ])

    @Test(arguments: ArchiveFormat.allCases)
    func everyFoundationKindRoundTrips(_ format: ArchiveFormat) throws {
        let bytes = try KeyedArchiver.archivedData(withRootValue: Self.everyKind, format: format)
        let back = try KeyedUnarchiver.unarchivedValue(from: bytes, allowing: ArchiveClass.foundationClassNames.union(["ENHWidget"]))
        #expect(back == Self.everyKind)
    }

    @Test func customObjectsAreRefusedUnlessAllowed() throws {
        let bytes = try KeyedArchiver.archivedData(withRootValue: Self.everyKind)
        let error = ArchiveCorpus.error { _ = try KeyedUnarchiver.unarchivedValue(from: bytes, allowing: ArchiveClass.foundationClassNames) }
        #expect(error?.reason == .classNotAllowed(className: "ENHWidget", allowed: ArchiveClass.foundationClassNames.sorted()))
        #expect(error?.keyPath == PropertyListPath([.key("root"), .key("NS.objects"), .index(24)]))
    }

    @Test func membersAreCheckedAgainstTheAllowedClasses() throws {
        let bytes = try KeyedArchiver.archivedData(withRootValue: .array([.string("a"), .data([1])]))
        let error = ArchiveCorpus.error { _ = try KeyedUnarchiver.unarchivedValue(from: bytes, allowing: ["NSArray", "NSString"]) }
        #expect(error?.reason == .classNotAllowed(className: "NSData", allowed: ["NSArray", "NSString"]))
        #expect(error?.objectIndex == 3)
        // A mutable subclass is allowed by its immutable class, as in Apple's secure decoding.
        let mutable = try KeyedArchiver.archivedData(withRootValue: .array([.mutableString("a")], mutable: true))
        #expect(try KeyedUnarchiver.unarchivedValue(from: mutable, allowing: ["NSArray", "NSString"]) == .array([.mutableString("a")], mutable: true))
    }

    @Test func valueTypeWithEveryFieldKind() throws {
        let sample = Sample(count: 1 << 40, ratio: 0.25, flag: true, bytes: [1, 2, 3], title: "Title", blob: [4, 5],
                            when: PropertyListDate(secondsSinceReferenceDate: 10), link: ArchivedURL("https://example.org"),
                            id: ArchivedUUID(bytes: Array(0..<16)), extra: .array([.integer(1), .string("two")]))
        for format in ArchiveFormat.allCases {
            let bytes = try KeyedArchiver.archivedData(withRootObject: sample, format: format)
            #expect(try KeyedUnarchiver.unarchivedObject(of: Sample.self, from: bytes) == sample)
        }
        let empty = Sample(count: 0, ratio: 0, flag: false, bytes: [], title: nil, blob: nil, when: nil, link: nil, id: nil, extra: nil)
        #expect(try KeyedUnarchiver.unarchivedObject(of: Sample.self, from: KeyedArchiver.archivedData(withRootObject: empty)) == empty)
    }

    @Test func classChainIsWrittenAsGiven() throws {
        let sample = Sample(count: 1, ratio: 0, flag: false, bytes: [], title: nil, blob: nil, when: nil, link: nil, id: nil, extra: nil)
        let archiver = KeyedArchiver()
        try archiver.encode(sample, forKey: "root")
        let archive = archiver.finishEncoding()
        #expect(archive.objects.contains(.dictionary(["$classname": .string("ENHSample"),
                                                      "$classes": .array(["ENHSample", "ENHBase", "NSObject"].map(PropertyList.string))])))
        // Nil objects are written as references to $null, as NSKeyedArchiver writes them; $class
        // is added after the fields the object wrote.
        guard case .dictionary(let fields) = archive.objects[1] else { Issue.record("no object 1"); return }
        #expect(fields["title"] == .uid(0))
        #expect(fields["count"] == .integer(1))
        #expect(Array(fields.keys) == ["count", "ratio", "flag", "bytes", "title", "blob", "$class"])
    }

    @Test func inlineFieldsOfTheWrongTypeAreErrors() throws {
        let archiver = KeyedArchiver()
        try archiver.encode(.object(ArchivedObject(archiveClass: Sample.archiveClass, fields: ["count": .inline(.string("many"))])), forKey: "root")
        let bytes = try archiver.encodedData()
        let error = ArchiveCorpus.error { _ = try KeyedUnarchiver.unarchivedObject(of: Sample.self, from: bytes) }
        #expect(error?.reason == .typeMismatch(expected: "an integer", found: "a string"))
        #expect(error?.keyPath == keys("root", "count"))
        #expect(error?.objectIndex == 1)
    }

    @Test func sharedInstanceIsArchivedOnceAndDecodedOnce() throws {
        let boss = Employee(name: "Ada")
        let a = Employee(name: "Bob"), b = Employee(name: "Cy")
        a.manager = boss
        b.manager = boss
        boss.reports = [a, b]
        let archiver = KeyedArchiver()
        try archiver.encodeArray([a, b], forKey: "staff")
        let archive = archiver.finishEncoding()
        // Ada is written once: one object whose name is "Ada".
        let adas = archive.objects.filter { if case .dictionary(let f) = $0, let n = f["name"], case .uid(let u) = n { archive.objects[Int(u)] == .string("Ada") } else { false } }
        #expect(adas.count == 1)
        let unarchiver = KeyedUnarchiver(archive: archive)
        let staff = try #require(try unarchiver.decodeArray(of: Employee.self, forKey: "staff"))
        #expect(staff.map(\.name) == ["Bob", "Cy"])
        // The cycle Ada → reports → Bob → manager → Ada is followed lazily, after the fact.
        let bossA = try #require(try unarchiver.decodeObject(of: Employee.self, at: staff[0].managerReference!))
        let bossB = try #require(try unarchiver.decodeObject(of: Employee.self, at: staff[1].managerReference!))
        #expect(bossA === bossB)
        #expect(bossA.name == "Ada")
        #expect(bossA.reports.map(\.name) == ["Bob", "Cy"])
        #expect(bossA.reports[0] === staff[0])
    }

    @Test func eagerDecodingOfACycleIsAnErrorNotACrash() throws {
        let me = Employee(name: "Loop")
        me.manager = me
        let bytes = try KeyedArchiver.archivedData(withRootObject: me)
        let archive = try KeyedArchive(parsing: bytes)
        guard case .dictionary(let fields) = archive.objects[1] else { Issue.record("no object 1"); return }
        #expect(fields["manager"] == .uid(1))
        let error = ArchiveCorpus.error { _ = try KeyedArchive(parsing: bytes).resolvedTopLevel() }
        #expect(error?.reason == .cycle(objectIndex: 1))
        #expect(error?.keyPath == keys("root", "manager"))
    }

    @Test func secureDecodingRefusesAnotherAppClass() throws {
        let sample = Sample(count: 1, ratio: 0, flag: false, bytes: [], title: nil, blob: nil, when: nil, link: nil, id: nil, extra: nil)
        let bytes = try KeyedArchiver.archivedData(withRootObject: sample)
        let error = ArchiveCorpus.error { _ = try KeyedUnarchiver.unarchivedObject(of: AppDataPackage.self, from: bytes) }
        #expect(error?.reason == .classNotAllowed(className: "ENHSample", allowed: ["ENHAppDataPackage"]))
        // A class known only by its chain: ENHSample is unknown, ENHBase is the one asked for.
        struct Base: KeyedUnarchivable {
            static let archiveClass = ArchiveClass("ENHBase")
            let count: Int64
            init(from unarchiver: KeyedUnarchiver) throws(KeyedArchiveError) { count = try unarchiver.decodeInteger(forKey: "count") }
        }
        #expect(try KeyedUnarchiver.unarchivedObject(of: Base.self, from: bytes).count == 1)
    }

    @Test func typedAccessorsReportTheClassFound() throws {
        let archiver = KeyedArchiver()
        archiver.encode("text", forKey: "s")
        archiver.encode(data: [1], forKey: "d")
        archiver.encode(7, forKey: "i")
        let unarchiver = KeyedUnarchiver(archive: archiver.finishEncoding())
        #expect(ArchiveCorpus.error { _ = try unarchiver.decodeData(forKey: "s") }?.reason == .typeMismatch(expected: "an NSData", found: "an NSString"))
        #expect(ArchiveCorpus.error { _ = try unarchiver.decodeURL(forKey: "d") }?.reason == .typeMismatch(expected: "an NSURL", found: "an NSData"))
        #expect(ArchiveCorpus.error { _ = try unarchiver.decodeString(forKey: "i") }?.reason == .notAReference(found: "an integer (7)"))
        #expect(try unarchiver.decodeString(forKey: "absent") == nil)
        #expect(try unarchiver.decodeInteger(forKey: "absent") == 0)
        #expect(unarchiver.allKeys == ["s", "d", "i"])
    }

    @Test func equalStringsAndNumbersAreStoredOnce() throws {
        let value: ArchivedValue = .array([.string("same"), .string("same"), .integer(5), .integer(5), .real(5), .data([1]), .data([1])])
        let archive = try KeyedArchive(parsing: KeyedArchiver.archivedData(withRootValue: value))
        guard case .dictionary(let array) = archive.objects[1], case .array(let refs)? = array["NS.objects"] else { Issue.record("no array"); return }
        // Strings and numbers by value (an integer and a real apart); data per occurrence.
        #expect(refs == [.uid(2), .uid(2), .uid(3), .uid(3), .uid(4), .uid(5), .uid(6)])
        // Canonically equivalent but different strings stay apart (Swift's == would merge them).
        let nfc = "\u{E9}", nfd = "e\u{301}"
        let two = try KeyedArchive(parsing: KeyedArchiver.archivedData(withRootValue: .array([.string(nfc), .string(nfd)])))
        #expect(two.objects.count == 5)
        let back = try KeyedUnarchiver.unarchivedValue(from: two.encoded(as: .binary), allowing: ["NSArray", "NSString"])
        #expect(back.elements?.map { Array($0.stringValue!.unicodeScalars) } == [Array(nfc.unicodeScalars), Array(nfd.unicodeScalars)])
    }

    @Test func xmlCannotCarryAControlCharacter() throws {
        let archiver = KeyedArchiver()
        archiver.encode("bell\u{7}", forKey: "root")
        let error = ArchiveCorpus.error { _ = try archiver.encodedData(format: .xml) }
        guard case .encodingFailed? = error?.reason else { Issue.record("\(String(describing: error))"); return }
        #expect(error?.keyPath == PropertyListPath([.key("$objects"), .index(1)]))
        #expect(try archiver.encodedData(format: .binary).count > 0)
    }

    @Test func notAnArchive() throws {
        func reason(_ plist: PropertyList) -> KeyedArchiveError.Reason? {
            ArchiveCorpus.error { _ = try KeyedArchive(propertyList: plist) }?.reason
        }
        #expect(reason(.array([])) == .notAnArchive("the top level is an array, not a dictionary"))
        #expect(reason(.dictionary(["$archiver": .string("NSKeyedArchiver")])) == .notAnArchive("there is no $version key"))
        #expect(reason(.dictionary(["$archiver": .string("NSKeyedArchiver"), "$version": .integer(100000), "$objects": .array([.string("x")]),
                                    "$top": .dictionary([:])])) == .notAnArchive("$objects[0] is not the string $null"))
        let garbage = ArchiveCorpus.error { _ = try KeyedArchive(parsing: Array("bplist00 not really".utf8)) }
        guard case .propertyList? = garbage?.reason else { Issue.record("\(String(describing: garbage))"); return }
    }
}
