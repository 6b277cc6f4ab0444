// `uti`: query and maintain the type registry of a device root.
import ToolSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

do {
    let invocation = try UtiInvocation.parse(ProcessArguments.afterProgramName())
    exit(try UtiCommands(invocation).run())
} catch let error as UtiInvocation.UsageError {
    Output.error("uti: \(error.message)")
    Output.error("Use uti --help for usage.")
    exit(2)
} catch let error as UtiCommands.Failure {
    Output.error("uti: \(error.message)")
    exit(error.status)
} catch {
    Output.error("uti: \(error)")
    exit(2)
}
