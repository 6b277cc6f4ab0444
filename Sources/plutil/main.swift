// `plutil`: check, print, convert and edit property lists, compatible with Apple's tool.
import ToolSupport

ToolMain.run(plutilSpec, options: PlutilOption.self, verbs: PlutilVerb.self) { command in
    let invocation: PlutilInvocation
    do throws(PlutilInvocation.UsageError) { invocation = try PlutilInvocation(command) } catch {
        Output.error("plutil: \(error.message)\nSee plutil -help.")
        return 1
    }
    if case .help = invocation.verb {
        Output.text(HelpText.tool(plutilSpec))
        return 0
    }
    var runner = PlutilRunner(invocation)
    let status = runner.run()
    // Exit with the runner (and the last document it read) still alive: the process's exit
    // frees it at once, instead of a tear-down of the tree node by node.
    withExtendedLifetime(runner) { ToolMain.exitProcess(status) }
}
