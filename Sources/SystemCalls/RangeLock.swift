import CSystemShims
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// Locks on a byte range (OFD `fcntl` locks), for taking part in another program's locking
// protocol: SQLite's is made of such ranges. Our own locks are whole-file `flock` locks
// (FileLock.swift). An OFD lock belongs to the open file description, like a `flock` lock, so
// closing another descriptor of the same file (as SQLite does) does not release it; closing this
// one does.
extension OwnedDescriptor {
    /// Takes a `kind` lock on `length` bytes from `start` if nobody holds a conflicting one;
    /// `false` when somebody does. Held until the descriptor closes. The corresponding C function
    /// is `fcntl` (`F_OFD_SETLK`).
    package func tryLock(_ kind: FileLockKind, bytes start: Int64, count length: Int64) throws(SystemCallError) -> Bool {
        do {
            _ = try invoke(.flock, path: path) { di_ofd_trylock_range(raw, kind == .exclusive ? 1 : 0, start, length) }
            return true
        } catch where error.errno == .resourceTemporarilyUnavailable || error.errno == .permissionDenied {
            return false
        }
    }
}
