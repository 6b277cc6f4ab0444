import Synchronization
import SystemCalls

/// Work done once per process on first use, such as starting a delivery thread: the first caller
/// does it; callers arriving meanwhile wait until it has finished; every later caller returns at
/// once, or gets the failure the first one got (a start that failed is not retried behind the
/// caller's back).
package final class StartOnce<Failure: Error & Sendable>: Sendable {
    private enum Phase: Sendable {
        case notStarted, starting, started
        case failed(Failure)
    }

    private let phase = Mutex<Phase>(.notStarted)

    /// Creates a start that has not happened yet.
    package init() {}

    /// Runs `start` if nobody has; otherwise waits for the run in progress and answers as it did.
    package func run(_ start: () throws(Failure) -> Void) throws(Failure) {
        let first = phase.withLock { phase -> Bool in
            guard case .notStarted = phase else { return false }
            phase = .starting
            return true
        }
        if first {
            do {
                try start()
                phase.withLock { $0 = .started }
            } catch {
                phase.withLock { $0 = .failed(error) }
                throw error
            }
            return
        }
        // A start takes a thread's start-up (well under a millisecond): polling is cheaper to
        // get right than a condition shared with the starting thread.
        while true {
            switch phase.withLock({ $0 }) {
            case .notStarted, .starting: Clock.sleep(0.000_2)
            case .started: return
            case .failed(let failure): throw failure
            }
        }
    }
}
