#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How a file lock is held: shared with other shared holders, or alone.
package enum FileLockKind: Sendable, Hashable {
    /// Many holders at once; excludes an exclusive holder (`LOCK_SH`).
    case shared
    /// One holder; excludes every other (`LOCK_EX`).
    case exclusive

    var operation: Int32 { self == .shared ? LOCK_SH : LOCK_EX }
}

// Whole-file advisory locks (`flock`). Chosen over POSIX record locks, which a process loses when
// it closes *any* descriptor of the file, and over OFD locks, which cost more (measured in
// ../shared/peers/appgroups: flock 1.3–2.0 µs, OFD 2.2–3.5 µs per lock and unlock). A flock lock
// belongs to the open file description: it is released when the last descriptor of it closes,
// and so when its process is killed — a writer killed with SIGKILL never leaves a lock behind.
extension OwnedDescriptor {
    /// Waits until the lock is granted. The corresponding C function is `flock`.
    package func lock(_ kind: FileLockKind) throws(SystemCallError) {
        _ = try invoke(.flock, path: path) { flock(raw, kind.operation) }
    }

    /// Takes the lock if nobody holds a conflicting one; `false` when somebody does. The
    /// corresponding C function is `flock` (`LOCK_NB`).
    package func tryLock(_ kind: FileLockKind) throws(SystemCallError) -> Bool {
        do {
            _ = try invoke(.flock, path: path) { flock(raw, kind.operation | LOCK_NB) }
            return true
        } catch where error.errno == .wouldBlock {
            return false
        }
    }

    /// Releases the lock. The corresponding C function is `flock` (`LOCK_UN`).
    package func unlock() {
        _ = flock(raw, LOCK_UN)
    }

}
