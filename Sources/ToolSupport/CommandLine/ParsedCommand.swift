import Spelling

/// A command line parsed against a ``ToolSpec``.
package struct ParsedCommand: Sendable {
    /// The verb, when the tool has verbs and one was given.
    package var verb: String?
    /// The operands, in order.
    package var operands: [String] = []
    /// The words of each argument the verb took right after it (a typed value has two).
    package var arguments: [[String]] = []
    /// Each option given, by its long name, with its values in order (flags: one empty value per use).
    package var values: [String: [String]] = [:]
    /// Every option in the order given, with all its values (a first value, then its trailing
    /// ones): for tools whose options are commands run in order (notifyutil).
    package var sequence: [GivenOption] = []

    /// One option as given.
    package struct GivenOption: Sendable, Hashable {
        /// Its name as declared.
        package var name: String
        /// Its values (none for a flag or an optional value left out).
        package var values: [String]
    }

    // By name, for the shared parts (help, version) and the tests; tools read their options
    // through their own ``OptionName`` enums (CommandNames.swift), so a typo does not compile.
    /// Whether the flag (or option) `name` was given.
    package func flag(named name: String) -> Bool { values[name] != nil }
    /// The value of `name` (the last one given).
    package func value(named name: String) -> String? { values[name]?.last }
    /// Every value of a repeatable option.
    package func all(named name: String) -> [String] { values[name] ?? [] }
}

/// A command line that does not fit the tool's declaration: what is wrong, in one sentence that
/// names the offending word.
package struct UsageError: Error, Sendable, CustomStringConvertible {
    package var message: String
    /// The verb it concerns, for pointing at `help VERB`.
    package var verb: String?
    package var description: String { message }

    /// A usage error.
    package init(_ message: String, verb: String? = nil) {
        self.message = message
        self.verb = verb
    }
}

extension ToolSpec {
    /// Parses `arguments` (without the program name). Options may stand before or after the
    /// verb; `--name=value` is split; `--` ends the options.
    package func parse(_ arguments: ArraySlice<String>) throws(UsageError) -> ParsedCommand {
        var result = ParsedCommand()
        var verbSpec: VerbSpec?
        var words = ArgumentWords(arguments)
        // Every option of the tool, needed only when a word is not an option of the verb (an
        // error, or no verb yet): built then, not for every command line (a Set of names and its
        // run-time type lookup were 2-3% of an `openin --list` process).
        func known() -> [OptionSpec] { allOptions + ToolSpec.standardOptions }
        while let word = words.next() {
            if word == "--" { result.operands += words.remaining(); break }
            // A verb (some tools spell theirs with a dash: plutil's -convert), and the values it
            // takes right after it.
            if !verbs.isEmpty && result.operands.isEmpty, let found = verb(word) {
                if let current = verbSpec {
                    if found.name.hasPrefix("-") { throw UsageError("\(found.name) and \(current.name) exclude each other: give one command", verb: current.name) }
                } else {
                    verbSpec = found
                    result.verb = found.name
                    for argument in found.arguments {
                        guard let first = words.value() else { throw UsageError("\(found.name) needs \(argument.name)", verb: found.name) }
                        if case .typedValue(let withText, let bare) = argument.kind {
                            if bare.contains(first) { result.arguments.append([first]); continue }
                            guard withText.contains(first) else {
                                throw UsageError("\(found.name) needs a value type (\((withText + bare).joined(separator: ", "))), not '\(first)'", verb: found.name)
                            }
                            guard let text = words.value() else { throw UsageError("\(first) needs a value", verb: found.name) }
                            result.arguments.append([first, text])
                        } else {
                            try Self.check(first, as: argument.kind, for: argument.name)
                            result.arguments.append([first])
                        }
                    }
                    continue
                }
            }
            if word.count > 1, word.hasPrefix("-"), word.dropFirst().allSatisfy(\.isASCII), word.dropFirst().allSatisfy(\.isNumber),
               let option = (options(for: verbSpec) + ToolSpec.standardOptions).first(where: \.countForm) {
                guard let given = words.value() else { throw UsageError("\(word) needs a value (\(option.placeholder ?? option.value?.placeholder ?? "VALUE"))", verb: verbSpec?.name) }
                result.values[option.name, default: []].append(given)
                result.sequence.append(ParsedCommand.GivenOption(name: option.name, values: [String(word.dropFirst()), given]))
                continue
            }
            if word.hasPrefix("-") && word.count > 1 && !Self.isNumber(word) {
                // Once the verb is known, its own options come first: two verbs may use one name
                // differently (a flag for one, an option with a value for another).
                let applicable = options(for: verbSpec) + ToolSpec.standardOptions
                guard let option = applicable.first(where: { $0.name == word || $0.short == word })
                        ?? (verbSpec == nil ? known().first(where: { $0.name == word || $0.short == word }) : nil) else {
                    if let verbSpec, known().contains(where: { $0.name == word || $0.short == word }) {
                        throw UsageError("\(word) does not apply to '\(verbSpec.name)'", verb: verbSpec.name)
                    }
                    let meant = known().first { $0.mistakenFor.contains(word) }.map { " (did you mean \($0.name)?)" }
                    // Verbs spelt as options (plutil's -convert) are near misses too.
                    let dashed = verbs.flatMap { [$0.name] + $0.aliases }.filter { $0.hasPrefix("-") }
                    throw UsageError("unknown option \(word)" + (meant ?? suggestion(for: word, among: known().map(\.name) + dashed)), verb: verbSpec?.name)
                }
                var value = ""
                var given: [String] = []
                if let kind = option.value, !(option.optionalValue && (words.peek() ?? "-").hasPrefix("-")) {
                    guard let first = words.value() else { throw UsageError("\(option.name) needs a value (\(option.placeholder ?? kind.placeholder))", verb: verbSpec?.name) }
                    try Self.check(first, as: kind, for: option.name)
                    value = first
                    given.append(first)
                    for argument in option.trailing {
                        guard let next = words.value() else { throw UsageError("\(option.name) needs \(argument.name) after \(first)", verb: verbSpec?.name) }
                        try Self.check(next, as: argument.kind, for: option.name + " " + argument.name)
                        given.append(next)
                    }
                }
                result.sequence.append(ParsedCommand.GivenOption(name: option.name, values: given))
                if !option.repeatable, option.value != nil, result.values[option.name] != nil {
                    throw UsageError("\(option.name) is given twice", verb: verbSpec?.name)
                }
                result.values[option.name, default: []].append(value)
                continue
            }
            if !verbs.isEmpty && result.verb == nil && result.operands.isEmpty {
                if operands == nil {
                    throw UsageError("unknown verb '\(word)'" + suggestion(for: word, among: verbs.map(\.name))
                                     + "; the verbs are " + verbs.map(\.name).joined(separator: ", "))
                }
            }
            if verbs.isEmpty && operands == nil {
                // A word a tool has no place for is a mistake, not something to ignore.
                throw UsageError("unexpected word '\(word)': \(name) takes options only")
            }
            result.operands.append(word)
        }
        // Options given before the verb must also apply to it.
        if let verbSpec {
            for name in result.values.keys where !options(for: verbSpec).contains(where: { $0.name == name })
                && !ToolSpec.standardOptions.contains(where: { $0.name == name }) {
                throw UsageError("\(name) does not apply to '\(verbSpec.name)'", verb: verbSpec.name)
            }
            if !verbSpec.operandCount.contains(result.operands.count) && !result.flag(named: "--help") {
                let range = verbSpec.operandCount
                let wanted = range.lowerBound == range.upperBound ? "\(range.lowerBound)" :
                    range.upperBound == Int.max ? "at least \(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
                throw UsageError("'\(verbSpec.name)' takes \(wanted) operand\(range.upperBound == 1 ? "" : "s") (\(verbSpec.operands.isEmpty ? "none" : verbSpec.operands)), not \(result.operands.count)",
                                 verb: verbSpec.name)
            }
        }
        return result
    }

    static func isNumber(_ word: String) -> Bool { Double(word) != nil }

    /// Checks a value against its kind.
    static func check(_ value: String, as kind: ValueKind, for option: String) throws(UsageError) {
        switch kind {
        case .choice(let words):
            guard words.contains(value) else { throw UsageError("\(option) takes one of \(words.joined(separator: ", ")), not '\(value)'") }
        case .integer(let range):
            guard let n = Int64(value), range.contains(n) else { throw UsageError("\(option) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(value)'") }
        case .number(let name):
            guard let n = Double(value), n > 0, n.isFinite else { throw UsageError("\(option) takes a positive number (\(name)), not '\(value)'") }
        case .text, .file, .directory, .typedValue, .bundleIdentifier, .completed:
            guard !value.isEmpty else { throw UsageError("\(option) needs a value that is not empty") }
        }
    }

    /// "; did you mean X?" for a near miss.
    func suggestion(for word: String, among names: [String]) -> String {
        Spelling.nearest(to: word, among: names).map { " (did you mean \($0)?)" } ?? ""
    }
}
