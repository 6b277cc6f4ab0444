import CSystemShims
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A mutex that lives in memory shared by several processes (a ``SharedMemoryFile``) and survives
/// the death of its holder: when a holder dies (SIGKILL, a crash) the kernel marks the lock and
/// hands it to the next taker, who is told so and repairs what it protects. A holder that is
/// stopped (SIGSTOP, a debugger) keeps it; takers then give up after their timeout instead of
/// hanging.
///
/// A robust, process-shared pthread mutex rather than a file lock: 16-46 ns per lock and unlock
/// against 2.2-3.5 µs for an OFD `fcntl` lock (shared/ANCHORS.md), with the same guarantee on a
/// dead holder (the kernel walks the holder's robust list when it exits) and a timed wait that
/// `fcntl` lacks. It must be unlocked by the thread that locked it.
package struct SharedMutex: @unchecked Sendable {
    /// Where the mutex is, as an integer (a pointer is not `Sendable`).
    let address: Int

    /// The bytes a mutex takes in shared memory.
    package static let size = MemoryLayout<pthread_mutex_t>.size

    /// How a lock was obtained.
    package enum Acquired: Sendable, Hashable {
        /// From a holder that unlocked it.
        case clean
        /// From a holder that died holding it: what it protects may be half-changed.
        case previousOwnerDied
    }

    /// The mutex at `pointer` (set up earlier by ``initialize(at:)``, in this or another process).
    package init(at pointer: UnsafeMutableRawPointer) {
        address = Int(bitPattern: pointer)
    }

    var mutex: UnsafeMutablePointer<pthread_mutex_t> { UnsafeMutablePointer(bitPattern: address)! }

    /// Sets up a robust, process-shared mutex at `pointer` (before other processes can see it).
    /// The corresponding C functions are `pthread_mutexattr_setrobust`,
    /// `pthread_mutexattr_setpshared` and `pthread_mutex_init`.
    @discardableResult
    package static func initialize(at pointer: UnsafeMutableRawPointer) throws(SystemCallError) -> SharedMutex {
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        defer { pthread_mutexattr_destroy(&attributes) }
        pthread_mutexattr_setpshared(&attributes, Int32(PTHREAD_PROCESS_SHARED))
        pthread_mutexattr_setrobust(&attributes, Int32(PTHREAD_MUTEX_ROBUST))
        let status = pthread_mutex_init(pointer.assumingMemoryBound(to: pthread_mutex_t.self), &attributes)
        guard status == 0 else { throw SystemCallError(.mutex, errno: .init(rawValue: status)) }
        return SharedMutex(at: pointer)
    }

    /// Takes the mutex, waiting at most `timeout` seconds (`nil`: no limit). Throws
    /// `ETIMEDOUT` when the holder kept it that long. The corresponding C function is
    /// `pthread_mutex_clocklock` (`CLOCK_MONOTONIC`).
    package func lock(timeout: Double?) throws(SystemCallError) -> Acquired {
        if let forced = FaultInjection.failure(of: .mutex, path: nil) { throw SystemCallError(.mutex, errno: forced) }
        var status: Int32
        if let timeout {
            var deadline = timespec()
            clock_gettime(CLOCK_MONOTONIC, &deadline)
            let whole = Int(max(0, timeout))
            deadline.tv_sec += whole
            deadline.tv_nsec += Int((max(0, timeout) - Double(whole)) * 1e9)
            if deadline.tv_nsec >= 1_000_000_000 { deadline.tv_sec += 1; deadline.tv_nsec -= 1_000_000_000 }
            status = di_mutex_lock_monotonic(mutex, &deadline)
        } else {
            status = pthread_mutex_lock(mutex)
        }
        return try outcome(status)
    }

    /// Takes the mutex if it is free now; `nil` when someone holds it. The corresponding C
    /// function is `pthread_mutex_trylock`.
    package func tryLock() throws(SystemCallError) -> Acquired? {
        let status = pthread_mutex_trylock(mutex)
        if status == EBUSY { return nil }
        return try outcome(status)
    }

    /// Gives the mutex up. The corresponding C function is `pthread_mutex_unlock`.
    package func unlock() { pthread_mutex_unlock(mutex) }

    private func outcome(_ status: Int32) throws(SystemCallError) -> Acquired {
        switch status {
        case 0: return .clean
        case EOWNERDEAD:
            // The holder died: the lock is ours, marked usable again; the caller repairs.
            pthread_mutex_consistent(mutex)
            return .previousOwnerDied
        default: throw SystemCallError(.mutex, errno: .init(rawValue: status))
        }
    }
}
