import Foundation
import Glibc
import Synchronization

/// A device in the middle on loopback: a TCP relay that forwards connection number n (from 0) to
/// the port `route(n)` chooses, byte for byte in both directions. Routing the first connection to
/// a real device and the later ones to an impostor is what a proxy on the network can do to a
/// sender that pins only its first connection. Plain sockets and threads: a relay needs nothing more.
final class Relay: Sendable {
    /// The port it listens on (127.0.0.1).
    let port: Int
    /// How many connections it accepted.
    var accepted: Int { count.finished.withLock { $0 } }

    private let listener: Int32
    private let count = Pair()

    /// The bytes the client sent on each connection, by its number.
    var bytesFromClient: [Int: Int] { sent.bytes.withLock { $0 } }

    private let sent = Tally()

    /// Bytes counted per connection by threads.
    final class Tally: Sendable { let bytes = Mutex<[Int: Int]>([:]) }

    /// A relay to the ports `route` picks on `host` (IPv4 or IPv6, numeric).
    init(to host: String = "127.0.0.1", route: @escaping @Sendable (Int) -> Int) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        guard bound, listen(listener, 64) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        port = Int(UInt16(bigEndian: address.sin_port))
        let count = count, sent = sent
        Thread.detachNewThread {
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 && errno == EINTR { continue }
                guard client >= 0 else { return }
                let n = count.finished.withLock { value in defer { value += 1 }; return value }
                let server = Relay.connect(host: host, port: route(n))
                guard server >= 0 else { close(client); continue }
                let pair = Pair()
                Relay.pump(from: client, to: server, pair: pair) { bytes in sent.bytes.withLock { $0[n, default: 0] += bytes } }
                Relay.pump(from: server, to: client, pair: pair) { _ in }
            }
        }
    }

    /// Stops accepting (connections already relayed run to their end).
    func stop() { shutdown(listener, Int32(SHUT_RDWR)); close(listener) }

    static func connect(host: String, port: Int) -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICHOST
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let info = found else { return -1 }
        defer { freeaddrinfo(found) }
        let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, 0)
        if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) != 0 { close(fd); return -1 }
        return fd
    }

    /// Copies `from` into `to` until `from` ends, then ends `to`'s sending side; the second pump
    /// of a pair to finish closes both.
    /// A counter shared by threads: the pumps of one relayed connection that finished, or the
    /// connections accepted.
    final class Pair: Sendable { let finished = Mutex(0) }

    static func pump(from: Int32, to: Int32, pair: Pair, counted: @escaping @Sendable (Int) -> Void) {
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(from, $0.baseAddress, $0.count) }
                // A signal (the suite's child processes end all the time) is no end of stream.
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                counted(n)
                var sent = 0
                while sent < n {
                    let m = buffer.withUnsafeBytes { write(to, $0.baseAddress! + sent, n - sent) }
                    if m < 0 && errno == EINTR { continue }
                    if m <= 0 { break }
                    sent += m
                }
                if sent < n { break }
            }
            shutdown(to, Int32(SHUT_WR))
            shutdown(from, Int32(SHUT_RD))
            if pair.finished.withLock({ value in value += 1; return value }) == 2 {
                close(from)
                close(to)
            }
        }
    }
}
