import Testing
import ToolSupport

/// What the declaration says beyond parsing, for help, the man page and completions: each verb's
/// options as that verb declares them, what its operands are, and the sources of the values a
/// tool lists for its completion scripts (`--complete-values`).
@Suite struct DeclarationTests {
    static let spec = ToolSpec(
        name: "demo", summary: "a tool for the declaration's tests",
        verbs: [VerbSpec("serve", summary: "serve", options: [OptionSpec("--port", value: .integer(0...65535), help: "default 1"),
                                                               OptionSpec("--json", help: "JSON")], operandCount: 0...0),
                VerbSpec("join", operands: "[PEER]", summary: "join", options: [OptionSpec("--port", value: .integer(0...65535), help: "default 2"),
                                                                                 OptionSpec("--json", help: "JSON"),
                                                                                 OptionSpec("--to", value: .completed(placeholder: "PEER", source: "peers"), help: "whom")],
                          operandCount: 0...1, operandKind: .values(.completed(placeholder: "PEER", source: "peers"))),
                VerbSpec("send", operands: "FILE...", summary: "send", operandCount: 1...9)],
        options: [OptionSpec("--root", value: .directory, help: "the root")])

    @Test func oneNameDeclaredTwiceIsTwoEntriesSideBySide() {
        let entries = Self.spec.verbOptions.map { ($0.option.help, $0.verbs) }
        #expect(entries.map(\.0) == ["default 1", "default 2", "JSON", "whom"])
        #expect(entries.map(\.1) == [["serve"], ["join"], ["serve", "join"], ["join"]])
    }

    @Test func operandsAreFilesUnlessTheVerbTakesNoneOrSaysOtherwise() {
        #expect(Self.spec.verb("serve")?.operandKind == .nothing)
        #expect(Self.spec.verb("send")?.operandKind == .values(.file))
        #expect(Self.spec.verb("join")?.operandKind == .values(.completed(placeholder: "PEER", source: "peers")))
        #expect(Self.spec.completedSources == ["peers"])
    }

    @Test func aCompletedValueParsesAsTextAndIsAskedForByItsSource() throws {
        let parsed = try Self.spec.parse(["join", "--to", "desk", "desk"])
        #expect(parsed.value(named: "--to") == "desk" && parsed.operands == ["desk"])
        #expect(CompletionValues.request(["peers"], of: Self.spec) == CompletionValuesRequest(source: "peers"))
        #expect(CompletionValues.request(["peers", "--root", "/r"], of: Self.spec) == CompletionValuesRequest(source: "peers", root: "/r"))
        #expect(CompletionValues.request(["apps"], of: Self.spec) == nil)
        #expect(CompletionValues.request(["peers", "--root"], of: Self.spec) == nil)
        #expect(CompletionValues.request([], of: Self.spec) == nil)
        // One value a line, whatever the value holds.
        #expect(CompletionValues.text(["desk", "my laptop", "two\nlines", "", "tab\there"]) == "desk\nmy laptop\ntwo\\nlines\ntab\\there\n")
    }
}
