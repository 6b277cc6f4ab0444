import SystemCalls

/// Why a coordinated access did not happen.
public enum CoordinationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Another process held a conflicting access longer than the timeout: its pid, and whether
    /// it is stopped (SIGSTOP, a debugger), the case that hung iOS 8.1's coordinators (TN2408).
    case timedOut(path: String, holder: Int32, stopped: Bool, seconds: Double)
    /// A presenter did not answer a request (save, relinquish, accommodate a deletion) in time.
    case presenterDidNotRespond(path: String, process: Int32, request: String, seconds: Double)
    /// A presenter answered a save or deletion request with an error.
    case presenterFailed(path: String, process: Int32, message: String)
    /// The shared table is full.
    case tableFull(path: String, limit: String)
    /// The coordinator was cancelled before the access started.
    case cancelled(path: String)
    /// A system call failed.
    case system(SystemCallError)

    /// One sentence.
    public var description: String {
        switch self {
        case .timedOut(let path, let holder, let stopped, let seconds):
            "\(path) stayed in use by process \(holder)\(stopped ? " (stopped)" : "") for \(seconds) s"
        case .presenterDidNotRespond(let path, let process, let request, let seconds):
            "the presenter of \(path) in process \(process) did not answer '\(request)' within \(seconds) s"
        case .presenterFailed(let path, let process, let message):
            "the presenter of \(path) in process \(process) failed: \(message)"
        case .tableFull(let path, let limit): "the coordination table \(path) is full (\(limit))"
        case .cancelled(let path): "the coordination of \(path) was cancelled"
        case .system(let error): error.description
        }
    }
}
