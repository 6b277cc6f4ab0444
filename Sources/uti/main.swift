// `uti`: query and maintain the type registry of a device root (docs/types.md).
import ToolSupport

ToolMain.run(utiSpec, options: UtiOption.self, verbs: UtiVerb.self) { command in
    do throws(UtiCommands.Failure) {
        return try UtiCommands(command).run()
    } catch {
        Output.error("uti: \(error.message)")
        return error.status
    }
}
