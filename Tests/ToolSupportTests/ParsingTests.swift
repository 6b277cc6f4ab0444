import Testing
import ToolSupport

/// The command-line grammar every tool shares (``ToolSupport/ToolSpec/parse(_:)``), on a spec of
/// its own: options before or after the verb, `--name=value`, repeatable options, `--`, and
/// errors that name the word and suggest what was meant.
@Suite struct ParsingTests {
    enum DemoOption: String, OptionName {
        case root = "--root", exclude = "--exclude", list = "--list", fast = "--fast"
    }
    enum DemoVerb: String, VerbName {
        case send, list
    }

    static let spec: ToolSpec = {
        var exclude = OptionSpec("--exclude", value: .text("ID"), repeatable: true, help: "leave out")
        exclude.mistakenFor = ["--without"]
        return ToolSpec(
        name: "demo", summary: "a tool for the parser's tests",
        verbs: [VerbSpec("send", operands: "FILE...", summary: "send files",
                         options: [OptionSpec("--fast", help: "quickly")], operandCount: 1...9),
                VerbSpec("list", operands: "", summary: "list", operandCount: 0...0)],
        options: [OptionSpec("--root", value: .directory, help: "the root"),
                  exclude,
                  OptionSpec("--list", short: "-l", help: "print")],
        operands: "", examples: [], exitStatus: [], seeAlso: [])
    }()

    @Test func optionsStandBeforeOrAfterTheVerb() throws {
        let parsed = ToolCommand<DemoOption, DemoVerb>(try Self.spec.parse(["--root", "/r", "send", "a", "--exclude=x", "--exclude", "y", "--fast", "--", "--not-an-option"]))
        #expect(parsed.verb == .send)
        #expect(parsed[.root] == "/r")
        #expect(parsed.all(.exclude) == ["x", "y"])
        #expect(parsed.flag(.fast) && !parsed.flag(.list))
        #expect(parsed.operands == ["a", "--not-an-option"])
        #expect(ToolCommand<DemoOption, DemoVerb>(try Self.spec.parse(["-l"])).flag(.list))
        #expect(ToolCommand<DemoOption, DemoVerb>(try Self.spec.parse([])).verb == nil)
    }

    @Test func mistakesAreNamedWithWhatWasMeant() {
        func error(_ words: [String]) -> String {
            do { _ = try Self.spec.parse(ArraySlice(words)); return "" } catch { return error.message }
        }
        #expect(error(["--roto", "/r"]).contains("unknown option --roto (did you mean --root?)"))
        #expect(error(["--without", "x"]).contains("(did you mean --exclude?)"))
        #expect(error(["--root"]).contains("--root needs a value"))
        // Another verb's option: said so, not "unknown".
        #expect(error(["list", "--fast"]) == "--fast does not apply to 'list'")
    }

    /// The enums a tool reads its command through agree with its spec, or say where not
    /// (what `TOOL --check-names` prints; the snapshot tests run it for every tool).
    @Test func namesAndTheSpecAreCheckedAgainstEachOther() {
        #expect(Self.spec.mismatches(options: DemoOption.self, verbs: DemoVerb.self).isEmpty)
        enum Fewer: String, OptionName { case root = "--root", typo = "--rot" }
        enum OneVerb: String, VerbName { case send }
        #expect(Self.spec.mismatches(options: Fewer.self, verbs: OneVerb.self) == [
            "option --exclude is declared but not named", "option --fast is declared but not named", "option --list is declared but not named",
            "option --rot is named but not declared", "verb list is declared but not named",
        ])
    }
}
