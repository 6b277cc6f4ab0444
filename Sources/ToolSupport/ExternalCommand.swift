import SystemCalls

/// Runs an optional helper program found on `PATH` (Graphviz's `dot`, `lp`, `xclip`), feeding it
/// bytes and collecting its output. Never through a shell.
package enum ExternalCommand {
    /// Whether `name` is an executable on `PATH`.
    package static func exists(_ name: String) -> Bool { Environment.findExecutable(name) != nil }

    /// The standard output of `arguments` run with `input` on standard input, or `nil` when the
    /// program is missing or exits non-zero.
    package static func run(_ arguments: [String], input: [UInt8]) -> [UInt8]? {
        guard let name = arguments.first, exists(name), let finished = try? Spawn.run(arguments, input: input) else { return nil }
        return finished.status == 0 ? finished.output : nil
    }
}
