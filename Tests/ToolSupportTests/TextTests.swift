import SystemCalls
import Testing
import ToolSupport

/// Text as tools print it: names with control characters made visible, and `~` as a shell expands it.
@Suite struct TextTests {
    @Test func controlCharactersAreEscapedSoANameCannotForgeALine() {
        #expect(TerminalText.escaped("plain name.txt") == "plain name.txt")
        let hostile = TerminalText.escaped("a\nb\u{1b}[31mc\td")
        #expect(!hostile.contains("\n") && !hostile.contains("\u{1b}") && !hostile.contains("\t"))
        #expect(hostile.hasPrefix("a\\nb") && hostile.hasSuffix("d"))
        #expect(TerminalText.escaped("naïve café") == "naïve café")
    }

    @Test func aTildeIsExpandedAsAShellWould() {
        let home = PathText.expandingTilde("~")
        #expect(home.hasPrefix("/"))
        #expect(PathText.expandingTilde("~/Desktop") == home + "/Desktop")
        #expect(PathText.expandingTilde("~other/x") == "~other/x")
        #expect(PathText.expandingTilde("/abs/~") == "/abs/~")
    }
}

/// The escaping rule covers invisible format characters too (issue #43): a bidirectional override
/// made a name read backwards, a zero-width space hid a difference; the zero-width joiner of an
/// emoji sequence stays.
@Suite struct TerminalTextFormatTests {
    @Test func formatAndSeparatorCharactersAreEscaped() {
        #expect(TerminalText.escaped("\u{202e}gpj.exe") == "\\u{202e}gpj.exe")
        #expect(TerminalText.escaped("a\u{200b}b\u{2028}c\u{2029}") == "a\\u{200b}b\\u{2028}c\\u{2029}")
        #expect(TerminalText.escaped("👩‍👩‍👧") == "👩‍👩‍👧")
    }
}
