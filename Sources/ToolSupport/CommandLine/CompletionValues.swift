import SystemCalls
/// What a completion script asks the tool while a command line is being completed:
/// `TOOL --complete-values SOURCE [--root ROOT]`, for a value or operand declared
/// ``ValueKind/completed(placeholder:source:)``. The tool answers from its own state (nearby: the
/// paired devices' names), so that no script reads a tool's files, nor learns their format.
package struct CompletionValuesRequest: Sendable, Hashable {
    /// The source named in the declaration.
    package var source: String
    /// The device root named on the command line being completed (`--root`), if any; the tool
    /// resolves it as it resolves its own `--root`.
    package var root: String?

    /// A request.
    package init(source: String, root: String? = nil) {
        self.source = source
        self.root = root
    }
}

/// A tool's answer to a ``CompletionValuesRequest``: the values as they are. It must create
/// nothing and say nothing: it runs at every press of Tab, on roots that may not exist.
package typealias CompletionValuesProvider = @Sendable (CompletionValuesRequest) -> [String]

/// `--complete-values`, answered by ``ToolMain`` before parsing.
package enum CompletionValues {
    /// The option the scripts call the tool with.
    package static let option = "--complete-values"

    /// The request in `arguments` (the words after `--complete-values`), or `nil` when they are not
    /// `SOURCE [--root ROOT]` with a source `spec` declares.
    package static func request(_ arguments: ArraySlice<String>, of spec: ToolSpec) -> CompletionValuesRequest? {
        let words = Array(arguments)
        guard let source = words.first, spec.completedSources.contains(source) else { return nil }
        switch words.count {
        case 1: return CompletionValuesRequest(source: source)
        case 3 where words[1] == "--root": return CompletionValuesRequest(source: source, root: words[2])
        default: return nil
        }
    }

    /// The answer's text: one value a line, each made display-safe by the one escaping rule
    /// (``TerminalText``), so that a newline in a device's name cannot make two candidates, nor a
    /// tab a fish description; empty values left out.
    package static func text(_ values: [String]) -> String {
        values.filter { !$0.isEmpty }.map { TerminalText.escaped($0) + "\n" }.joined()
    }
}
