import Synchronization
import SystemCalls

/// A responder's or browser's thread: it waits in `poll(2)` on the sockets and a wake-up pipe
/// until a datagram, a command or the role's next deadline, and runs the role. A dedicated thread
/// rather than Swift concurrency: the wait is a system call, which must not hold one of the few
/// cooperative threads, and the role's state then needs no lock.
///
/// ``stop(goodbyes:)`` lets the role send its goodbyes, waits until the thread has ended and released the
/// sockets, and may be called any number of times, from any thread (from the thread itself, in an
/// event callback, it does not wait).
final class Engine<Command: Sendable>: Sendable {
    private struct Inbox {
        var commands: [Command] = []
        var stopping = false
        /// Whether the role's goodbyes are left out: another responder publishes the same
        /// records from now on (``stop(goodbyes:)``).
        var silent = false
        var woken = false
        var finished = false
    }

    private let inbox = Mutex(Inbox())
    private let wakeRead: OwnedDescriptor
    private let wakeWrite: OwnedDescriptor
    private let doneRead: OwnedDescriptor
    /// The transport until the thread takes it: then the thread's is the only reference, and the
    /// sockets close when the thread lets go of it, before it reports that it has ended.
    private let transportSlot: Mutex<MulticastTransport?>
    private let thread = Mutex<UInt>(0)

    /// Starts a thread running the role `makeRole` makes (on that thread) over `transport`.
    init<Role: EngineRole>(transport: MulticastTransport, makeRole: @escaping @Sendable () -> Role) throws(MulticastDNSError) where Role.Command == Command {
        let wake: Pipe, done: Pipe
        do {
            wake = try Pipe()
            done = try Pipe()
        } catch {
            throw .system(error)
        }
        wakeRead = wake.read
        wakeWrite = wake.write
        doneRead = done.read
        transportSlot = Mutex(transport)
        let doneWrite = done.write
        do {
            try BackgroundThread.start { [self] in
                thread.withLock { $0 = BackgroundThread.current }
                if let transport = transportSlot.withLock({ $0.take() }) {
                    run(makeRole(), transport)
                }
                inbox.withLock { $0.finished = true }
                _ = try? doneWrite.writeAll([1])
            }
        } catch {
            throw .system(error)
        }
    }

    /// Hands `command` to the role.
    func post(_ command: Command) {
        let wake = inbox.withLock { inbox -> Bool in
            guard !inbox.stopping else { return false }
            inbox.commands.append(command)
            defer { inbox.woken = true }
            return !inbox.woken
        }
        if wake { _ = try? wakeWrite.writeAll([1]) }
    }

    /// Stops the thread after the role's goodbyes (none with `goodbyes` false: when avahi-daemon
    /// publishes the same records from now on, a goodbye would make browsers forget them), and
    /// waits until it has ended (unless called on it).
    func stop(goodbyes: Bool = true) {
        let (wake, finished) = inbox.withLock { inbox -> (Bool, Bool) in
            let first = !inbox.stopping
            if first { inbox.silent = !goodbyes }
            inbox.stopping = true
            return (first, inbox.finished)
        }
        if wake { _ = try? wakeWrite.writeAll([1]) }
        if finished || thread.withLock({ $0 }) == BackgroundThread.current { return }
        // The thread sets the flag and then writes a byte, which stays unread: the pipe stays
        // readable, so every waiter wakes and finds the flag.
        while !inbox.withLock({ $0.finished }) { _ = try? Poll.readable([doneRead], timeout: 1) }
    }

    private func run<Role: EngineRole>(_ role: Role, _ transport: MulticastTransport) where Role.Command == Command {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 16)
        defer { buffer.deallocate() }
        let descriptors = [wakeRead] + transport.sockets.map(\.descriptor)
        func flush() {
            for outgoing in role.outgoing { transport.send(outgoing) }
            role.outgoing = []
        }
        role.start(now: Clock.monotonic())
        flush()
        while true {
            let (commands, stopping, silent) = inbox.withLock { inbox in
                defer { inbox.commands = []; inbox.woken = false }
                return (inbox.commands, inbox.stopping, inbox.silent)
            }
            for command in commands { role.handle(command, now: Clock.monotonic()) }
            if stopping {
                if !silent {
                    role.finish(now: Clock.monotonic())
                    flush()
                }
                return
            }
            flush()
            let timeout = role.nextDeadline.map { max(0, $0 - Clock.monotonic()) }
            let ready: [Bool]
            do {
                ready = try Poll.readable(descriptors, timeout: timeout)
            } catch {
                // poll fails only for lack of memory: wait a little instead of spinning.
                Clock.sleep(0.01)
                continue
            }
            if ready[0] {
                var drain = [UInt8](repeating: 0, count: 64)
                _ = try? drain.withUnsafeMutableBytes { try wakeRead.read(into: $0) }
            }
            for (socket, isReady) in zip(transport.sockets, ready.dropFirst()) where isReady {
                for (message, source) in transport.receive(from: socket, buffer: buffer) {
                    role.receive(message, from: source, now: Clock.monotonic())
                }
            }
            role.advance(now: Clock.monotonic())
            flush()
        }
    }
}
