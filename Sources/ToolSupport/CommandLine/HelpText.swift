/// `--help` and `help VERB`, made from the tool's declaration.
package enum HelpText {
    /// The tool's help: summary, usage, verbs, options, discussion, exit status, environment,
    /// files, examples.
    package static func tool(_ spec: ToolSpec) -> String {
        var out = "\(spec.name): \(spec.summary)\n\nUsage:\n"
        if let operands = spec.operands { out += "  \(spec.name) [OPTIONS] \(operands)\n" }
        if !spec.verbs.isEmpty { out += "  \(spec.name) \(spec.verbs.allSatisfy { $0.name.hasPrefix("-") } ? "COMMAND" : "VERB") [OPTIONS] [ARGUMENTS]\n" }
        if !spec.verbs.isEmpty {
            out += "\nVerbs:\n"
            out += table(spec.verbs.map { ($0.usage, $0.summary) })
        }
        let options = spec.options + ToolSpec.standardOptions
        out += "\nOptions\(spec.verbs.isEmpty ? "" : " (before or after the verb)"):\n" + table(options.map { ($0.usage, $0.help) })
        let verbOptions = spec.verbOptions
        if !verbOptions.isEmpty {
            out += "\nOptions of one verb (see \(spec.name) help VERB):\n"
            out += table(verbOptions.map { ($0.option.usage, $0.option.help + " [" + $0.verbs.joined(separator: ", ") + "]") })
        }
        for paragraph in spec.discussion { out += "\n" + wrap(paragraph) + "\n" }
        if !spec.exitStatus.isEmpty {
            out += "\nExit status: " + spec.exitStatus.map { "\($0.status) \($0.meaning)" }.joined(separator: ", ") + ".\n"
        }
        if !spec.environment.isEmpty { out += "\nEnvironment:\n" + table(spec.environment.map { ($0.name, $0.meaning) }) }
        if !spec.files.isEmpty { out += "\nFiles:\n" + table(spec.files.map { ($0.path, $0.meaning) }) }
        if !spec.examples.isEmpty {
            out += "\nExamples:\n" + spec.examples.map { "  \($0.command)\n      \($0.meaning)\n" }.joined()
        }
        return out
    }

    /// One verb's help.
    package static func verb(_ verb: VerbSpec, of spec: ToolSpec) -> String {
        var out = "\(spec.name) \(verb.name): \(verb.summary)\n\nUsage:\n  \(spec.name) \(([verb.name] + verb.arguments.map(\.name)).joined(separator: " "))"
        out += (verb.options.isEmpty && spec.options.isEmpty ? "" : " [OPTIONS]") + (verb.operands.isEmpty ? "" : " " + verb.operands) + "\n"
        let options = verb.options + spec.options
        if !options.isEmpty { out += "\nOptions:\n" + table(options.map { ($0.usage, $0.help) }) }
        for paragraph in verb.discussion { out += "\n" + wrap(paragraph) + "\n" }
        let examples = spec.examples.filter { $0.command.hasPrefix("\(spec.name) \(verb.name)") || $0.command.contains(" \(verb.name) ") }
        if !examples.isEmpty { out += "\nExamples:\n" + examples.map { "  \($0.command)\n      \($0.meaning)\n" }.joined() }
        return out
    }

    /// Two columns, the second wrapped.
    static func table(_ rows: [(String, String)]) -> String {
        let width = min(30, (rows.map { $0.0.count }.max() ?? 0) + 2)
        var out = ""
        for (left, right) in rows {
            let pad = left.count + 2 <= width ? String(repeating: " ", count: width - left.count) : "\n" + String(repeating: " ", count: width + 2)
            let lines = wrapLines(right, width: 98 - width)
            out += "  " + left + pad + lines.joined(separator: "\n" + String(repeating: " ", count: width + 2)) + "\n"
        }
        return out
    }

    /// A paragraph wrapped at 100 columns; lines starting with "- " keep their own line.
    static func wrap(_ paragraph: String) -> String {
        paragraph.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let indent = line.hasPrefix("- ") ? "  " : ""
            return wrapLines(String(line), width: 100).enumerated().map { $0.offset == 0 ? $0.element : indent + $0.element }.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    static func wrapLines(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if !current.isEmpty && current.count + 1 + word.count > width { lines.append(current); current = "" }
            current += (current.isEmpty ? "" : " ") + word
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }
}
