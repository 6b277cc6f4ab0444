// `defaults`: a thin shell over the SharedDefaults library (docs/app-groups.md).
import AppRegistry
import SharedDefaults
import ToolSupport

ToolMain.run(defaultsSpec) { command in
    let tool = DefaultsCommands(command: command, root: DeviceRoot.resolve(explicit: command.value("--root")))
    do throws(Failure) {
        return try tool.run()
    } catch {
        Output.error(error.message)
        return error.status
    }
}
