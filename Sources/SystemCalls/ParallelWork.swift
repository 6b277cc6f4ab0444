#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Two pieces of blocking work at once: one on a new thread, one on the calling thread. For
/// work that is all system calls (thousands of `stat`s) where a second core halves the wait; no
/// thread pool is started for it (a short-lived query pays for one thread, about 50 µs).
package enum ParallelWork {
    final class Job: @unchecked Sendable {
        // @unchecked: `work` runs once on the new thread, and nothing else touches it until
        // `pthread_join` has returned.
        let work: () -> Void
        init(_ work: @escaping () -> Void) { self.work = work }
    }

    /// Runs `first` on a new thread and `second` on this one; returns when both are done. When no
    /// thread can be started, runs both here. The corresponding C functions are `pthread_create`
    /// and `pthread_join`.
    package static func both(_ first: @escaping () -> Void, _ second: () -> Void) {
        let job = Unmanaged.passRetained(Job(first))
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            let job = Unmanaged<Job>.fromOpaque(context!).takeRetainedValue()
            job.work()
            return nil
        }, job.toOpaque())
        if started != 0 {
            job.takeRetainedValue().work()
            second()
            return
        }
        second()
        pthread_join(thread, nil)
    }
}
