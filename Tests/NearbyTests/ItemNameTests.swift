import Nearby
import Testing

/// Names from the network become one safe path component (display text only).
@Suite struct ItemNameTests {
    @Test(arguments: [
        ("notes.txt", "notes.txt"),
        ("../x", "_._x"),
        ("../../etc/passwd", "_._.._etc_passwd"),
        ("/etc/passwd", "_etc_passwd"),
        ("", "item"),
        (".", "item"),
        ("..", "item"),
        (".bashrc", "_bashrc"),
        ("a\u{0}b", "a_b"),
        ("\u{1b}[31mred", "_[31mred"),
        ("line\nbreak", "line_break"),
        ("e\u{301}t\u{e9}.txt", "\u{e9}t\u{e9}.txt"),
        ("\u{202e}gpj.exe", "_gpj.exe"),
    ])
    func hostileNamesBecomeOneSafeComponent(name: String, expected: String) {
        let safe = ItemName.safe(name)
        #expect(safe == expected)
        #expect(!safe.contains("/") && safe != "." && safe != ".." && !safe.hasPrefix("."))
        #expect(!safe.unicodeScalars.contains { $0.properties.generalCategory == .control })
    }

    @Test func longNamesAreCutAtACharacterKeepingTheExtension() {
        let long = String(repeating: "ü", count: 200) + ".txt"
        let safe = ItemName.safe(long)
        #expect(safe.utf8.count <= 255)
        #expect(safe.hasSuffix(".txt"))
        #expect(safe.hasPrefix("üü"))
        #expect(ItemName.safe(String(repeating: "a", count: 300)).utf8.count == 255)
    }
}
