#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Waiting until descriptors are readable.
package enum Poll {
    /// Waits until one of `descriptors` is readable or `timeout` seconds pass (`nil`: no limit);
    /// which are readable. An interrupted wait returns with none. The corresponding C function is `poll`.
    package static func readable(_ descriptors: [OwnedDescriptor], timeout: Double?) throws(SystemCallError) -> [Bool] {
        var fds = descriptors.map { pollfd(fd: $0.raw, events: Int16(POLLIN), revents: 0) }
        // Rounded up: a wait of less than a millisecond must not become poll(0) and spin.
        let milliseconds = timeout.map { Int32(max(0, min(($0 * 1000).rounded(.up), Double(Int32.max)))) } ?? -1
        do {
            _ = try withExtendedLifetime(descriptors) { () throws(SystemCallError) -> Int32 in
                try invoke(.poll, retryOnInterrupt: false) { poll(&fds, nfds_t(fds.count), milliseconds) }
            }
        } catch where error.errno == .interrupted {
            return descriptors.map { _ in false }
        }
        return fds.map { $0.revents != 0 }
    }
}
