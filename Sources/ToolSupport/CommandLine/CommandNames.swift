/// A tool's options, named once as an enum whose raw values are the options as typed
/// (`case root = "--root"`). A tool reads its parsed command only through these
/// (`command[.root]`, `command.flag(.json)`), so a mistyped option name does not compile, and
/// `TOOL --check-names` (run by the snapshot tests) proves every case is declared in the spec.
package protocol OptionName: RawRepresentable, CaseIterable, Sendable where RawValue == String {}

/// A tool's verbs, named once as an enum whose raw values are the verbs as typed; a tool
/// switches over ``ParsedCommand/verb(_:)`` exhaustively, so a verb without a branch does not
/// compile.
package protocol VerbName: RawRepresentable, CaseIterable, Sendable where RawValue == String {}

/// A tool without verbs.
package enum NoVerbs: String, VerbName {
    /// Never made: a tool without verbs has no verb to name.
    case none = ""
}

extension ParsedCommand {
    // Generic, for each tool's own sugar (`command[.root]`, `command.flag(.json)`), which names
    // its enum so that `.root` resolves.
    /// Whether the flag (or option) was given.
    package func isGiven(_ option: some OptionName) -> Bool { values[option.rawValue] != nil }
    /// The option's value (the last one given).
    package func lastValue(_ option: some OptionName) -> String? { values[option.rawValue]?.last }
    /// Every value of a repeatable option.
    package func allValues(_ option: some OptionName) -> [String] { values[option.rawValue] ?? [] }
    /// The verb given, as the tool's enum (`nil`: none was given).
    package func verb<V: VerbName>(_ names: V.Type) -> V? { verb.flatMap(V.init(rawValue:)) }
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
