// `defaults`: a thin shell over the SharedDefaults library (docs/app-groups.md).
import AppRegistry
import SharedDefaults
import ToolSupport

ToolMain.run(defaultsSpec, options: DefaultsOption.self, verbs: DefaultsVerb.self) { command in
    let tool = DefaultsCommands(command: command, root: DeviceRoot.resolve(explicit: command[.root]))
    do throws(Failure) {
        return try tool.run()
    } catch {
        Output.error(error.message)
        return error.status
    }
}
