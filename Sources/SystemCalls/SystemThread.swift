#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A thread of our own for work that waits in a system call (a futex, `poll`): such waits must
/// not occupy the threads of Swift's cooperative pool or of a dispatch queue.
package enum SystemThread {
    /// Starts a detached thread running `body`. The corresponding C function is `pthread_create`.
    package static func start(_ body: @escaping @Sendable () -> Void) throws(SystemCallError) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        if let forced = FaultInjection.failure(of: .thread, path: nil) {
            Unmanaged<Box>.fromOpaque(box).release()
            throw SystemCallError(.thread, errno: forced)
        }
        let status = pthread_create(&thread, &attributes, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, box)
        guard status == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            throw SystemCallError(.thread, errno: .init(rawValue: status))
        }
    }

    private final class Box: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
