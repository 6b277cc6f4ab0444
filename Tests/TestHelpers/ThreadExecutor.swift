import Foundation

/// A task executor with a thread of its own, for tests whose tasks talk to each other in time
/// (a receiver and a sender in one process, with idle timeouts): sync tests of other suites
/// block the cooperative pool's threads (two on this machine) while they wait for processes, and
/// tasks on the pool then stall for as long. Tasks that prefer this executor run regardless.
public final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    /// One for the whole test process: its thread lives as long as the process.
    public static let shared = ThreadExecutor(name: "test-executor")

    /// One of its own, for a test whose tasks must not wait behind the others' on ``shared``
    /// (a test there that blocks its thread stalls them all); its thread lives as long as the process.
    public static func dedicated(_ name: String) -> ThreadExecutor { ThreadExecutor(name: name) }

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    private init(name: String) {
        let thread = Thread { [unowned self] in self.loop() }
        thread.name = name
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func loop() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
