// The other process of the coordination, notification and wormhole tests and benchmarks: one
// command per run, lines on standard output (line-buffered) that the test waits for.
import FileCoordination
import Glibc
import KeyedArchives
import Notifications
import Synchronization
import SystemCalls
import Wormhole

/// One line on standard output, written at once (the test reads lines as they come).
func print(_ text: String) {
    let line = text + "\n"
    _ = line.withCString { write(1, $0, strlen($0)) }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else {
    print("usage: coordination-probe COMMAND FOLDER ARGUMENTS…")
    exit(2)
}
let folder = arguments[1]
let rest = Array(arguments.dropFirst(2))

func fail(_ error: any Error) -> Never {
    print("error \(error)")
    exit(1)
}

/// Sleeps until killed.
func park() -> Never {
    while true { Clock.sleep(3600) }
}

switch arguments[0] {
case "notify-echo":
    // On each post of PING (callback), post PONG; N times, then exit.
    let center = NotifyCenter(directory: folder)
    let (ping, pong, count) = (rest[0], rest[1], Int(rest[2]) ?? 1)
    let seen = Atomic<Int>(0)
    do {
        _ = try center.register(ping) { _ in
            try? center.post(pong)
            seen.add(1, ordering: .relaxed)
        }
    } catch { fail(error) }
    print("ready")
    while seen.load(ordering: .relaxed) < count { Clock.sleep(0.001) }
    print("done")

case "notify-final":
    // Registers for NAME; prints the state each callback reads; exits when it reads EXPECTED.
    let center = NotifyCenter(directory: folder)
    let (name, expected) = (rest[0], UInt64(rest[1]) ?? 0)
    let calls = Atomic<Int>(0)
    let finished = Atomic<Bool>(false)
    do {
        _ = try center.register(name) { token in
            calls.add(1, ordering: .relaxed)
            if (try? center.state(of: token)) == expected { finished.store(true, ordering: .sequentiallyConsistent) }
        }
    } catch { fail(error) }
    print("ready")
    while !finished.load(ordering: .sequentiallyConsistent) { Clock.sleep(0.001) }
    print("final \(expected) after \(calls.load(ordering: .relaxed)) callbacks")

case "notify-register-park":
    // Registers for NAME (a callback) and waits to be killed.
    let center = NotifyCenter(directory: folder)
    do { _ = try center.register(rest[0]) { _ in print("posted") } } catch { fail(error) }
    print("ready")
    park()

case "notify-set-state":
    // Registers NAME, sets its state, and waits to be killed (the state lives while it does).
    let center = NotifyCenter(directory: folder)
    do {
        let token = try center.registerCheck(rest[0])
        try center.setState(UInt64(rest[1]) ?? 0, for: token)
    } catch { fail(error) }
    print("ready")
    park()

case "notify-post":
    // Posts NAME, N times, setting the state to the post's number before each.
    let center = NotifyCenter(directory: folder)
    let (name, count) = (rest[0], Int(rest[1]) ?? 1)
    do {
        let token = try center.registerPlain(name)
        for index in 1...count {
            try center.setState(UInt64(index), for: token)
            try center.post(name)
        }
    } catch { fail(error) }
    print("posted \(count)")

case "coord-hold":
    // Coordinates PATH for reading or writing, says "holding", and holds for SECONDS.
    let coordinator = FileCoordinator(space: CoordinationSpace(directory: folder), timeout: 30)
    let (path, writing, seconds) = (rest[0], rest[1] == "write", Double(rest[2]) ?? 1)
    do {
        if writing {
            try coordinator.coordinate(writingItemAt: path) { _ in print("holding"); Clock.sleep(seconds) }
        } else {
            try coordinator.coordinate(readingItemAt: path) { _ in print("holding"); Clock.sleep(seconds) }
        }
    } catch { fail(error) }
    print("released")

case "coord-write":
    // A coordinated write of TEXT to PATH, with TIMEOUT; prints "written" or the error.
    let coordinator = FileCoordinator(space: CoordinationSpace(directory: folder), timeout: Double(rest.count > 2 ? rest[2] : "10") ?? 10)
    do {
        try coordinator.coordinate(writingItemAt: rest[0]) { path in try? AtomicWriter.writeContents(Array(rest[1].utf8), to: path) }
        print("written")
    } catch { print("error \(error)") }

case "coord-increment":
    // N coordinated read-modify-write increments of the decimal counter in PATH.
    let coordinator = FileCoordinator(space: CoordinationSpace(directory: folder), timeout: 30)
    let (path, count) = (rest[0], Int(rest[1]) ?? 1)
    do {
        for _ in 0..<count {
            try coordinator.coordinate(writingItemAt: path) { path in
                let text = (try? FileSystem.read(path)).map { String(decoding: $0, as: UTF8.self) } ?? "0"
                let value = (Int(text) ?? 0) + 1
                try? AtomicWriter.writeContents(Array(String(value).utf8), to: path)
            }
        }
    } catch { fail(error) }
    print("done")

case "presenter":
    // Presents PATH; prints every message it gets. A save writes SAVED-TEXT (third argument,
    // when given) to the file first, so a test can see that a reader got it.
    final class PrintingPresenter: FilePresenter, @unchecked Sendable {
        var presentedItemPath: String? { path.withLock { $0 } }
        let path: Mutex<String>
        let unsaved: String?
        init(_ path: String, unsaved: String?) { self.path = Mutex(path); self.unsaved = unsaved }
        func presentedItemDidChange() { print("changed") }
        func presentedItemDidMove(to newPath: String) { path.withLock { $0 = newPath }; print("moved \(newPath)") }
        func presentedSubitemDidChange(at path: String) { print("subitem-changed \(path)") }
        func presentedSubitem(at oldPath: String, didMoveTo newPath: String) { print("subitem-moved \(oldPath) \(newPath)") }
        func savePresentedItemChanges(completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
            if let unsaved { try? AtomicWriter.writeContents(Array(unsaved.utf8), to: path.withLock { $0 }) }
            print("save")
            completionHandler(nil)
        }
        func accommodatePresentedItemDeletion(completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
            print("deletion")
            completionHandler(nil)
        }
        func relinquishPresentedItem(toWriter writer: @escaping @Sendable ((@Sendable () -> Void)?) -> Void) {
            print("relinquish-writer")
            writer { print("reacquire") }
        }
    }
    let space = CoordinationSpace(directory: folder)
    let presenter = PrintingPresenter(rest[0], unsaved: rest.count > 1 ? rest[1] : nil)
    do { try FileCoordinator.addFilePresenter(presenter, space: space) } catch { fail(error) }
    print("ready")
    park()

case "presenter-echo":
    // Presents PATH; on each change, a coordinated write of REPLY (which the benchmark presents).
    final class EchoPresenter: FilePresenter, @unchecked Sendable {
        let presentedItemPath: String?
        let reply: String
        let coordinator: FileCoordinator
        init(_ path: String, reply: String, coordinator: FileCoordinator) {
            presentedItemPath = path
            self.reply = reply
            self.coordinator = coordinator
        }
        func presentedItemDidChange() {
            let reply = reply
            // Not on the delivery thread: the write waits for the benchmark's presenter to answer.
            try? BackgroundThread.start { [coordinator] in try? coordinator.coordinate(writingItemAt: reply) { _ in } }
        }
    }
    let space = CoordinationSpace(directory: folder)
    let echo = EchoPresenter(rest[0], reply: rest[1], coordinator: FileCoordinator(space: space, timeout: 10))
    do { try FileCoordinator.addFilePresenter(echo, space: space) } catch { fail(error) }
    print("ready")
    park()

case "wormhole-send":
    // CONTAINER IDENTIFIER COUNT SENDER: queues COUNT messages {sender, index}.
    let notifications = NotifyCenter(directory: folder)
    do {
        let wormhole = try Wormhole(containerPath: rest[0], optionalDirectory: "wormhole", notifications: notifications,
                                    coordination: CoordinationSpace(directory: folder))
        for index in 0..<(Int(rest[2]) ?? 1) {
            try wormhole.enqueueMessage(.dictionary(["sender": .string(rest[3]), "index": .integer(Int64(index))]), identifier: rest[1])
        }
    } catch { fail(error) }
    print("sent")

case "wormhole-listen-queue":
    // CONTAINER IDENTIFIER TOTAL: prints "got SENDER INDEX" per message; exits after TOTAL.
    let notifications = NotifyCenter(directory: folder)
    let total = Int(rest[2]) ?? 1
    let received = Atomic<Int>(0)
    do {
        let wormhole = try Wormhole(containerPath: rest[0], optionalDirectory: "wormhole", notifications: notifications,
                                    coordination: CoordinationSpace(directory: folder))
        try wormhole.listenForQueuedMessages(identifier: rest[1]) { message in
            guard case .dictionary(let entries, _) = message else { return }
            var sender = "", index: Int64 = -1
            for entry in entries {
                if case .string("sender") = entry.key, case .string(let value) = entry.value { sender = value }
                if case .string("index") = entry.key, case .integer(let value) = entry.value { index = value }
            }
            print("got \(sender) \(index)")
            received.add(1, ordering: .sequentiallyConsistent)
        }
    } catch { fail(error) }
    print("ready")
    while received.load(ordering: .sequentiallyConsistent) < total { Clock.sleep(0.001) }
    print("total \(received.load(ordering: .sequentiallyConsistent))")

case "wormhole-listen":
    // CONTAINER IDENTIFIER: prints "message TEXT" for each message passed (a string).
    let notifications = NotifyCenter(directory: folder)
    do {
        let wormhole = try Wormhole(containerPath: rest[0], optionalDirectory: "wormhole", transiting: rest.count > 2 ? .coordinatedFile : .file,
                                    notifications: notifications, coordination: CoordinationSpace(directory: folder))
        try wormhole.listenForMessage(identifier: rest[1]) { message in
            if case .string(let text)? = message { print("message \(text)") } else { print("message \(String(describing: message))") }
        }
    } catch { fail(error) }
    print("ready")
    park()

default:
    print("unknown command \(arguments[0])")
    exit(2)
}
