#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Signals sent to processes, and what state a process is in.
package enum ProcessSignals {
    /// Sends `signal` to the process `pid` (0 checks only that it exists and may be signalled).
    /// The corresponding C function is `kill`.
    package static func send(_ signal: Int32, to pid: Int32) throws(SystemCallError) {
        _ = try invoke(.kill, path: "process \(pid)") { kill(pid, signal) }
    }

    /// The run state of a process, as `/proc/PID/stat` reports it.
    package enum RunState: Sendable, Hashable {
        /// Running or waiting (R, S, D, I).
        case running
        /// Stopped by a signal or traced by a debugger (T, t): it holds what it holds until
        /// continued.
        case stopped
        /// Ended and not yet reaped (Z, X).
        case ended
        /// No such process.
        case gone
    }

    /// The state of `pid`.
    package static func state(of pid: Int32) -> RunState {
        guard pid > 0, let bytes = try? FileSystem.read("/proc/\(pid)/stat"),
              let close = bytes.lastIndex(of: 0x29), close + 2 < bytes.count else { return .gone }
        switch bytes[close + 2] {
        case UInt8(ascii: "T"), UInt8(ascii: "t"): return .stopped
        case UInt8(ascii: "Z"), UInt8(ascii: "X"): return .ended
        default: return .running
        }
    }

    /// The real user id of this process. The corresponding C function is `getuid`.
    package static var userID: UInt32 { getuid() }
}
