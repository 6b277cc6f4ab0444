#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension Spawn {
    /// Runs `arguments` (found on `PATH`) to completion, calling `line` with each line of its
    /// standard output as it comes (standard error goes to ours, standard input is empty), so
    /// that a caller can show a long program's progress. Returns its exit status. The
    /// corresponding C functions are `posix_spawnp`, `read` and `waitpid`.
    package static func lines(_ arguments: [String], _ line: (String) -> Void) throws(SystemCallError) -> Int32 {
        var toChild: Pipe? = try Pipe(), fromChild: Pipe? = try Pipe()
        let pid = try withExtendedLifetime((toChild, fromChild)) { () throws(SystemCallError) -> pid_t in
            try start(arguments, input: toChild!.read.raw, output: fromChild!.write.raw)
        }
        let reader = fromChild!.read
        toChild = nil
        fromChild = nil
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        var pending: [UInt8] = []
        while true {
            let n = try reader.read(into: buffer)
            guard n > 0 else { break }
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[..<n]))
            while let newline = pending.firstIndex(of: 0x0A) {
                line(String(decoding: pending[..<newline], as: UTF8.self))
                pending.removeSubrange(...newline)
            }
        }
        if !pending.isEmpty { line(String(decoding: pending, as: UTF8.self)) }
        return try wait(for: pid)
    }

    /// A program started with a pipe to its standard input (a progress window fed percentages):
    /// the caller writes to ``input``, then ``finish()`` closes it and waits.
    package final class Fed: @unchecked Sendable {
        // Only the thread that started it writes and finishes.
        /// The child's process id.
        package let pid: Int32
        private var input: OwnedDescriptor?

        /// Starts `arguments` (found on `PATH`), its standard output on ours. The corresponding
        /// C function is `posix_spawnp`.
        package init(_ arguments: [String]) throws(SystemCallError) {
            let toChild = try Pipe()
            pid = try withExtendedLifetime(toChild) { () throws(SystemCallError) -> pid_t in
                try start(arguments, input: toChild.read.raw, output: 1)
            }
            input = toChild.write
        }

        /// Writes `text` to the program; `false` once it no longer reads (it ended: a window
        /// the person closed).
        @discardableResult
        package func write(_ text: String) -> Bool {
            guard let input else { return false }
            // SIGPIPE blocked: a program that ended fails the write (EPIPE) instead of ending us.
            var failed = false
            Spawn.withSIGPIPEBlocked { failed = (try? input.writeAll(Array(text.utf8))) == nil }
            if failed { self.input = nil }
            return !failed
        }

        /// Whether the program has ended (without reaping it).
        package var hasEnded: Bool {
            var info = siginfo_t()
            return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info._sifields._sigchld.si_pid == pid
        }

        /// Closes its input and waits for it; its exit status.
        @discardableResult
        package func finish() -> Int32 {
            input = nil
            return (try? Spawn.wait(for: pid)) ?? -1
        }
    }
}
