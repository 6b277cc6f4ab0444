import Foundation
import PropertyLists
import TestHelpers
import Testing

/// JSON as input: which bytes are JSON, how its values become property-list values (as Apple's
/// plutil maps them through Foundation's JSONSerialization), where errors are, and round trips
/// of generated values through every writer and back.
@Suite struct JSONInputTests {
    static var readingJSON: PropertyListReadOptions {
        var options = PropertyListReadOptions()
        options.readsJSON = true
        return options
    }

    func read(_ text: String) throws -> PropertyListDocument {
        try PropertyListReader.read(Array(text.utf8), options: Self.readingJSON)
    }

    func error(_ text: String) -> PropertyListError? {
        do throws(PropertyListError) {
            _ = try PropertyListReader.read(Array(text.utf8), options: Self.readingJSON)
            return nil
        } catch { return error }
    }

    @Test func jsonIsToldFromOpenStepByItsFirstBytes() {
        func format(_ s: String) -> PropertyListFormat? {
            Array(s.utf8).withUnsafeBytes { PropertyListReader.detectFormat($0) }
        }
        #expect(format(#"{"a":1}"#) == .json)
        #expect(format(" \n{ \"a\\\"b\" \t: 1}") == .json)
        #expect(format("[1, 2]") == .json)
        #expect(format("{}") == .json)
        #expect(format("\u{FEFF}{\"a\":1}") == .json)
        #expect(format(#"{ "a" = 1; }"#) == .openStep)
        #expect(format("{ a = 1; }") == .openStep)
        #expect(format("{ /* c */ \"a\" : 1 }") == .openStep)
        #expect(format("( a, b )") == .openStep)
        // JSON scalars are OpenStep strings first, as CoreFoundation reads them before Foundation's
        // JSON reader gets a chance in Apple's plutil.
        #expect(format(#""text""#) == .openStep)
        #expect(format("42") == .openStep)
    }

    @Test func valuesMapAsApplesPlutilMapsThem() throws {
        let document = try read("""
            {"s": "x\\/y \\u00e9 \\ud83d\\ude00", "t": true, "f": false, "i": -42, "zero": -0,
             "r": 2.0, "e": 1e2, "half": 0.5, "neg0": -0.0, "max": 9223372036854775807,
             "min": -9223372036854775808, "u": 18446744073709551615, "huge": 123456789012345678901234567890,
             "a": [1, [], {}], "o": {"k": "v"}}
            """)
        #expect(document.format == .json)
        let v = document.value
        #expect(v["s"] == .string("x/y é 😀"))
        #expect(v["t"] == .bool(true) && v["f"] == .bool(false))
        #expect(v["i"] == .integer(-42))
        #expect(v["zero"] == .integer(0))
        #expect(v["r"] == .real(2) && v["e"] == .real(100) && v["half"] == .real(0.5))
        #expect(v["neg0"]?.realSign == .minus)
        #expect(v["max"] == .integer(.max) && v["min"] == .integer(.min))
        #expect(v["u"] == .unsignedInteger(.max))
        #expect(v["huge"] == .real(1.2345678901234568e+29))
        #expect(v["a"] == .array([.integer(1), .array([]), .dictionary([:])]))
        let tiny = "0." + String(repeating: "0", count: 1000) + "1e1000"
        #expect(try read("[\(tiny)]").value == .array([.real(0.1)]), "a long number is read whole")
        #expect(v["o"] == .dictionary(["k": .string("v")]))
        #expect(Array(v.dictionaryValue!.keys.prefix(3)) == ["s", "t", "f"], "source order is kept")
    }

    @Test func repeatedKeysKeepTheLastValueAndAreReported() throws {
        let document = try read("{\"a\": [1, {\"k\": 1,\n \"k\": 2}], \"b\": 0, \"b\": 3}")
        #expect(document.value["b"] == .integer(3))
        #expect(document.value.value(at: PropertyListPath(dotted: "a.1.k")) == .integer(2))
        #expect(document.duplicateKeys.map(\.keyPath) == [PropertyListPath([.key("a"), .index(1), .key("k")]), PropertyListPath([.key("b")])])
        #expect(document.duplicateKeys.first?.location == PropertyLists.SourceLocation.text(line: 2, column: 2))
    }

    /// Many repeats, deep down, cost one pass: their lines are counted together at the end and
    /// their paths come from the containers' stack (counting from the start for each, or
    /// prefixing each path level by level, was quadratic on hostile input).
    @Test func manyRepeatedKeysDeepDownStayLinear() throws {
        let depth = 200, repeats = 100_000
        let text = String(repeating: "[", count: depth) + "{" + String(repeating: "\"k\":1,\n", count: repeats)
            + "\"k\":2}" + String(repeating: "]", count: depth)
        let document = try read(text)
        #expect(document.duplicateKeys.count == repeats)
        let last = try #require(document.duplicateKeys.last)
        #expect(last.keyPath == PropertyListPath(Array(repeating: .index(0), count: depth) + [.key("k")]))
        #expect(last.location == PropertyLists.SourceLocation.text(line: repeats + 1, column: 1))
    }

    @Test func badJSONIsRefusedWithLineColumnAndKeyPath() throws {
        typealias Place = PropertyLists.SourceLocation
        let cases: [BadCase] = [
            BadCase("{\"a\": null}", "null has no property-list equivalent", Place.text(line: 1, column: 7), PropertyListPath([.key("a")])),
            BadCase("{\n  \"a\": [1,\n   {\"b\": nul}]}", "expected 'null'", Place.text(line: 3, column: 10), PropertyListPath([.key("a"), .index(1), .key("b")])),
            BadCase("[1 2]", "expected ',' or ']' in the array", Place.text(line: 1, column: 4), nil),
            BadCase("{\"a\": 1e400}", "beyond the range of a 64-bit real", Place.text(line: 1, column: 7), PropertyListPath([.key("a")])),
            BadCase("[01]", "may not start with 0", Place.text(line: 1, column: 2), PropertyListPath([.index(0)])),
            BadCase("[\"\\ud800\"]", "high surrogate without a low one", Place.text(line: 1, column: 3), PropertyListPath([.index(0)])),
            BadCase("[\"\\udc00\"]", "low surrogate without a high one", Place.text(line: 1, column: 3), PropertyListPath([.index(0)])),
            BadCase("[\"a\tb\"]", "control character", Place.text(line: 1, column: 4), PropertyListPath([.index(0)])),
            BadCase("[\"\\x\"]", "is not a JSON escape", Place.text(line: 1, column: 3), PropertyListPath([.index(0)])),
            BadCase("{\"a\": 1, \"b\" 1}", "expected ':' after the key \"b\"", Place.text(line: 1, column: 14), nil),
            BadCase("{\"a\": 1", "the object is not closed", Place.text(line: 1, column: 8), nil),
            BadCase("[1] x", "unexpected text after the JSON value", Place.text(line: 1, column: 5), nil),
            BadCase("[-]", "needs digits after '-'", Place.text(line: 1, column: 3), PropertyListPath([.index(0)])),
            BadCase("[1.]", "needs digits after '.'", Place.text(line: 1, column: 4), PropertyListPath([.index(0)])),
            BadCase("[.5]", "where a value should be", Place.text(line: 1, column: 2), PropertyListPath([.index(0)])),
        ]
        for (text, message, location, path) in cases.map({ ($0.text, $0.message, $0.location, $0.path) }) {
            let e = try #require(error(text), "\(text) must be refused")
            #expect(e.message.contains(message), "\(text): \(e.message)")
            #expect(e.location == location, "\(text): \(e)")
            #expect(e.keyPath == path, "\(text): \(e)")
            #expect(e.format == .json)
        }
        // Invalid UTF-8 inside a string, after an escape or not.
        for bytes in [Array("[\"a".utf8) + [0xFF] + Array("\"]".utf8), Array("[\"\\n".utf8) + [0xC3] + Array("\"]".utf8)] {
            #expect(throws: PropertyListError.self) { try PropertyListReader.read(bytes, options: Self.readingJSON) }
        }
    }

    @Test func oneTrailingCommaIsToleratedAsFoundationTolerates() throws {
        #expect(try read(#"{"a": [1, 2,],}"#).value == .dictionary(["a": .array([.integer(1), .integer(2)])]))
        #expect(error("[1,,]") != nil)
        #expect(error("[,]") != nil)
        #expect(error("{,}") != nil)
    }

    @Test func nestingIsLimited() throws {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(error(deep)?.message.contains("nesting deeper than 512") == true)
        let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(try read(fine).format == .json)
    }

    @Test func jsonIsRefusedUnlessEnabledButEmptyBracesAreOpenStepToo() throws {
        do {
            _ = try PropertyListReader.read(Array(#"{"a": 1}"#.utf8))
            Issue.record("JSON must be refused when not enabled")
        } catch {
            #expect(error.message == "the input is JSON, not a property list")
            #expect(error.format == .json)
        }
        #expect(try PropertyListReader.read(Array("{ }".utf8)).format == .openStep)
        #expect(try read("{ }").format == .json)
        #expect(try read("{ }").value == .dictionary([:]))
    }

    @Test func fragmentsAreValuesForTheJsonFlag() throws {
        #expect(try JSONFragmentParser.parse("3") == .integer(3))
        #expect(try JSONFragmentParser.parse(" \"x\" ") == .string("x"))
        #expect(try JSONFragmentParser.parse("2.5") == .real(2.5))
        #expect(throws: PropertyListError.self) { try JSONFragmentParser.parse("null") }
        #expect(throws: PropertyListError.self) { try JSONFragmentParser.parse("") }
    }

    @Test func realsAreWrittenSoTheyReadBackAsReals() throws {
        let value: PropertyList = .array([.real(2), .real(-0.0), .real(1e21), .real(0.1), .real(-3), .integer(2)])
        let json = String(decoding: try JSONPropertyListWriter().write(value), as: UTF8.self)
        #expect(json == "[2.0,-0.0,1e+21,0.1,-3.0,2]")
        let back = try read(json).value
        #expect(back == value)
        #expect(back[1]?.realSign == .minus)
    }

    @Test func datesDataAndUIDsAreRefusedOrExportedAsAsked() throws {
        let date = PropertyList.date(PropertyListDate(iso8601: "2020-01-02T03:04:05Z")!)
        for value in [date, .data([1, 2]), .uid(7)] {
            let tree = PropertyList.dictionary(["k": .array([value])])
            do {
                _ = try JSONPropertyListWriter(nonJSONValues: .refuse).write(tree)
                Issue.record("\(value) must be refused")
            } catch {
                #expect(error.keyPath == PropertyListPath([.key("k"), .index(0)]))
                #expect(error.message.hasSuffix("cannot be written as JSON, which has no \(value.typeName) type"))
            }
        }
        let exported = String(decoding: try JSONPropertyListWriter().write(.array([date, .data([0xFF, 0]), .uid(7)])), as: UTF8.self)
        #expect(exported == #"["2020-01-02T03:04:05Z","\/wA=",{"CF$UID":7}]"#)
    }

    /// Generated values (every type JSON holds, deep and wide) survive XML → binary → JSON → XML
    /// and every other order of the three formats.
    @Test func generatedValuesRoundTripThroughEveryOrderOfFormats() throws {
        var rng = SplitMix(seed: 0x15_0E)
        let orders: [[PropertyListFormat]] = [[.xml, .binary, .json, .xml], [.xml, .json, .binary, .xml],
                                              [.binary, .json, .xml, .binary], [.json, .xml, .binary, .json]]
        for _ in 0..<200 {
            let value = Self.jsonHoldable(FormatTests.randomValue(&rng, depth: 0))
            for order in orders {
                var current = value
                for format in order {
                    let bytes = try Self.write(current, as: format)
                    let document = try PropertyListReader.read(bytes, options: Self.readingJSON)
                    #expect(document.format == format)
                    current = document.value
                }
                #expect(current == value, "\(order)")
            }
        }
    }

    static func write(_ value: PropertyList, as format: PropertyListFormat) throws -> [UInt8] {
        switch format {
        case .xml: try XMLPropertyListWriter().write(value)
        case .binary: BinaryPropertyListWriter().write(value)
        case .json: try JSONPropertyListWriter(nonJSONValues: .refuse).write(value)
        case .openStep: []
        }
    }

    /// `value` with what JSON cannot hold taken out: dates, data and UIDs dropped, non-finite
    /// reals made finite, and a scalar root put in an array (a JSON document is a container).
    static func jsonHoldable(_ value: PropertyList, root: Bool = true) -> PropertyList {
        switch value {
        case .array(let a):
            return .array(a.filter(\.isJSONValue).map { jsonHoldable($0, root: false) })
        case .dictionary(let d):
            return .dictionary(d.filter { $0.value.isJSONValue }.mapValues { jsonHoldable($0, root: false) })
        case .real(let r) where !r.isFinite:
            return root ? .array([.real(1.5)]) : .real(1.5)
        default:
            return root ? .array(value.isJSONValue ? [value] : []) : value
        }
    }
}

/// One bad JSON text and what its error must say.
struct BadCase {
    var text: String
    var message: String
    var location: PropertyLists.SourceLocation
    var path: PropertyListPath?
    init(_ text: String, _ message: String, _ location: PropertyLists.SourceLocation, _ path: PropertyListPath?) {
        (self.text, self.message, self.location, self.path) = (text, message, location, path)
    }
}

extension PropertyList {
    /// Whether JSON has a type for this value (at its own level).
    var isJSONValue: Bool {
        switch self {
        case .date, .data, .uid: false
        default: true
        }
    }

    /// The sign of a real, to tell -0.0 from 0.0 (which `==` does not).
    var realSign: FloatingPointSign? {
        if case .real(let r) = self { return r.sign }
        return nil
    }
}
