import Dispatch
import Synchronization

/// Runs async library calls from the tool's synchronous entry (``ToolSupport/ToolMain``), whose
/// body must stay synchronous so the query tools never start the concurrency runtime: the main
/// thread waits while the work runs on the cooperative pool.
enum AsyncBridge {
    static func run<Result: Sendable>(_ body: @escaping @Sendable () async -> Result) -> Result {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Result?>(nil)
        Task {
            let value = await body()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }
}
