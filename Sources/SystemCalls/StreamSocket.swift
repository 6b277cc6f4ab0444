import CSystemShims
import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Unix stream sockets: a listening socket named in a folder, connections to it, and connected
/// pairs. Every descriptor is close-on-exec.
///
/// A socket in a folder is addressed as `/proc/self/fd/N/NAME`, where N is a descriptor of the
/// folder: `sun_path` holds only 108 bytes, which a device root's path can exceed, and the folder's
/// permissions still decide who may connect (a socket in a 0700 folder is its owner's alone).
package enum StreamSocket {
    /// Connections waiting to be accepted before more are refused.
    package static let backlog: Int32 = 16

    /// A socket listening as `name` in the folder `folder`; a stale socket file of that name (its
    /// listener ended) must be removed first. The corresponding C functions are `socket`, `bind`
    /// and `listen`.
    package static func listen(in folder: OwnedDescriptor, name: String) throws(SystemCallError) -> OwnedDescriptor {
        let shown = folder.child(Array(name.utf8))
        let socket = try make(shown)
        var address = try self.address(folder, name, shown)
        _ = try socket.withRaw { (raw) throws(SystemCallError) -> Int32 in
            try invoke(.bind, path: shown) {
                withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(raw, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
            }
        }
        _ = try socket.withRaw { (raw) throws(SystemCallError) -> Int32 in try invoke(.listen, path: shown) { Glibc.listen(raw, backlog) } }
        return socket
    }

    /// A connection to the socket `name` in `folder`. Fails with `ECONNREFUSED` when nothing
    /// listens there any more. The corresponding C function is `connect`.
    package static func connect(in folder: OwnedDescriptor, name: String) throws(SystemCallError) -> OwnedDescriptor {
        let shown = folder.child(Array(name.utf8))
        let socket = try make(shown)
        var address = try self.address(folder, name, shown)
        _ = try socket.withRaw { (raw) throws(SystemCallError) -> Int32 in
            try invoke(.connect, path: shown) {
                withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(raw, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
            }
        }
        return socket
    }

    /// The next connection to `listener`. The corresponding C function is `accept4`.
    package static func accept(_ listener: OwnedDescriptor) throws(SystemCallError) -> OwnedDescriptor {
        let raw = try listener.withRaw { (raw) throws(SystemCallError) -> Int32 in
            try invoke(.accept, path: listener.path) { di_accept_cloexec(raw) }
        }
        return OwnedDescriptor(taking: raw, path: listener.path)
    }

    /// Two connected sockets (one for a child's standard input and output). The corresponding C
    /// function is `socketpair`.
    package static func pair() throws(SystemCallError) -> (OwnedDescriptor, OwnedDescriptor) {
        var ends: [Int32] = [0, 0]
        _ = try invoke(.socket) { socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) }
        return (OwnedDescriptor(taking: ends[0]), OwnedDescriptor(taking: ends[1]))
    }

    /// Ends what `socket` sends (the peer reads the end) and, with `reading`, what it receives
    /// (a thread blocked reading it returns). The corresponding C function is `shutdown`.
    package static func shutdown(_ socket: OwnedDescriptor, reading: Bool = false) throws(SystemCallError) {
        _ = try socket.withRaw { (raw) throws(SystemCallError) -> Int32 in
            try invoke(.shutdown, path: socket.path) { Glibc.shutdown(raw, Int32(reading ? SHUT_RDWR : SHUT_WR)) }
        }
    }

    /// Sends all of `bytes` on `socket`, blocking while its buffer is full. A peer that closed
    /// fails it with `EPIPE` (never a SIGPIPE that would end this process). The corresponding C
    /// function is `send` (`MSG_NOSIGNAL`).
    package static func sendAll(_ socket: OwnedDescriptor, _ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
        var sent = 0
        while sent < bytes.count {
            let n = try socket.withRaw { (raw) throws(SystemCallError) -> Int in
                try invoke(.send, path: socket.path) { Glibc.send(raw, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            }
            sent += n
        }
    }

    private static func make(_ shown: String) throws(SystemCallError) -> OwnedDescriptor {
        let raw = try invoke(.socket, path: shown) { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        return OwnedDescriptor(taking: raw, path: shown)
    }

    private static func address(_ folder: OwnedDescriptor, _ name: String, _ shown: String) throws(SystemCallError) -> sockaddr_un {
        let path = Array("/proc/self/fd/\(folder.raw)/\(name)".utf8)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        guard path.count < MemoryLayout.size(ofValue: address.sun_path) else { throw SystemCallError(.bind, path: shown, errno: .fileNameTooLong) }
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.enumerated() { bytes[index] = byte }
        }
        return address
    }
}
