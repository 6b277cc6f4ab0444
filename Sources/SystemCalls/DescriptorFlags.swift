#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// Descriptors that an event loop serves without blocking: a paste target's pipe is written as
// far as it takes bytes, and the loop goes on with other clients meanwhile.
extension OwnedDescriptor {
    /// Takes a copy of a descriptor this process does not own (a library's connection), so that
    /// it can be waited on with ``Poll``. The corresponding C function is `fcntl(F_DUPFD_CLOEXEC)`.
    package static func duplicate(borrowing raw: Int32) throws(SystemCallError) -> OwnedDescriptor {
        OwnedDescriptor(taking: try invoke(.open) { fcntl(raw, F_DUPFD_CLOEXEC, 0) })
    }

    /// Sets or clears `O_NONBLOCK`. The corresponding C function is `fcntl(F_SETFL)`.
    package func setNonBlocking(_ on: Bool) throws(SystemCallError) {
        let flags = try invoke(.fcntl, path: path) { fcntl(raw, F_GETFL) }
        _ = try invoke(.fcntl, path: path) { fcntl(raw, F_SETFL, on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK) }
    }

    /// Writes what the descriptor takes now, at most `bytes.count`; 0 when it would block. The
    /// corresponding C function is `write`.
    package func writeSome(_ bytes: UnsafeRawBufferPointer) throws(SystemCallError) -> Int {
        do {
            return try invoke(.write, path: path) { Glibc.write(raw, bytes.baseAddress, bytes.count) }
        } catch where error.errno == .resourceTemporarilyUnavailable {
            return 0
        }
    }
}
