import Dispatch
import Synchronization

/// Runs async library calls from the tool's synchronous entry (``ToolSupport/ToolMain``), whose
/// body must stay synchronous so the query tools never start the concurrency runtime: the main
/// thread waits while the work runs on the cooperative pool.
enum AsyncBridge {
    static func run(_ body: @escaping @Sendable () async -> Int32) -> Int32 {
        let done = DispatchSemaphore(value: 0)
        let status = Mutex<Int32>(2)
        Task {
            let result = await body()
            status.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return status.withLock { $0 }
    }
}
