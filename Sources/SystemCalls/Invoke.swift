import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// The one place where a C call's result becomes a Swift result: a forced failure (test builds),
// EINTR retried, -1 turned into a ``SystemCallError`` with the call, the path and errno. Two
// overloads rather than a generic: a generic over the result type costs run-time metadata in
// every short-lived tool process.

/// Runs `body` (a C call returning `-1` and `errno` on failure), retrying on `EINTR`.
@inline(__always)
func invoke(_ call: SystemCall, path: String? = nil, retryOnInterrupt: Bool = true, _ body: () -> Int32) throws(SystemCallError) -> Int32 {
    if let forced = FaultInjection.failure(of: call, path: path) { throw SystemCallError(call, path: path, errno: forced) }
    while true {
        let result = body()
        if result != -1 { return result }
        let code = errno
        if code == EINTR && retryOnInterrupt { continue }
        throw SystemCallError(call, path: path, errno: Errno(rawValue: code))
    }
}

/// The same for calls returning a byte count (`ssize_t`).
@inline(__always)
func invoke(_ call: SystemCall, path: String? = nil, _ body: () -> Int) throws(SystemCallError) -> Int {
    if let forced = FaultInjection.failure(of: call, path: path) { throw SystemCallError(call, path: path, errno: forced) }
    while true {
        let result = body()
        if result != -1 { return result }
        let code = errno
        if code == EINTR { continue }
        throw SystemCallError(call, path: path, errno: Errno(rawValue: code))
    }
}

/// Calls `body` with `bytes` as a NUL-terminated C string (names that need not be UTF-8).
@inline(__always)
func withCString<R>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) throws(SystemCallError) -> R) throws(SystemCallError) -> R {
    var terminated = bytes
    terminated.append(0)
    return try terminated.withUnsafeBufferPointer { (buffer) throws(SystemCallError) -> R in
        try buffer.withMemoryRebound(to: CChar.self) { (chars) throws(SystemCallError) -> R in try body(chars.baseAddress!) }
    }
}
