import Foundation
import Glibc

/// A plain-HTTP request written byte for byte from a chosen loopback address, for the LocalSend
/// receiver's hostile cases (bodies longer than declared, chunked bodies, requests from another
/// address): what a client library would refuse to send.
enum RawHTTP {
    /// The reply: status code (0 when none came) and body.
    struct Reply {
        var status: Int
        var body: String
    }

    /// Sends `request` (head and body, as given) from `source` to 127.0.0.1:`port` and reads
    /// until the server closes (at most `timeout` seconds: a bound on a hang, not a figure; 10 s
    /// was passed under a fresh clone's load), on a thread of its own: the blocking
    /// calls must not hold the executor the receiver's tasks run on.
    static func send(_ request: [UInt8], port: Int, from source: String = "127.0.0.1", timeout: Int = 60) async throws -> Reply {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try blockingSend(request, port: port, from: source, timeout: timeout) }) }.start()
        }
    }

    /// A TCP connection from `source` (a loopback address) to 127.0.0.1:`port`; the caller closes it.
    static func connect(from source: String, port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        func address(_ ip: String, _ port: Int) -> sockaddr_in {
            var a = sockaddr_in()
            a.sin_family = sa_family_t(AF_INET)
            a.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, ip, &a.sin_addr)
            return a
        }
        var from = address(source, 0), to = address("127.0.0.1", port)
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        guard withUnsafePointer(to: &from, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) } }) == 0,
              withUnsafePointer(to: &to, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, size) } }) == 0 else {
            let error = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            close(fd)
            throw error
        }
        return fd
    }

    static func blockingSend(_ request: [UInt8], port: Int, from source: String, timeout: Int) throws -> Reply {
        let fd = try connect(from: source, port: port)
        defer { close(fd) }
        var tv = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }  // the server may close early (a body cut off): read what it said
            sent += n
        }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            reply += buffer[..<n]
        }
        let text = String(decoding: reply, as: UTF8.self)
        let status = text.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? 0
        let body = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
        return Reply(status: status, body: body)
    }

    /// A request with a `Content-Length` (`declared`, by default the body's length); `close`
    /// asks the server to close the connection after its reply.
    static func request(_ method: String, _ target: String, body: [UInt8] = [], declared: Int? = nil, headers: [String] = [], close: Bool = true) -> [UInt8] {
        let head = (["\(method) \(target) HTTP/1.1", "Host: 127.0.0.1", "Connection: \(close ? "close" : "keep-alive")", "Content-Length: \(declared ?? body.count)"] + headers)
            .joined(separator: "\r\n") + "\r\n\r\n"
        return Array(head.utf8) + body
    }

    /// A request whose body is sent chunked, in `pieces`.
    static func chunked(_ method: String, _ target: String, pieces: [[UInt8]], close: Bool = true) -> [UInt8] {
        var bytes = Array("\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: \(close ? "close" : "keep-alive")\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        for piece in pieces where !piece.isEmpty { bytes += Array((String(piece.count, radix: 16) + "\r\n").utf8) + piece + Array("\r\n".utf8) }
        return bytes + Array("0\r\n\r\n".utf8)
    }
}
