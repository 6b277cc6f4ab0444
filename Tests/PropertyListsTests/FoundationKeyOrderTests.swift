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
}
