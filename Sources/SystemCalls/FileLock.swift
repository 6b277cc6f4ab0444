#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How a whole-file advisory lock is held.
package enum FileLockKind: Sendable {
    /// Several holders at once (readers).
    case shared
    /// One holder (a writer).
    case exclusive
}

// Whole-file advisory locks (`flock`). A lock belongs to the open file description, not the
// process: it goes when the last descriptor for it is closed, so a writer killed with SIGKILL
// never leaves a pasteboard locked. `flock` rather than OFD `fcntl` locks: the whole file is
// always locked, and flock measured 1.3-2.0 µs per lock and unlock against 2.2-3.5 µs
// (shared/ANCHORS.md).
extension OwnedDescriptor {
    /// Takes the lock, waiting until it is free. The corresponding C function is `flock`.
    package func lock(_ kind: FileLockKind) throws(SystemCallError) {
        _ = try invoke(.flock, path: path) { flock(raw, kind == .shared ? LOCK_SH : LOCK_EX) }
    }

    /// Takes the lock if it is free now; `false` when another holder has it. The corresponding C
    /// function is `flock` (`LOCK_NB`).
    package func tryLock(_ kind: FileLockKind) throws(SystemCallError) -> Bool {
        do {
            _ = try invoke(.flock, path: path) { flock(raw, (kind == .shared ? LOCK_SH : LOCK_EX) | LOCK_NB) }
            return true
        } catch where error.errno == .wouldBlock {
            return false
        }
    }

    /// Gives the lock up (closing the descriptor does too). The corresponding C function is `flock`.
    package func unlock() throws(SystemCallError) {
        _ = try invoke(.flock, path: path) { flock(raw, LOCK_UN) }
    }
}
