import CSystemShims
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A Unix datagram socket with a name in Linux's abstract namespace (no file to clean up: the
/// name goes with the socket, so a message to a dead process fails at once with
/// `ECONNREFUSED`). Non-blocking: a full receiver makes `send` fail with `EAGAIN` instead of
/// stalling the sender. An abstract name has no file permissions: any local user may send to it,
/// so every datagram is received with its sender's credentials (`SO_PASSCRED`), which the kernel
/// fills in and the sender cannot forge, and a receiver drops those of other users.
package final class DatagramSocket: Sendable {
    /// The socket.
    package let descriptor: OwnedDescriptor
    /// Its abstract name (without the leading NUL byte).
    package let name: [UInt8]

    /// The longest abstract name (`sun_path` less the leading NUL).
    package static let maximumNameLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// A socket bound to `name`, or to a name the kernel picks when `name` is `nil`. Fails with
    /// `EADDRINUSE` when another socket has the name. The corresponding C functions are `socket`
    /// and `bind`.
    package init(name requested: [UInt8]?) throws(SystemCallError) {
        let shown = requested.map { "@" + DisplayName.of($0) }
        let raw = try invoke(.socket, path: shown) { socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        descriptor = OwnedDescriptor(taking: raw, path: shown)
        _ = try invoke(.socket, path: shown) { di_pass_credentials(raw) }
        if let requested {
            guard requested.count <= Self.maximumNameLength else { throw SystemCallError(.bind, path: shown, errno: .fileNameTooLong) }
            var address = Self.address(requested)
            _ = try invoke(.bind, path: shown) {
                withUnsafePointer(to: &address.0) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(raw, $0, address.1) } }
            }
            name = requested
        } else {
            // Autobind: a length of just the family asks the kernel for a unique abstract name.
            var family = sockaddr_un()
            family.sun_family = sa_family_t(AF_UNIX)
            _ = try invoke(.bind) {
                withUnsafePointer(to: &family) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(raw, $0, socklen_t(MemoryLayout<sa_family_t>.size)) } }
            }
            var bound = sockaddr_un()
            var length = socklen_t(MemoryLayout<sockaddr_un>.size)
            _ = try invoke(.bind) {
                withUnsafeMutablePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(raw, $0, &length) } }
            }
            let count = Int(length) - MemoryLayout<sa_family_t>.size - 1
            name = withUnsafeBytes(of: bound.sun_path) { Array($0[1..<(1 + max(0, count))]) }
        }
    }

    private static func address(_ name: [UInt8]) -> (sockaddr_un, socklen_t) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            path[0] = 0
            for (index, byte) in name.enumerated() { path[index + 1] = byte }
        }
        return (address, socklen_t(MemoryLayout<sa_family_t>.size + 1 + name.count))
    }

    /// Sends one datagram to the socket named `destination`. Throws `EAGAIN` when its queue is
    /// full and `ECONNREFUSED` when no socket has the name. The corresponding C function is `sendto`.
    package func send(_ bytes: UnsafeRawBufferPointer, to destination: [UInt8]) throws(SystemCallError) {
        var address = Self.address(destination)
        _ = try descriptor.withRaw { (raw) throws(SystemCallError) -> Int in
            try invoke(.send, path: "@" + DisplayName.of(destination)) {
                withUnsafePointer(to: &address.0) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(raw, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), $0, address.1) }
                }
            }
        }
    }

    /// Sends `bytes`, retrying while the receiver's queue is full, for at most `timeout`
    /// seconds (a receiver that is stopped never drains it).
    package func send(_ bytes: [UInt8], to destination: [UInt8], timeout: Double) throws(SystemCallError) {
        let deadline = Clock.monotonic() + timeout
        var pause = 0.000_02
        while true {
            do throws(SystemCallError) {
                var failure: SystemCallError?
                bytes.withUnsafeBytes { raw in
                    do throws(SystemCallError) { try send(raw, to: destination) } catch { failure = error }
                }
                if let failure { throw failure }
                return
            } catch where error.errno == .resourceTemporarilyUnavailable && Clock.monotonic() < deadline {
                Clock.sleep(pause)
                pause = min(pause * 2, 0.002)
            }
        }
    }

    /// One datagram received: its length and who sent it.
    package struct Received: Sendable, Hashable {
        /// The bytes received (a longer datagram is cut to the buffer).
        package var count: Int
        /// The sender's real user id, as the kernel saw it.
        package var senderUser: UInt32
        /// The sender's process id.
        package var senderProcess: Int32
    }

    /// Receives one datagram into `buffer`, or `nil` when none is queued. The corresponding C
    /// function is `recvmsg` (with `SCM_CREDENTIALS`).
    package func receive(into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Received? {
        var user: UInt32 = 0
        var process: Int32 = 0
        do {
            let count = try descriptor.withRaw { (raw) throws(SystemCallError) -> Int in
                try invoke(.receive, path: descriptor.path) { di_recv_with_credentials(raw, buffer.baseAddress, UInt(buffer.count), &user, &process) }
            }
            return Received(count: count, senderUser: user, senderProcess: process)
        } catch where error.errno == .resourceTemporarilyUnavailable {
            return nil
        }
    }
}
