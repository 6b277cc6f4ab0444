/// A tool's options, named once as an enum whose raw values are the options as typed
/// (`case root = "--root"`). A tool reads its command line only through these (``ToolCommand``:
/// `command[.root]`, `command.flag(.json)`), so a mistyped option name does not compile, and
/// `TOOL --check-names` (run by the snapshot tests) proves every case is declared in the spec.
package protocol OptionName: RawRepresentable, CaseIterable, Sendable where RawValue == String {}

/// A tool's verbs, named once as an enum whose raw values are the verbs as typed; a tool
/// switches over ``ToolCommand/verb`` exhaustively, so a verb without a branch does not compile.
package protocol VerbName: RawRepresentable, CaseIterable, Sendable where RawValue == String {}

/// A tool without verbs.
package enum NoVerbs: String, VerbName {
    /// Never made: a tool without verbs has no verb to name.
    case none = ""
}

/// A parsed command line as a tool reads it: through its own option and verb enums, so that
/// `command[.root]`, `command.flag(.json)` and `switch command.verb` name the tool's cases and a
/// mistyped name does not compile. ``ToolMain/run(_:options:verbs:_:)`` hands each tool one.
package struct ToolCommand<Option: OptionName, Verb: VerbName>: Sendable {
    /// The command line as parsed against the spec.
    package let parsed: ParsedCommand

    /// A parsed command read through `Option` and `Verb`.
    package init(_ parsed: ParsedCommand) { self.parsed = parsed }

    /// The option's value (the last one given).
    package subscript(_ option: Option) -> String? { parsed.value(named: option.rawValue) }
    /// Whether the flag (or option) was given.
    package func flag(_ option: Option) -> Bool { parsed.flag(named: option.rawValue) }
    /// Every value of a repeatable option.
    package func all(_ option: Option) -> [String] { parsed.all(named: option.rawValue) }
    /// The verb given (`nil`: none was).
    package var verb: Verb? { parsed.verb.flatMap(Verb.init(rawValue:)) }
    /// The operands, in order.
    package var operands: [String] { parsed.operands }
    /// The words of each argument the verb took right after it.
    package var arguments: [[String]] { parsed.arguments }
    /// Every option in the order given, with its values (notifyutil's commands).
    package var sequence: [ParsedCommand.GivenOption] { parsed.sequence }
}

extension ToolSpec {
    /// The names an enum has that the spec does not declare, and the reverse: what
    /// `--check-names` reports. Empty when the enums and the spec agree.
    package func mismatches<O: OptionName, V: VerbName>(options: O.Type, verbs: V.Type) -> [String] {
        let declaredOptions = Set((allOptions + ToolSpec.standardOptions).map(\.name))
        let declaredVerbs = Set(self.verbs.map(\.name))
        var problems: [String] = []
        for option in O.allCases where !declaredOptions.contains(option.rawValue) { problems.append("option \(option.rawValue) is named but not declared") }
        let named = Set(O.allCases.map(\.rawValue))
        for option in allOptions.map(\.name) where !named.contains(option) { problems.append("option \(option) is declared but not named") }
        if V.self != NoVerbs.self {
            for verb in V.allCases where !declaredVerbs.contains(verb.rawValue) { problems.append("verb \(verb.rawValue) is named but not declared") }
            let namedVerbs = Set(V.allCases.map(\.rawValue))
            for verb in declaredVerbs where !namedVerbs.contains(verb) { problems.append("verb \(verb) is declared but not named") }
        } else if !declaredVerbs.isEmpty {
            problems.append("the spec declares verbs but the tool names none")
        }
        return problems.sorted()
    }
}
