#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension Spawn {
    /// Reaps the child `pid` when it ends, from a thread that waits for it; its exit status is
    /// dropped. For a program started and left to run (an app's launch command) by a process
    /// that lives on: the nearby receiver, a systemd unit that runs for days, kept one zombie per
    /// delivery into an app with a launch command (27 after ~30 deliveries). A short-lived caller
    /// needs none (its children go to init when it exits), but one does no harm. The
    /// corresponding C function is `waitpid`.
    package static func reapWhenDone(_ pid: Int32) {
        // A thread that cannot start leaves one zombie, as before; nothing else depends on it.
        try? BackgroundThread.start {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
    }
}
