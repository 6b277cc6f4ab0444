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

/// A name is cut first and made safe after, so the cut cannot undo a rule (issue #43): a first
/// character of ~240 bytes left "", ".partial", ".delivered" (the spool's own markers) or a
/// hidden ".pdf".
@Suite struct ItemNameCutTests {
    /// One character of `bytes` UTF-8 bytes or so: a base letter under many combining marks.
    static func heavyCharacter(bytes: Int) -> String { "a" + String(repeating: "\u{301}", count: (bytes - 1) / 2) }

    @Test(arguments: ["", ".pdf", ".partial", ".delivered", ".txt"])
    func aHugeFirstCharacterLeavesAVisibleNamedFile(suffix: String) {
        let safe = ItemName.safe(Self.heavyCharacter(bytes: 241) + suffix)
        #expect(ItemName.isSafe(safe), "\(safe.debugDescription)")
        #expect(!safe.hasPrefix(".") && !safe.isEmpty && safe != ".partial" && safe != ".delivered")
        if !suffix.isEmpty { #expect(safe.hasSuffix(suffix)) }
    }

    @Test func combiningMarksAreBoundedPerCharacter() {
        let zalgo = String(repeating: "z" + String(repeating: "\u{336}", count: 40), count: 3) + ".txt"
        let safe = ItemName.safe(zalgo)
        #expect(ItemName.isSafe(safe))
        for character in safe {
            #expect(character.unicodeScalars.count <= 1 + ItemName.maximumMarksPerCharacter)
        }
        #expect(safe.unicodeScalars.starts(with: "z\u{336}".unicodeScalars) && safe.hasSuffix(".txt"))
    }

    @Test(arguments: ["notes.txt", "../x", "", ".", "..", "\u{1b}[31mred", String(repeating: "ü", count: 300) + ".txt",
                      heavyCharacter(bytes: 300), heavyCharacter(bytes: 250) + ".partial"])
    func safeNamesAreFixedPointsAndPassTheInvariant(name: String) {
        let safe = ItemName.safe(name)
        #expect(ItemName.isSafe(safe))
        #expect(ItemName.safe(safe) == safe)
    }

    @Test func theInvariantRefusesWhatIsNotSafe() {
        for bad in ["", ".", "..", ".hidden", "a/b", "a\u{0}b", "x\u{202e}y", String(repeating: "a", count: 256),
                    "a" + String(repeating: "\u{301}", count: 20)] {
            #expect(!ItemName.isSafe(bad), "\(bad.debugDescription)")
        }
    }
}
