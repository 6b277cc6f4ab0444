import ToolSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
// `plutil`: check, print, convert and edit property lists, compatible with Apple's tool.
do {
    let invocation = try PlutilInvocation.parse(ProcessArguments.afterProgramName())
    if case .help = invocation.verb {
        Output.text(usage)
        exit(0)
    }
    var runner = PlutilRunner(invocation)
    let status = runner.run()
    // Exit with the runner (and the last document it read) still alive: the process's exit
    // frees it at once. The closure is @Sendable so that it is not main-actor isolated, which
    // would link the concurrency runtime and libdispatch for a dynamic isolation check (and
    // start libdispatch in every run: four more system calls).
    withExtendedLifetime(runner) { @Sendable in exit(status) }
} catch {
    Output.error(error.message)
    Output.error("Use -help for usage.")
    exit(1)
}
