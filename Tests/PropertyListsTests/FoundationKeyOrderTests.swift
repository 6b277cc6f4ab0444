@testable import PropertyLists
import Testing

/// The byte-wise order for ASCII keys is the same order as the one on Unicode properties.
@Suite struct FoundationKeyOrderTests {
    static let keys = ["", "a", "A", "b", "B", "_", "-", ".", "~", " ", "a1", "a01", "a001", "a2", "a10", "a9", "A10", "a1b", "a1B",
                       "a01b", "1", "01", "10", "9", "9a", "10a", "x-1", "x_1", "x1", "xy", "xY", "XY", "key", "Key", "KEY", "keys",
                       "CFBundle", "cfbundle", "CFBundle2", "CFBundle10", "name", "rank", "role", "bundleIdentifier", "claimedType",
                       "12345678901234567890", "12345678901234567891", "Z", "z", "[", "`", "@", "{"]

    @Test func asciiKeysSortAsTheUnicodeRuleSortsThem() {
        for a in Self.keys {
            for b in Self.keys {
                #expect(FoundationKeyOrder.asciiPrecedes(a, b) == FoundationKeyOrder.unicodePrecedes(a, b), "\(a) < \(b)")
            }
        }
    }

    @Test func nonASCIIKeysTakeTheUnicodeRule() {
        #expect(FoundationKeyOrder.asciiPrecedes("é", "e") == nil)
        #expect(FoundationKeyOrder.precedes("a", "É") == FoundationKeyOrder.unicodePrecedes("a", "É"))
    }

    /// Rows repeat their keys; each row is still written with its own keys, sorted, byte for byte.
    @Test func repeatedKeySetsAreWrittenAsGiven() throws {
        let composed = "\u{E9}", decomposed = "e\u{301}"
        let rows: [PropertyList] = [
            .dictionary(["b": .integer(1), "a": .integer(2)]), .dictionary(["b": .integer(3), "a": .integer(4)]),
            .dictionary(["a": .integer(5), "b": .integer(6)]), .dictionary([composed: .integer(7)]),
            .dictionary([decomposed: .integer(8)]), .dictionary(["b": .dictionary(["y": .integer(9), "x": .integer(10)]), "a": .integer(11)]),
        ]
        let json = String(decoding: try JSONPropertyListWriter().write(.array(rows)), as: UTF8.self)
        #expect(json == #"[{"a":2,"b":1},{"a":4,"b":3},{"a":5,"b":6},{"\#(composed)":7},{"\#(decomposed)":8},{"a":11,"b":{"x":10,"y":9}}]"#)
    }
}
