#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs an optional helper program found on `PATH` (Graphviz's `dot`, `lp`, `xclip`), feeding it
/// bytes and collecting its output. The corresponding C functions are `posix_spawnp` and `waitpid`.
public enum ExternalCommand {
    /// Whether `name` is an executable on `PATH`.
    public static func exists(_ name: String) -> Bool {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { access("\($0)/\(name)", X_OK) == 0 }
    }

    /// The standard output of `arguments` run with `input` on standard input, or `nil` when the
    /// program is missing or exits non-zero.
    public static func run(_ arguments: [String], input: [UInt8]) -> [UInt8]? {
        guard let name = arguments.first, exists(name) else { return nil }
        var toChild: [Int32] = [0, 0], fromChild: [Int32] = [0, 0]
        guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        for fd in toChild + fromChild { posix_spawn_file_actions_addclose(&actions, fd) }
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid = pid_t()
        let spawned = posix_spawnp(&pid, name, &actions, nil, &argv, environ)
        close(toChild[0]); close(fromChild[1])
        guard spawned == 0 else { close(toChild[1]); close(fromChild[0]); return nil }
        // Write and read together so a large output cannot fill the pipe and stall both sides.
        var output: [UInt8] = []
        var written = 0
        var buffer = [UInt8](repeating: 0, count: 65536)
        var fds = [pollfd(fd: toChild[1], events: Int16(POLLOUT), revents: 0), pollfd(fd: fromChild[0], events: Int16(POLLIN), revents: 0)]
        if input.isEmpty { close(toChild[1]); fds[0].fd = -1 }
        while fds[1].fd >= 0 {
            guard poll(&fds, 2, -1) >= 0 || errno == EINTR else { break }
            if fds[0].fd >= 0, fds[0].revents != 0 {
                let n = input.withUnsafeBytes { write(toChild[1], $0.baseAddress! + written, min(65536, input.count - written)) }
                if n > 0 { written += n }
                if n <= 0 || written == input.count { close(toChild[1]); fds[0].fd = -1 }
            }
            if fds[1].revents != 0 {
                let n = buffer.withUnsafeMutableBytes { read(fromChild[0], $0.baseAddress!, 65536) }
                if n > 0 { output += buffer[..<n] } else { close(fromChild[0]); fds[1].fd = -1 }
            }
        }
        if fds[0].fd >= 0 { close(toChild[1]) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status == 0 ? output : nil
    }
}
