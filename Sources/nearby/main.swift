// `nearby`: a thin shell over the Nearby library (docs/nearby.md).
import AppRegistry
import Nearby
import ToolSupport

ToolMain.run(nearbySpec, options: NearbyOption.self, verbs: NearbyVerb.self) { command in
    let tool = NearbyTool(command)
    do {
        return try tool.run()
    } catch let error as UsageError {
        // A bound the parser cannot check by itself (--timeout's maximum): said as it says its own.
        Output.error("nearby: \(error.message)\nSee \(error.verb.map { "nearby help \($0)" } ?? "nearby --help").")
        return 2
    } catch {
        Output.error("nearby: \(error)")
        return 2
    }
}
