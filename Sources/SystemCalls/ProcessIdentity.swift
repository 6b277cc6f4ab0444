#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A process told apart from a later one that got the same id: its id and its start time.
public struct ProcessIdentity: Sendable, Hashable {
    /// The process id.
    public var id: Int32
    /// Its start time in clock ticks since boot (field 22 of `/proc/PID/stat`).
    public var start: Int64

    /// The running process.
    public static let current = ProcessIdentity(id: getpid(), start: startTime(of: getpid()) ?? 0)

    /// The identity of a process from its id and start time.
    public init(id: Int32, start: Int64) {
        self.id = id
        self.start = start
    }

    /// The start time of `pid`, or `nil` when there is no such process.
    package static func startTime(of pid: Int32) -> Int64? {
        guard pid > 0, let bytes = try? FileSystem.read("/proc/\(pid)/stat") else { return nil }
        // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
        guard let close = bytes.lastIndex(of: 0x29) else { return nil }
        let fields = bytes[(close + 1)...].split(separator: 0x20)
        return fields.count > 19 ? Int64(String(decoding: fields[19], as: UTF8.self)) : nil
    }

    /// Whether this process is still running (same id, same start time).
    public var isRunning: Bool { id > 0 && Self.startTime(of: id) == start }
}
