// `nearby`: a thin shell over the Nearby library (docs/nearby.md).
import AppRegistry
import Nearby
import SystemCalls
import ToolSupport

// Sending and receiving stream 256 KiB data frames: kept on the heap, their pages are not
// faulted in afresh for every frame (HeapPolicy says what it measured).
HeapPolicy.keepOnHeap(blocksUpTo: 4 << 20, retaining: 32 << 20)

ToolMain.run(nearbySpec, options: NearbyOption.self, verbs: NearbyVerb.self, values: { NearbyCompletions.values($0) }) { command in
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
