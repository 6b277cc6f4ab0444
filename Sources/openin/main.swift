// `openin`: which apps and activities can take a document, and hand it over.
import ToolSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

do {
    let invocation = try OpeninInvocation.parse(ProcessArguments.afterProgramName())
    exit(try OpeninCommands(invocation).run())
} catch let error as OpeninInvocation.UsageError {
    Output.error("openin: \(error.message)")
    Output.error("Use openin --help for usage.")
    exit(2)
} catch let error as OpeninCommands.Failure {
    Output.error("openin: \(error.message)")
    exit(error.status)
} catch {
    Output.error("openin: \(error)")
    exit(2)
}
