import SystemCalls

/// The entry every tool goes through: `--version`, `help [VERB]`, `--help`, the man page and
/// completion scripts (`--generate-man`, `--generate-completion SHELL`, for the installer), the
/// values those scripts ask for (`--complete-values SOURCE`), usage errors (status 2, naming the
/// offending word) — then the tool's own body.
package enum ToolMain {
    /// The release of the toolkit, printed by `--version` and written into man pages.
    package static let version = "0.5.0"
    /// The date written into man pages.
    package static let releaseDate = "2026-11-24"

    /// Parses the process's arguments against `spec`, answers the standard requests, and runs
    /// `body` with the parsed command; exits with its status.
    /// `body` is `@Sendable` so that a closure written in a tool's top-level code is not
    /// main-actor isolated: calling an isolated closure from here would need a dynamic isolation
    /// check, which links and starts the concurrency runtime in every short-lived process.
    /// - Parameters:
    ///   - options: the tool's option names; `--check-names` (before parsing) reports any the
    ///     spec does not declare, or declared options without a name, and exits 1 (0 when they agree).
    ///   - verbs: the tool's verb names, checked the same way.
    ///   - values: lists the values of the sources the spec declares
    ///     (``ValueKind/completed(placeholder:source:)``) for `--complete-values SOURCE
    ///     [--root ROOT]`, which the completion scripts run; `nil` lists none.
    package static func run<O: OptionName, V: VerbName>(_ spec: ToolSpec, options: O.Type, verbs: V.Type,
                                                       values: CompletionValuesProvider? = nil,
                                                       _ body: @Sendable (ToolCommand<O, V>) -> Int32) -> Never {
        let arguments = ProcessArguments.afterProgramName()
        if arguments.first == "--check-names" {
            let problems = spec.mismatches(options: options, verbs: verbs)
            for problem in problems { Output.error("\(spec.name): \(problem)") }
            exitProcess(problems.isEmpty ? 0 : 1)
        }
        // The installer's requests are answered before parsing: they are not in the declaration.
        if arguments.first == "--generate-man" {
            Output.text(ManPage.page(spec, version: version, date: releaseDate))
            exitProcess(0)
        }
        if arguments.first == "--generate-completion" {
            guard arguments.count == 2, let script = Completions.script(spec, shell: arguments[arguments.startIndex + 1]) else {
                Output.error("\(spec.name): --generate-completion takes one of \(Completions.shells.joined(separator: ", "))")
                exitProcess(2)
            }
            Output.text(script)
            exitProcess(0)
        }
        if arguments.first == CompletionValues.option {
            guard let request = CompletionValues.request(arguments.dropFirst(), of: spec) else {
                let sources = spec.completedSources
                Output.error("\(spec.name): \(CompletionValues.option) takes " + (sources.isEmpty ? "no source: \(spec.name) completes nothing by asking itself"
                                                                              : "one of \(sources.joined(separator: ", ")), then optionally --root ROOT"))
                exitProcess(2)
            }
            Output.text(CompletionValues.text(values?(request) ?? []))
            exitProcess(0)
        }
        let command: ParsedCommand
        do {
            if let help = try helpRequest(spec, arguments) { Output.text(help); exitProcess(0) }
            command = try spec.parse(arguments)
        } catch {
            let pointer = spec.helpWord ? (error.verb.map { "\(spec.name) help \($0)" } ?? "\(spec.name) --help") : "\(spec.name) -help"
            Output.error("\(spec.name): \(error.message)\nSee \(pointer).")
            exitProcess(spec.usageErrorStatus)
        }
        if command.flag(named: "--version") { Output.line("\(spec.name) \(version)"); exitProcess(0) }
        if command.flag(named: "--help") {
            Output.text(command.verb.flatMap(spec.verb).map { HelpText.verb($0, of: spec) } ?? HelpText.tool(spec))
            exitProcess(0)
        }
        exitProcess(body(ToolCommand(command)))
    }

    /// The help text for `help`, `help VERB`, or a tool run with no words at all when it needs a
    /// verb; `nil` when the command line asks for something else.
    static func helpRequest(_ spec: ToolSpec, _ arguments: ArraySlice<String>) throws(UsageError) -> String? {
        if arguments.isEmpty && spec.operands == nil && !spec.verbs.isEmpty { return HelpText.tool(spec) }
        guard spec.helpWord, arguments.first == "help", spec.verb("help") == nil else { return nil }
        let rest = arguments.dropFirst()
        guard let name = rest.first else { return HelpText.tool(spec) }
        guard rest.count == 1, let verb = spec.verb(name) else {
            throw UsageError("help takes one verb (" + spec.verbs.map(\.name).joined(separator: ", ") + "), not '\(rest.joined(separator: " "))'")
        }
        return HelpText.verb(verb, of: spec)
    }

    /// Ends the process with `status`.
    package static func exitProcess(_ status: Int32) -> Never { CurrentProcess.exit(status) }
}
