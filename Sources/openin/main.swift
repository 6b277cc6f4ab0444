// `openin`: which apps and activities can take a document, and hand it over (docs/handlers.md).
import SystemCalls
import ToolSupport

ToolMain.run(openinSpec, options: OpeninOption.self, verbs: OpeninVerb.self) { command in
    do throws(OpeninCommands.Failure) {
        return try OpeninCommands(command).run()
    } catch {
        // Messages quote paths and names: escaped, never raw to the terminal.
        Output.error("openin: \(TerminalText.escaped(error.message))")
        return error.status
    }
}
