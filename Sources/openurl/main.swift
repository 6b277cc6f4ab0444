// `openurl`: open a URL with the app that handles its scheme, answer canOpenURL, list who claims
// a scheme (docs/url-schemes.md).
import ToolSupport

ToolMain.run(openurlSpec, options: OpenurlOption.self, verbs: OpenurlVerb.self) { command in
    do throws(OpenurlCommands.Failure) {
        return try OpenurlCommands(command).run()
    } catch {
        Output.error("openurl: \(error.message)")
        return error.status
    }
}
