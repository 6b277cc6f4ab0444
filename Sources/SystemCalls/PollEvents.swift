#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What a descriptor is waited for, and what it is ready for.
package struct PollEvents: OptionSet, Sendable, Hashable {
    package let rawValue: Int16
    package init(rawValue: Int16) { self.rawValue = rawValue }

    /// Data to read (`POLLIN`).
    package static let readable = PollEvents(rawValue: Int16(POLLIN))
    /// Room to write (`POLLOUT`).
    package static let writable = PollEvents(rawValue: Int16(POLLOUT))
    /// The other end closed (`POLLHUP`), reported whether asked for or not.
    package static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
    /// An error on the descriptor (`POLLERR`), reported whether asked for or not.
    package static let error = PollEvents(rawValue: Int16(POLLERR))
}

extension Poll {
    /// Waits until one of `requests` is ready for what it asks, or `timeout` seconds pass (`nil`:
    /// no limit); what each is ready for (empty when not ready). An interrupted wait returns with
    /// none ready. The corresponding C function is `poll`.
    package static func wait(_ requests: [(descriptor: OwnedDescriptor, events: PollEvents)], timeout: Double?) throws(SystemCallError) -> [PollEvents] {
        var fds = requests.map { pollfd(fd: $0.descriptor.raw, events: $0.events.rawValue, revents: 0) }
        let milliseconds = timeout.map { Int32(max(0, min($0 * 1000, Double(Int32.max)))) } ?? -1
        do {
            _ = try withExtendedLifetime(requests.map(\.descriptor)) { () throws(SystemCallError) -> Int32 in
                try invoke(.poll, retryOnInterrupt: false) { poll(&fds, nfds_t(fds.count), milliseconds) }
            }
        } catch where error.errno == .interrupted {
            return requests.map { _ in [] }
        }
        return fds.map { PollEvents(rawValue: $0.revents) }
    }
}
