import CSystemShims
import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Starting other programs: never through a shell, so no argument is ever interpreted.
package enum Spawn {
    /// Starts `arguments` (the program, found on `PATH` when it has no `/`), with `environment`
    /// (`NAME=VALUE` entries) added to ours, replacing ours of the same name, and does not wait for it. The corresponding C function is `posix_spawnp`.
    /// - Returns: the child's process id.
    @discardableResult
    package static func detached(_ arguments: [String], adding environment: [String] = [],
                                 workingDirectory: String? = nil) throws(SystemCallError) -> Int32 {
        // One implementation: the bytes form (an app must receive a file name unchanged).
        try detached(bytes: arguments.map { Array($0.utf8) }, setting: environment, workingDirectory: workingDirectory)
    }

    /// What a finished program did.
    package struct Finished: Sendable {
        /// Its exit status (128 + N when killed by signal N).
        package var status: Int32
        /// What it wrote to standard output.
        package var output: [UInt8]
    }

    /// Runs `arguments` to completion with `input` on standard input, collecting standard output
    /// (standard error goes to ours). The corresponding C functions are `posix_spawnp` and `waitpid`.
    package static func run(_ arguments: [String], input: [UInt8] = []) throws(SystemCallError) -> Finished {
        guard let program = arguments.first else { throw SystemCallError(.spawn, errno: .invalidArgument) }
        var toChild: Pipe? = try Pipe(), fromChild: Pipe? = try Pipe()
        let pid = try withExtendedLifetime((toChild, fromChild)) { () throws(SystemCallError) -> pid_t in
            try start(arguments, input: toChild!.read.raw, output: fromChild!.write.raw)
        }
        // Our copies of the child's ends go now, so that the child sees the end of its input
        // and we see the end of its output.
        var writer: OwnedDescriptor? = input.isEmpty ? nil : toChild!.write
        let reader = fromChild!.read
        toChild = nil
        fromChild = nil
        // Write and read together so a large output cannot fill the pipe and stall both sides.
        var output: [UInt8] = []
        var written = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        var open = true
        while open {
            try withExtendedLifetime((writer, reader)) { () throws(SystemCallError) in
                var fds = [pollfd(fd: writer?.raw ?? -1, events: Int16(POLLOUT), revents: 0),
                           pollfd(fd: reader.raw, events: Int16(POLLIN), revents: 0)]
                _ = try invoke(.poll, path: program) { poll(&fds, 2, -1) }
                if let current = writer, fds[0].revents != 0 {
                    let n = input.withUnsafeBytes { Glibc.write(current.raw, $0.baseAddress! + written, min(1 << 16, input.count - written)) }
                    if n > 0 { written += n }
                    if n <= 0 || written == input.count { writer = nil }
                }
                if fds[1].revents != 0 {
                    let n = try reader.read(into: buffer)
                    if n > 0 { output.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[..<n])) } else { open = false }
                }
            }
        }
        writer = nil
        return Finished(status: try wait(for: pid), output: output)
    }

    /// Starts `arguments` (found on `PATH`) with `input` and `output` as its standard input and
    /// output, which the caller keeps open until this returns. The corresponding C function is
    /// `posix_spawnp`.
    static func start(_ arguments: [String], input: Int32, output: Int32) throws(SystemCallError) -> pid_t {
        guard let program = arguments.first else { throw SystemCallError(.spawn, errno: .invalidArgument) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        posix_spawn_file_actions_adddup2(&actions, input, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        let spawned = posix_spawnp(&pid, program, &actions, nil, argv, environ)
        guard spawned == 0 else { throw SystemCallError(.spawn, path: program, errno: Errno(rawValue: spawned)) }
        return pid
    }

    /// Waits for the child `pid` to end; its exit status (128 + N when killed by signal N). The
    /// corresponding C function is `waitpid`.
    package static func wait(for pid: Int32) throws(SystemCallError) -> Int32 {
        var status: Int32 = 0
        _ = try invoke(.waitpid) { waitpid(pid, &status, 0) }
        return exitStatus(status)
    }

    /// A wait status as a shell reports it: the exit status, or 128 + N when killed by signal N.
    static func exitStatus(_ status: Int32) -> Int32 {
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }
}

/// Both ends of a pipe, each closed with its owner.
package struct Pipe {
    package var read: OwnedDescriptor
    package var write: OwnedDescriptor

    /// A new pipe, close-on-exec. The corresponding C function is `pipe2`.
    package init() throws(SystemCallError) {
        var ends: [Int32] = [0, 0]
        _ = try invoke(.pipe) { di_pipe_cloexec(&ends) }
        read = OwnedDescriptor(taking: ends[0])
        write = OwnedDescriptor(taking: ends[1])
    }
}
