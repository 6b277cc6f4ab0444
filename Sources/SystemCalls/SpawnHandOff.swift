import CSystemShims
import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension Spawn {
    /// How a program that hands its work on ended.
    package enum HandOff: Sendable, Hashable {
        /// It took the input and exited with this status (128 + N when killed by signal N).
        case exited(Int32)
        /// It had not taken the input and exited within the time: it was killed.
        case timedOut
    }

    /// Runs a program that reads `input`, hands its work to a child of its own and exits
    /// (`xclip` and `wl-copy` fork a child that serves the clipboard until another program takes
    /// it), and waits for that program only, never for its child: the child is started as
    /// ``daemon(_:)`` starts one (its own session, `/dev/null` output, none of our descriptors),
    /// so neither we nor whoever reads our output waits for it, and it outlives us. `arguments`'
    /// program is found on `PATH`. A program that has not read its input and exited within
    /// `timeout` seconds is killed.
    package static func handOff(_ arguments: [String], input: [UInt8], timeout: Double) throws(SystemCallError) -> HandOff {
        let program = arguments.first ?? ""
        var pipe: Pipe? = try Pipe()
        var writer: OwnedDescriptor? = pipe!.write
        let raw = writer!.raw // valid until `writer = nil`
        let pid = try daemon(arguments, input: pipe!.read.raw, searchingPath: true)
        pipe = nil // our copy of the read end: the program alone holds it now
        let deadline = Clock.monotonic() + timeout
        // Written without blocking, so the deadline holds when the program never reads; with
        // SIGPIPE blocked for this thread, so a program that exits early fails the write (EPIPE)
        // instead of killing us.
        _ = fcntl(raw, F_SETFL, fcntl(raw, F_GETFL) | O_NONBLOCK)
        var written = 0
        var failure: SystemCallError?
        withSIGPIPEBlocked {
            while written < input.count {
                var request = pollfd(fd: raw, events: Int16(POLLOUT), revents: 0)
                let left = Int32(max(0, (deadline - Clock.monotonic()) * 1000).rounded(.up))
                let ready = poll(&request, 1, left)
                if ready < 0 && errno == EINTR { continue }
                if ready <= 0 { break }
                let n = input.withUnsafeBytes { Glibc.write(raw, $0.baseAddress! + written, min(1 << 16, input.count - written)) }
                if n > 0 { written += n; continue }
                if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
                if n < 0 && errno != EPIPE { failure = SystemCallError(.write, path: program, errno: Errno(rawValue: errno)) }
                break
            }
        }
        writer = nil // the program sees the end of its input
        // It exits once it has handed on.
        while true {
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid {
                if let failure { throw failure }
                return .exited(exitStatus(status))
            }
            if reaped < 0 && errno != EINTR { throw SystemCallError(.waitpid, path: program, errno: Errno(rawValue: errno)) }
            if Clock.monotonic() >= deadline {
                kill(pid, SIGKILL)
                _ = try wait(for: pid)
                return .timedOut
            }
            // A short sleep rather than a pidfd: the program takes a few milliseconds.
            usleep(2_000)
        }
    }

    /// Runs `body` with SIGPIPE blocked for this thread, and discards a SIGPIPE it raised.
    static func withSIGPIPEBlocked(_ body: () -> Void) {
        var pipeSignal = sigset_t(), previous = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        body()
        var pending = sigset_t()
        sigpending(&pending)
        if sigismember(&pending, SIGPIPE) == 1 {
            var zero = timespec()
            _ = sigtimedwait(&pipeSignal, nil, &zero)
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
    }
}
