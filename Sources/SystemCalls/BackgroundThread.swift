#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A detached system thread running one closure, for work that waits in a system call (`poll`
/// for another process, a futex): such waits must not occupy one of Swift concurrency's few
/// shared threads or a dispatch queue's. The one way this project starts a thread.
package enum BackgroundThread {
    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Starts `body` on a new detached thread. The corresponding C function is `pthread_create`.
    package static func start(_ body: @escaping @Sendable () -> Void) throws(SystemCallError) {
        if let forced = FaultInjection.failure(of: .thread, path: nil) { throw SystemCallError(.thread, errno: forced) }
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<Box>.fromOpaque(context).release()
            throw SystemCallError(.thread, errno: .init(rawValue: status))
        }
        pthread_detach(thread)
    }

    /// Starts `body` on a new detached thread and waits until it calls the `ready` closure it
    /// is given (after its setup, whether that worked or not).
    package static func startAndWait(_ body: @escaping @Sendable (_ ready: @escaping @Sendable () -> Void) -> Void) throws(SystemCallError) {
        let handshake = try Pipe()
        let signal = handshake.write
        try start { body { _ = try? signal.writeAll([1]) } }
        var byte: UInt8 = 0
        _ = try? withUnsafeMutableBytes(of: &byte) { try handshake.read.read(into: $0) }
    }

    /// An identifier of the calling thread, for "am I the delivery thread?" checks. The
    /// corresponding C function is `pthread_self`.
    package static var current: UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(bitPattern: UInt(pthread_self())))) }
}
