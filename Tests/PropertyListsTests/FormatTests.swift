import Foundation
import PropertyLists
import TestHelpers
import Testing

/// Readers and writers on hand-made inputs: format detection, OpenStep and .strings files,
/// dates, numbers, and round trips of generated values.
@Suite struct FormatTests {
    @Test func formatIsDecidedByTheFirstBytes() {
        func format(_ s: String) -> PropertyListFormat? {
            Array(s.utf8).withUnsafeBytes { PropertyListReader.detectFormat($0) }
        }
        #expect(format("bplist00") == .binary)
        #expect(format("<?xml version=\"1.0\"?><plist/>") == .xml)
        #expect(format("  <dict/>") == .xml)
        #expect(format("<0fbd77>") == .openStep)
        #expect(format("{ a = b; }") == .openStep)
        #expect(format("\"k\" = \"v\";") == .openStep)
        #expect(format("   \n") == nil)
    }

    @Test func eightByteBplistIsAnErrorNotAString() {
        // Foundation on Linux reads this as the string "bplist00"; we must not.
        #expect(throws: PropertyListError.self) { try PropertyListReader.read(Array("bplist00".utf8)) }
    }

    @Test func openStepValues() throws {
        let text = """
            // comment
            { name = "Person \\"Editor\\""; /* block */ count = 3; list = (a, "b c", <0fbd 77>,);
              nested = { empty = (); }; unicode = "caf\\U00e9"; octal = "\\101"; }
            """
        let value = try PropertyListReader.read(Array(text.utf8)).value
        #expect(value["name"] == .string("Person \"Editor\""))
        #expect(value["count"] == .string("3"))
        #expect(value["list"] == .array([.string("a"), .string("b c"), .data([0x0F, 0xBD, 0x77])]))
        #expect(value["nested"] == .dictionary(["empty": .array([])]))
        #expect(value["unicode"] == .string("café"))
        #expect(value["octal"] == .string("A"))
    }

    @Test func unicodeEscapesIncludingSurrogatePairs() throws {
        let value = try PropertyListReader.read(Array(#"{ a = "\UD83D\UDE00 caf\u00e9"; }"#.utf8)).value
        #expect(value["a"] == .string("😀 café"))
        #expect(throws: PropertyListError.self) { try PropertyListReader.read(Array(#"{ a = "\UD83D"; }"#.utf8)) }
        #expect(throws: PropertyListError.self) { try PropertyListReader.read(Array(#"{ a = "\Uzz"; }"#.utf8)) }
    }

    @Test func stringsFileInUTF16WithBOM() throws {
        let text = "/* Localized */\n\"UTTypeDescription\" = \"Fiche personne\";\nCFBundleName = \"Éditeur\";\n"
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 { bytes.append(UInt8(unit & 0xFF)); bytes.append(UInt8(unit >> 8)) }
        let document = try PropertyListReader.read(bytes)
        #expect(document.format == .openStep)
        #expect(document.value == .dictionary(["UTTypeDescription": .string("Fiche personne"), "CFBundleName": .string("Éditeur")]))
    }

    @Test func openStepErrorsHaveLineAndColumn() {
        do {
            _ = try PropertyListReader.read(Array("{\n  a = b;\n  c = d\n}".utf8))
            Issue.record("accepted a missing semicolon")
        } catch {
            #expect(error.location == .text(line: 4, column: 1))
        }
    }

    @Test func xmlErrorsHaveLineColumnAndKeyPath() {
        let xml = "<plist><dict>\n<key>A</key><array><string>x</string>\n<integer>12z</integer></array></dict></plist>"
        do {
            _ = try PropertyListReader.read(Array(xml.utf8))
            Issue.record("accepted a bad integer")
        } catch {
            #expect(error.location?.line == 3)
            #expect(error.keyPath == PropertyListPath([.key("A"), .index(1)]))
            #expect(error.description.contains("[A[1]]"))
        }
    }

    @Test func binaryErrorsHaveByteOffsetAndKeyPath() throws {
        var bytes = BinaryPropertyListWriter().write(.dictionary(["k": .array([.string("ab")])]))
        // Corrupt the string object's marker (the last object before the offset table).
        let tableOffset = Int(bytes[bytes.count - 1])
        bytes[tableOffset - 3] = 0xE0
        do {
            _ = try PropertyListReader.read(bytes)
            Issue.record("accepted a bad marker")
        } catch {
            #expect(error.location == .byteOffset(tableOffset - 3))
            #expect(error.keyPath == PropertyListPath([.key("k"), .index(0)]))
        }
    }

    @Test func datesConvertBothWays() throws {
        let date = try #require(PropertyListDate(iso8601: "2020-01-02T03:04:05Z"))
        #expect(date.secondsSince1970 == 1_577_934_245)
        #expect(date.iso8601 == "2020-01-02T03:04:05Z")
        #expect(PropertyListDate(secondsSinceReferenceDate: 0).iso8601 == "2001-01-01T00:00:00Z")
        #expect(PropertyListDate(iso8601: "1600-02-29T00:00:00Z")?.iso8601 == "1600-02-29T00:00:00Z")
        #expect(PropertyListDate(iso8601: "1900-02-29T00:00:00Z") == nil)
        #expect(PropertyListDate(iso8601: "2024-01-01T00:00:60Z") == nil)
    }

    @Test func binaryIntegersUseCFWidths() {
        func encoded(_ v: PropertyList) -> [UInt8] {
            let bytes = BinaryPropertyListWriter().write(v)
            return Array(bytes[8..<(bytes.count - 32 - 1)])
        }
        #expect(encoded(.integer(5)) == [0x10, 5])
        #expect(encoded(.integer(300)) == [0x11, 0x01, 0x2C])
        #expect(encoded(.integer(-1)) == [0x13] + Array(repeating: 0xFF, count: 8))
        #expect(encoded(.unsignedInteger(UInt64.max)) == [0x14] + Array(repeating: 0, count: 8) + Array(repeating: 0xFF, count: 8))
        #expect(encoded(.string("é")) == [0x61, 0x00, 0xE9])
    }

    @Test func binaryStoresEqualScalarsOnce() throws {
        let value = PropertyList.array(Array(repeating: .string("repeated string"), count: 100))
        let bytes = BinaryPropertyListWriter().write(value)
        // Array header (2 bytes) + 100 one-byte refs + one string object, not 100.
        #expect(bytes.count < 8 + 2 + 100 + 17 + 2 + 32 + 4)
        #expect(try PropertyListReader.read(bytes).value == value)
    }

    /// Canonically equivalent strings are different objects: each reads back as it was written.
    @Test func binaryKeepsCanonicallyEquivalentStringsApart() throws {
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        let bytes = BinaryPropertyListWriter().write(.array([.string(composed), .string(decomposed), .string(composed)]))
        guard case .array(let items) = try PropertyListReader.read(bytes).value, items.count == 3,
              case .string(let first) = items[0], case .string(let second) = items[1], case .string(let third) = items[2] else {
            Issue.record("not an array of three strings"); return
        }
        #expect(Array(first.unicodeScalars) == Array(composed.unicodeScalars))
        #expect(Array(second.unicodeScalars) == Array(decomposed.unicodeScalars))
        #expect(Array(third.unicodeScalars) == Array(composed.unicodeScalars))
    }

    @Test func xmlRefusesCharactersItCannotCarry() {
        #expect(throws: PropertyListWriteError.self) { try XMLPropertyListWriter().write(.string("bell \u{7}")) }
    }

    @Test func generatedValuesRoundTripThroughBothFormats() throws {
        var rng = SplitMix(seed: 0x5EED)
        for _ in 0..<300 {
            let value = Self.randomValue(&rng, depth: 0)
            let binary = BinaryPropertyListWriter().write(value)
            #expect(try PropertyListReader.read(binary).value == value)
            let xml = try XMLPropertyListWriter().write(value)
            #expect(try PropertyListReader.read(xml).value == value)
        }
    }

    @Test func jsonExport() throws {
        let value: PropertyList = .dictionary([
            "b": .array([.integer(1), .real(2.5), .real(2), .bool(true)]),
            "a": .string("x/y\"\n"),
            "d": .date(PropertyListDate(iso8601: "2020-01-02T03:04:05Z")!),
            "z": .data([0xFF, 0x00]),
        ])
        let json = String(decoding: try JSONPropertyListWriter().write(value), as: UTF8.self)
        // Integral reals keep their fraction so they read back as reals (Foundation writes `2`).
        #expect(json == #"{"a":"x\/y\"\n","b":[1,2.5,2.0,true],"d":"2020-01-02T03:04:05Z","z":"\/wA="}"#)
        let parsed = try JSONSerialization.jsonObject(with: Data(try JSONPropertyListWriter(prettyPrinted: true).write(value)))
        #expect((parsed as? [String: Any])?["d"] as? String == "2020-01-02T03:04:05Z")
        #expect(throws: PropertyListWriteError.self) { try JSONPropertyListWriter().write(.real(.nan)) }
    }

    /// libxml2 pulls the input through a read callback a few KiB at a time: text and multi-byte
    /// characters that straddle the pieces, and UTF-16 documents it converts, must come out whole.
    @Test func xmlReadInPiecesKeepsTextAndEncodings() throws {
        let long = String(repeating: "ab日本語€😀&<", count: 40_000)
        let value = PropertyList.dictionary(["long": .string(long), "list": .array((0..<3000).map { .string("item \($0) é") })])
        let xml = try XMLPropertyListWriter().write(value)
        #expect(xml.count > 1_000_000)
        #expect(try PropertyListReader.read(xml).value == value)
        let text = String(decoding: xml, as: UTF8.self).replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"UTF-16\"")
        for bigEndian in [false, true] {
            var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
            for unit in text.utf16 {
                let (high, low) = (UInt8(unit >> 8), UInt8(unit & 0xFF))
                bytes += bigEndian ? [high, low] : [low, high]
            }
            let document = try PropertyListReader.read(bytes)
            #expect(document.format == .xml)
            #expect(document.value == value, "UTF-16\(bigEndian ? "BE" : "LE")")
        }
    }

    /// Dictionaries are built in one go when their keys are distinct (checked by fingerprint,
    /// pairwise up to 16 keys, by set beyond), and long keys are shared among repeats: a repeat
    /// must still be caught in both sizes, and shared keys must not mix up values.
    @Test func xmlDictionariesCatchRepeatedKeysSmallAndLarge() throws {
        func plist(_ keys: [String]) -> [UInt8] {
            let entries = keys.enumerated().map { "<key>\($0.element)</key><integer>\($0.offset)</integer>" }.joined()
            return Array("<plist><array><dict>\(entries)</dict><dict>\(entries)</dict></array></plist>".utf8)
        }
        let long = (0..<20).map { "UTTypeTagSpecification-\($0)" }
        let distinct = try PropertyListReader.read(plist(long))
        #expect(distinct.duplicateKeys.isEmpty)
        #expect(distinct.value[1]?["UTTypeTagSpecification-19"] == .integer(19))
        #expect(distinct.value[0]?.dictionaryValue?.keys.elementsEqual(long) == true)
        for keys in [["a", "UTTypeConformsTo.long", "b", "UTTypeConformsTo.long"], long + ["UTTypeTagSpecification-3"]] {
            let document = try PropertyListReader.read(plist(keys))
            let repeated = try #require(keys.last)
            #expect(document.duplicateKeys.map(\.keyPath) == [PropertyListPath([.index(0), .key(repeated)]), PropertyListPath([.index(1), .key(repeated)])])
            #expect(document.value[0]?[repeated] == .integer(Int64(keys.count - 1)), "the last value wins")
            #expect(document.value[0]?.dictionaryValue?.count == keys.count - 1)
        }
    }

    @Test func keyPathEditing() throws {
        var value: PropertyList = .dictionary(["types": .array([.dictionary(["ext": .array([.string("a")])])])])
        try value.edit(.insert, at: PropertyListPath(dotted: "types.0.ext.0"), value: .string("first"))
        try value.edit(.append, at: PropertyListPath(dotted: "types.0.ext"), value: .string("last"))
        try value.edit(.replace, at: PropertyListPath(dotted: "types.0.rank"), value: .string("Owner"))
        #expect(value.value(at: PropertyListPath(dotted: "types.0.ext")) == .array([.string("first"), .string("a"), .string("last")]))
        #expect(throws: PropertyList.EditError.self) { try value.edit(.insert, at: PropertyListPath(dotted: "types.0.rank"), value: .bool(true)) }
        try value.edit(.remove, at: PropertyListPath(dotted: "types.0.ext.1"))
        #expect(value.value(at: PropertyListPath(dotted: "types.0.ext.1")) == .string("last"))
        #expect(throws: PropertyList.EditError.self) { try value.edit(.remove, at: PropertyListPath(dotted: "nope")) }
        #expect(PropertyListPath(dotted: "a\\.b.c").components == [.key("a.b"), .key("c")])
    }

    // Regressions from fuzzing (docs/fuzzing.md).

    /// A binary plist of `levels` arrays, each holding the next one twice: it expands to 2^levels nodes.
    static func referenceBomb(levels: Int) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for i in 0..<levels {
            offsets.append(bytes.count)
            bytes += [0xA2, UInt8(i + 1), UInt8(i + 1)]
        }
        offsets.append(bytes.count)
        bytes += [0x54] + Array("leaf".utf8)
        let table = bytes.count
        bytes += offsets.map { UInt8($0) }
        bytes += [0, 0, 0, 0, 0, 0, 1, 1]
        bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(levels + 1)] + Array(repeating: 0, count: 8)
        bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        return bytes
    }

    @Test func referenceBombsAreRefusedButOrdinarySharingIsNot() throws {
        // 23 levels: 238 bytes that expanded to 16 M nodes under the first limit and exhausted
        // memory when written out.
        #expect(throws: PropertyListError.self) { try PropertyListReader.read(Self.referenceBomb(levels: 23)) }
        let shared = try PropertyListReader.read(Self.referenceBomb(levels: 12)).value
        #expect(shared.value(at: PropertyListPath(Array(repeating: .index(1), count: 12))) == .string("leaf"))
    }

    @Test func carriageReturnsSurviveXML() throws {
        // Found by the binary fuzzer: XML readers turn a literal CR into LF.
        let value = PropertyList.dictionary(["\r": .string("a\r\nb\r")])
        #expect(try PropertyListReader.read(XMLPropertyListWriter().write(value)).value == value)
    }

    @Test func datesXMLCannotCarryAreRefusedNotWrittenUnreadably() {
        let far = PropertyList.date(PropertyListDate(secondsSinceReferenceDate: 1e300))
        #expect(throws: PropertyListWriteError.self) { try XMLPropertyListWriter().write(far) }
        #expect(throws: PropertyListWriteError.self) { try JSONPropertyListWriter().write(far) }
        #expect((try? PropertyListReader.read(BinaryPropertyListWriter().write(far)).value) == far)
    }

    @Test func internalSubsetDocumentIsFreedEveryTime() throws {
        // libxml2 builds a document for a DOCTYPE internal subset; the fuzzer's leak checker
        // found it leaked (about 12 KiB a parse). plutil -lint parses the file 2,000 and 20,000
        // times in one process each; each is refused, and the peak memory of the two processes
        // must not differ by the 216 MB a leak would add. Measured in child processes: this
        // process's own memory moves with every test running beside it.
        let file = try TestSupport.temporaryDirectory().appendingPathComponent("subset.plist").path
        try Data(#"<!DOCTYPE plist [<!ENTITY x "y">]><plist><string>&x;</string></plist>"#.utf8).write(to: URL(fileURLWithPath: file))
        // GNU time forks plutil (a copy of its own small memory) and reports the child's peak. A
        // child posix_spawn'ed from this process shares this process's memory until its exec,
        // and Linux counts this process's resident size, hundreds of MB late in a full run, into
        // the child's peak: two spawns then differed by 362 MB with no leak at all.
        func peakKiB(parses: Int) throws -> (kib: Int, status: Int32) {
            let run = try TestSupport.run("/usr/bin/time", ["-f", "peak %M", TestSupport.plutil, "-lint"] + Array(repeating: file, count: parses))
            let line = run.stderr.split(separator: "\n").last { $0.hasPrefix("peak ") }
            return (line.flatMap { Int($0.dropFirst(5)) } ?? -1, run.status)
        }
        let few = try peakKiB(parses: 2_000), many = try peakKiB(parses: 20_000)
        // Exit status 1 (lint errors): every file refused, no crash.
        #expect(few.status == 1 && many.status == 1 && few.kib > 0, "statuses \(few.status), \(many.status), peak \(few.kib)")
        #expect(many.kib - few.kib < 40_000, "peak \(few.kib) KiB for 2,000 parses, \(many.kib) KiB for 20,000")
    }

    static func randomValue(_ rng: inout SplitMix, depth: Int) -> PropertyList {
        let choice = rng.next() % (depth > 4 ? 8 : 10)
        switch choice {
        case 0: return .string(randomString(&rng))
        case 1: return .integer(Int64(bitPattern: rng.next()) >> (rng.next() % 64))
        case 2: return .unsignedInteger(UInt64(Int64.max) + 1 + rng.next() % 1000)
        case 3:
            let r = Double(bitPattern: rng.next())
            return .real(r.isNaN ? 0.5 : r)
        case 4: return .bool(rng.next() % 2 == 0)
        case 5: return .date(PropertyListDate(secondsSinceReferenceDate: Double(Int64(rng.next() % 4_000_000_000) - 2_000_000_000)))
        case 6: return .data((0..<(rng.next() % 100)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        case 7: return .string("")
        case 8: return .array((0..<(rng.next() % 20)).map { _ in randomValue(&rng, depth: depth + 1) })
        default:
            var entries: [(String, PropertyList)] = []
            for _ in 0..<(rng.next() % 20) { entries.append((randomString(&rng), randomValue(&rng, depth: depth + 1))) }
            return .dictionary(.init(entries, uniquingKeysWith: { $1 }))
        }
    }

    static func randomString(_ rng: inout SplitMix) -> String {
        let alphabet = Array("abcXYZ019 &<>\"'\t\n\réü日本😀-_.")
        return String((0..<(rng.next() % 24)).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] })
    }
}

/// A small deterministic generator, so a failing case can be reproduced.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Every input the fuzzers turned up, kept in Fuzz/Regressions: each is read (or refused) without
/// a crash, and what reads round-trips through both writers.
@Suite struct FuzzRegressionTests {
    static let directory = TestSupport.packageRoot.appendingPathComponent("Fuzz/Regressions")
    static let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()

    @Test func regressionsArePresent() { #expect(Self.files.count >= 3) }

    @Test(arguments: files)
    func readsOrRefusesCleanly(_ name: String) throws {
        let bytes = Array(try Data(contentsOf: Self.directory.appendingPathComponent(name)))
        guard let document = try? PropertyListReader.read(bytes) else { return }
        #expect(try PropertyListReader.read(BinaryPropertyListWriter().write(document.value)).value == document.value)
        if let xml = try? XMLPropertyListWriter().write(document.value) {
            #expect(try XMLPropertyListWriter().write(PropertyListReader.read(xml).value) == xml)
        }
    }
}
