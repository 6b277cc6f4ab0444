/// A man page (section 1, troff `man` macros) made from the tool's declaration.
package enum ManPage {
    /// The page for `spec`, dated `date` (YYYY-MM-DD), for `version`.
    package static func page(_ spec: ToolSpec, version: String, date: String) -> String {
        var out = ".TH \(spec.name.uppercased()) 1 \"\(date)\" \"document-interchange \(version)\" \"User Commands\"\n"
        out += ".SH NAME\n\(escape(spec.name)) \\- \(escape(spec.summary))\n.SH SYNOPSIS\n"
        if let operands = spec.operands { out += ".B \(spec.name)\n[\\fIOPTIONS\\fR] \(escape(operands))\n.br\n" }
        for verb in spec.verbs {
            out += ".B \(spec.name) \(escape(verb.name))\n\(verb.arguments.map { "\\fI" + escape($0.name) + "\\fR " }.joined())[\\fIOPTIONS\\fR]\(verb.operands.isEmpty ? "" : " " + escape(verb.operands))\n.br\n"
        }
        out += ".SH DESCRIPTION\n"
        for paragraph in spec.discussion { out += paragraphs(paragraph) }
        if !spec.verbs.isEmpty {
            out += ".SH COMMANDS\n"
            for verb in spec.verbs {
                out += ".TP\n.B \(escape(verb.usage))\n\(escape(verb.summary))\n"
                for paragraph in verb.discussion { out += ".IP\n" + escape(paragraph) + "\n" }
                if !verb.options.isEmpty { out += ".IP\nOptions: " + verb.options.map { escape($0.name) }.joined(separator: ", ") + "\n" }
            }
        }
        out += ".SH OPTIONS\n"
        for option in spec.options + ToolSpec.standardOptions {
            out += ".TP\n.B \(escape(option.usage))\n\(escape(option.help))\n"
        }
        // Each verb's options with their own help: one name may mean different things to two verbs.
        let verbOptions = spec.verbOptions
        if !verbOptions.isEmpty {
            out += ".SS \"Options of one verb\"\n"
            for (option, verbs) in verbOptions {
                out += ".TP\n.B \(escape(option.usage))\n\(escape(option.help + " [" + verbs.joined(separator: ", ") + "]"))\n"
            }
        }
        if !spec.exitStatus.isEmpty {
            out += ".SH EXIT STATUS\n"
            for (status, meaning) in spec.exitStatus { out += ".TP\n.B \(status)\n\(escape(meaning))\n" }
        }
        if !spec.environment.isEmpty {
            out += ".SH ENVIRONMENT\n"
            for (name, meaning) in spec.environment { out += ".TP\n.B \(escape(name))\n\(escape(meaning))\n" }
        }
        if !spec.files.isEmpty {
            out += ".SH FILES\n"
            for (path, meaning) in spec.files { out += ".TP\n.I \(escape(path))\n\(escape(meaning))\n" }
        }
        if !spec.examples.isEmpty {
            out += ".SH EXAMPLES\n"
            for (command, meaning) in spec.examples { out += ".TP\n.B \(escape(command))\n\(escape(meaning))\n" }
        }
        if !spec.seeAlso.isEmpty { out += ".SH SEE ALSO\n" + spec.seeAlso.map(escape).joined(separator: ", ") + "\n" }
        return out
    }

    static func paragraphs(_ text: String) -> String {
        var out = ".PP\n"
        for line in text.split(separator: "\n") {
            if line.hasPrefix("- ") { out += ".IP \\(bu 2\n" + escape(String(line.dropFirst(2))) + "\n" } else { out += escape(String(line)) + "\n" }
        }
        return out
    }

    /// Backslashes doubled, leading dots and quotes protected, hyphens as minus signs in options,
    /// characters beyond ASCII as groff's `\[uXXXX]` (troff reads bytes, not UTF-8).
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case _ where scalar.isASCII: out.unicodeScalars.append(scalar)
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            }
        }
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }
}
