import Foundation
import KeyedArchives
import PropertyLists
import TestHelpers
import Testing

/// The binary layout rules beyond the fixtures, and our archives read by an independent reader
/// (Python's plistlib, which decodes UIDs) with the same content.
@Suite struct LayoutTests {
    /// The trailer's object count.
    static func objectCount(_ bytes: [UInt8]) -> Int { bytes.suffix(24).prefix(8).reduce(0) { $0 << 8 | Int($1) } }

    @Test func eachFurtherUseOfAUIDAddsAnUnreferencedCopy() throws {
        // Three empty arrays in an array: four objects share the NSArray class UID, so CF's
        // writer leaves three orphan copies of it.
        let bytes = try KeyedArchiver.archivedData(withRootValue: .array([.array([]), .array([]), .array([])]))
        let archive = try KeyedArchive(parsing: bytes)
        #expect(archive.objects.count == 6)
        // top dict, 4 keys, $version, $objects array, $null, 4 object dicts with their keys and
        // UIDs, the class dict and its strings, 'NSKeyedArchiver', $top and 'root' and its UID.
        let sharedClassUID = 3
        #expect(Self.objectCount(bytes) == (try Self.plistlibObjectCount(bytes)))
        #expect(try Self.plistlibUnreferenced(bytes) == sharedClassUID)
    }

    @Test func equalDataIsStoredOnceInTheFile() throws {
        let payload = [UInt8](repeating: 7, count: 5000)
        var tail = payload
        tail[4999] = 8  // same first 1,280 bytes, different content: two objects
        let bytes = try KeyedArchiver.archivedData(withRootValue: .array([.data(payload), .data(payload), .data(tail)]))
        #expect(bytes.count < 2 * 5000 + 1000)
        let back = try KeyedUnarchiver.unarchivedValue(from: bytes, allowing: ["NSArray", "NSData"])
        #expect(back == .array([.data(payload), .data(payload), .data(tail)]))
    }

    @Test(arguments: ArchiveFormat.allCases)
    func plistlibReadsOurArchivesAsWeDo(_ format: ArchiveFormat) throws {
        let bytes = try KeyedArchiver.archivedData(withRootValue: ArchiverTests.everyKind, format: format)
        let ours = try KeyedArchive(parsing: bytes)
        let theirs = try Self.plistlibJSON(bytes)
        #expect(Self.sameJSON(theirs, Self.json(ours.propertyList)))
    }

    @Test func plistlibReadsTheSeedPackage() throws {
        let package = AppDataPackage(sourceApplicationName: "Person Editor", sourceApplicationIdentifier: "com.EnharmonicHQ.Editor",
                                     sourceApplicationVersion: "1.0", sourceApplicationBuild: "42", payload: Array(repeating: 0x61, count: 70000))
        let bytes = try package.dataRepresentation()
        let json = try Self.plistlibJSON(bytes)
        #expect(json.contains(#""$top": {"kENHPackageDataKey": {"CF$UID": 1}}"#))
        #expect(json.contains(#""$classname": "ENHAppDataPackage""#))
        #expect(Self.sameJSON(json, Self.json(try KeyedArchive(parsing: bytes).propertyList)))
    }

    // MARK: - Python helpers

    static func python(_ script: String, _ bytes: [UInt8]) throws -> String {
        let dir = try TestSupport.temporaryDirectory()
        let file = dir.appendingPathComponent("archive.plist")
        try Data(bytes).write(to: file)
        let run = try TestSupport.run("/usr/bin/env", ["python3", "-c", script, file.path])
        try? FileManager.default.removeItem(at: dir)
        guard run.status == 0 else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: run.stderr]) }
        return run.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// plistlib's reading as canonical JSON: sorted keys, UIDs as {"CF$UID": n}, data as hex,
    /// dates as seconds since 2001. plistlib leaves XML's CF$UID dictionaries as they are.
    static let canonicalize = #"""
        import plistlib, sys, json, datetime
        def c(v):
            if isinstance(v, plistlib.UID): return {"CF$UID": v.data}
            if isinstance(v, bytes): return {"data": v.hex()}
            if isinstance(v, datetime.datetime):
                return {"date": (v.replace(tzinfo=datetime.timezone.utc) - datetime.datetime(2001,1,1,tzinfo=datetime.timezone.utc)).total_seconds()}
            if isinstance(v, bool): return {"bool": v}
            if isinstance(v, float): return {"real": v}
            if isinstance(v, dict): return {k: c(x) for k, x in v.items()}
            if isinstance(v, list): return [c(x) for x in v]
            return v
        print(json.dumps(c(plistlib.load(open(sys.argv[1], 'rb'))), sort_keys=True, ensure_ascii=False))
        """#

    static func plistlibJSON(_ bytes: [UInt8]) throws -> String { try python(canonicalize, bytes) }

    static func plistlibObjectCount(_ bytes: [UInt8]) throws -> Int {
        Int(try python("import sys; b=open(sys.argv[1],'rb').read(); print(int.from_bytes(b[-24:-16],'big'))", bytes)) ?? -1
    }

    /// How many objects of the file no other object and not the top refers to (the orphans).
    static func plistlibUnreferenced(_ bytes: [UInt8]) throws -> Int {
        let script = #"""
            import sys, plistlib
            b = open(sys.argv[1], 'rb').read()
            osz, rsz = b[-26], b[-25]
            n, top, tab = (int.from_bytes(b[-24+8*i:-16+8*i] if i < 2 else b[-8:], 'big') for i in range(3))
            offs = [int.from_bytes(b[tab+i*osz:tab+(i+1)*osz], 'big') for i in range(n)]
            seen = {top}
            for o in offs:
                m = b[o]; k = m >> 4
                if k in (0xA, 0xD):
                    c, p = m & 15, o + 1
                    if c == 15: e = 1 << (b[o+1] & 15); c = int.from_bytes(b[o+2:o+2+e], 'big'); p = o + 2 + e
                    c = c * (2 if k == 0xD else 1)
                    seen.update(int.from_bytes(b[p+j*rsz:p+(j+1)*rsz], 'big') for j in range(c))
            print(n - len(seen))
            """#
        return Int(try python(script, bytes)) ?? -1
    }

    /// Whether two JSON texts hold equal values (Python and Foundation space and print reals apart).
    static func sameJSON(_ a: String, _ b: String) -> Bool {
        guard let x = try? JSONSerialization.jsonObject(with: Data(a.utf8)) as? NSDictionary,
              let y = try? JSONSerialization.jsonObject(with: Data(b.utf8)) as? NSDictionary else { return false }
        return x.isEqual(y)
    }

    /// Our reading in the same canonical JSON.
    static func json(_ value: PropertyList) -> String {
        func c(_ v: PropertyList) -> Any {
            switch v {
            case .uid(let u): return ["CF$UID": Int(u)]
            case .data(let d): return ["data": d.map { String(format: "%02x", $0) }.joined()]
            case .date(let d): return ["date": d.secondsSinceReferenceDate]
            case .bool(let b): return ["bool": b]
            case .real(let r): return ["real": r]
            case .integer(let i): return i
            case .unsignedInteger(let u): return u
            case .string(let s): return s
            case .array(let a): return a.map(c)
            case .dictionary(let d): return Dictionary(uniqueKeysWithValues: d.map { ($0.key, c($0.value)) })
            }
        }
        let data = try! JSONSerialization.data(withJSONObject: c(value), options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }
}
