// `nearby`: a thin shell over the Nearby library (docs/nearby.md).
import AppRegistry
import Nearby
import ToolSupport

ToolMain.run(nearbySpec, options: NearbyOption.self, verbs: NearbyVerb.self) { command in
    let tool = NearbyTool(command)
    do {
        return try tool.run()
    } catch {
        Output.error("nearby: \(error)")
        return 2
    }
}
