import Atomics
import Synchronization
import SystemCalls

/// Darwin's notify(3) between processes on Linux, without a daemon: post a name, register for it
/// with a callback, a file descriptor, a signal or a flag to check, and keep a 64-bit state
/// with it. Every process of the user maps one table (``NotificationTable``) in the
/// notification folder; a post is an atomic increment there plus one datagram to each process
/// that registered the name and is not already due a wake (rapid posts coalesce). Each process
/// with registrations runs one delivery thread that receives those datagrams and calls the
/// handlers, one at a time.
///
/// ```swift
/// let center = NotificationCenter.shared
/// let token = try center.register("com.example.notes.changed") { _ in reload() }
/// try center.post("com.example.notes.changed")     // in another process
/// ```
///
/// Names follow ``NotificationName``'s rules (`self.` names stay in the process, `user.uid.N.`
/// names are user N's). A center lives as long as its process.
public final class NotificationCenter: Sendable {
    /// The folder of the table, as given.
    public let directory: String
    /// How long registering waits for another process holding the table lock before it fails
    /// with ``NotificationError/tableBusy(path:holder:stopped:seconds:)``. Posting never waits.
    public let lockTimeout: Double

    private let state = Mutex(CenterState())
    private let opened = Mutex<NotificationTable?>(nil)

    /// The center of the default folder (``defaultDirectory()``).
    public static let shared = NotificationCenter(directory: defaultDirectory())

    /// A center over the table in `directory` (created, with mode 0700, when missing).
    public init(directory: String, lockTimeout: Double = 2) {
        self.directory = directory
        self.lockTimeout = lockTimeout
    }

    /// `$DOCUMENT_INTERCHANGE_NOTIFY_DIR`, else `$XDG_RUNTIME_DIR/document-interchange`, else
    /// `/tmp/document-interchange-UID`: one table per user, on a memory file system where the
    /// system provides one.
    public static func defaultDirectory() -> String {
        if let explicit = Environment.value("DOCUMENT_INTERCHANGE_NOTIFY_DIR"), !explicit.isEmpty { return explicit }
        if let runtime = Environment.value("XDG_RUNTIME_DIR"), !runtime.isEmpty { return runtime + "/document-interchange" }
        return "/tmp/document-interchange-\(ProcessSignals.userID)"
    }

    func table() throws(NotificationError) -> NotificationTable {
        if let table = opened.withLock({ $0 }) { return table }
        do {
            try FileSystem.makeDirectories(directory, permissions: 0o700)
            let table = try NotificationTable(path: directory + "/notify.table")
            return opened.withLock { current in
                if let current { return current }
                current = table
                return table
            }
        } catch {
            throw .system(error)
        }
    }

    // MARK: Posting

    /// Posts `name`: every registration for it, in every process, is told (once for several
    /// rapid posts). Posting a name nobody registered does nothing. `notify_post`.
    public func post(_ name: String) throws(NotificationError) {
        if try NotificationName.validate(name) == .process { return postLocally(name) }
        let table = try table()
        let bytes = Array(name.utf8)
        guard let slot = table.countPost(bytes, hash: NotificationTable.hash(bytes)) else { return }
        wakeHolders(of: slot, in: table)
    }

    private func wakeHolders(of slot: Int, in table: NotificationTable) {
        for index in 0..<NotificationTable.holdersPerName {
            let word = table.holder(slot, index).load(ordering: .sequentiallyConsistent)
            guard word & 1 == 1 else { continue }
            // Disarm first: only the poster that disarms sends, so rapid posts coalesce.
            guard table.holder(slot, index).compareExchange(expected: word, desired: word & ~1, ordering: .sequentiallyConsistent).exchanged else { continue }
            let process = Int((word >> 16) & 0xFFFF) - 1
            let destination = table.mailboxName(process: process, generation: UInt32(truncatingIfNeeded: word >> 32))
            do {
                try sender().send(slotMessage(slot), to: destination, timeout: 0)
            } catch where error.errno == .connectionRefused {
                // The process is gone: its word goes (the slot is released when registering next).
                _ = table.holder(slot, index).compareExchange(expected: word & ~1, desired: 0, ordering: .sequentiallyConsistent)
            } catch {
                // Its queue is full: it has datagrams to read, and will rescan everything once
                // it sees the overflow flag. One more try covers a queue drained meanwhile.
                table.recordOverflow(process).store(1, ordering: .sequentiallyConsistent)
                try? sender().send(slotMessage(UInt32.max), to: destination, timeout: 0)
            }
        }
    }

    private func slotMessage(_ slot: Int) -> [UInt8] { slotMessage(UInt32(slot)) }
    private func slotMessage(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }

    private let sending = Mutex<DatagramSocket?>(nil)
    private func sender() throws(SystemCallError) -> DatagramSocket {
        if let socket = sending.withLock({ $0 }) { return socket }
        let socket = try DatagramSocket(name: nil)
        return sending.withLock { current in
            if let current { return current }
            current = socket
            return socket
        }
    }

    private func postLocally(_ name: String) {
        let wake = state.withLock { state -> Bool in
            state.localCounters[name, default: 0] &+= 1
            return state.registrations.values.contains { $0.localName == name && $0.kind.wantsWakes }
        }
        if wake, let mailbox = state.withLock({ $0.mailbox }) {
            try? mailbox.send(slotMessage(UInt32.max - 1), to: mailbox.name, timeout: 1)
        }
    }

    // MARK: Registering

    /// Registers for `name` with a flag read by ``check(_:)``. `notify_register_check`.
    public func registerCheck(_ name: String) throws(NotificationError) -> NotificationToken {
        try register(name, kind: .check)
    }

    /// Registers for `name` for state only (``state(of:)``, ``setState(_:for:)``), with no
    /// delivery. `notify_register_plain`.
    public func registerPlain(_ name: String) throws(NotificationError) -> NotificationToken {
        try register(name, kind: .check)
    }

    /// Registers `handler` for `name`: it is called on this center's delivery thread, one call
    /// at a time, after posts (several rapid posts may give one call).
    /// `notify_register_dispatch`.
    public func register(_ name: String, handler: @escaping @Sendable (NotificationToken) -> Void) throws(NotificationError) -> NotificationToken {
        try register(name, kind: .handler(handler))
    }

    /// Registers for `name` with a file descriptor: each delivery writes the token (a 32-bit
    /// integer, big-endian, as notify(3) does) to it. A new pipe is made unless `reusing` names a
    /// descriptor an earlier registration returned; it is closed when its last registration is
    /// cancelled. `notify_register_file_descriptor` (`NOTIFY_REUSE`).
    public func registerFileDescriptor(_ name: String, reusing: Int32? = nil) throws(NotificationError) -> (token: NotificationToken, descriptor: Int32) {
        let pipe: PipeEntry
        if let reusing {
            guard let existing = state.withLock({ $0.pipes[reusing] }) else { throw .invalidFile(reusing) }
            pipe = existing
        } else {
            do {
                let made = try Pipe()
                pipe = PipeEntry(read: made.read, write: made.write)
            } catch {
                throw .system(error)
            }
        }
        let descriptor = pipe.read.withRaw { $0 }
        state.withLock { $0.pipes[descriptor] = pipe }
        do {
            return (try register(name, kind: .fileDescriptor(descriptor)), descriptor)
        } catch {
            if reusing == nil { state.withLock { _ = $0.pipes.removeValue(forKey: descriptor) } }
            throw error
        }
    }

    /// The read end of a file-descriptor registration's pipe, for waiting on it in `poll`.
    package func readEnd(of descriptor: Int32) -> OwnedDescriptor? { state.withLock { $0.pipes[descriptor]?.read } }

    /// Registers for `name` with a signal sent to this process on delivery.
    /// `notify_register_signal`.
    public func registerSignal(_ name: String, signal: Int32) throws(NotificationError) -> NotificationToken {
        guard (1...64).contains(signal) else { throw .invalidSignal(signal) }
        return try register(name, kind: .signal(signal))
    }

    private func register(_ name: String, kind: Registration.Kind) throws(NotificationError) -> NotificationToken {
        let scope = try NotificationName.validate(name)
        if kind.wantsWakes { try startDelivery() }
        var registration = Registration(name: name, kind: kind)
        if scope == .process {
            registration.localName = name
            registration.lastSeen = state.withLock { $0.localCounters[name, default: 0] }
        } else {
            let table = try table()
            let identity = try processRecord(table)
            let bytes = Array(name.utf8)
            let slot = try table.locked(timeout: lockTimeout) { () throws(NotificationError) -> Int in
                let slot = try table.slotForRegistering(bytes, hash: NotificationTable.hash(bytes))
                let wants = kind.wantsWakes || state.withLock { $0.wakeCount[slot, default: 0] > 0 }
                try table.hold(slot, process: identity.process, generation: identity.generation, wantsWakes: wants)
                return slot
            }
            registration.slot = slot
            registration.lastSeen = table.counter(slot).load(ordering: .sequentiallyConsistent)
        }
        return state.withLock { state in
            state.nextToken += 1
            let token = NotificationToken(rawValue: state.nextToken)
            if let slot = registration.slot {
                state.holdCount[slot, default: 0] += 1
                if kind.wantsWakes { state.wakeCount[slot, default: 0] += 1 }
            }
            state.registrations[token.rawValue] = registration
            return token
        }
    }

    /// Which process record this process has in `table`, claimed by the delivery thread or here
    /// (for registrations that need no delivery).
    private func processRecord(_ table: NotificationTable) throws(NotificationError) -> (process: Int, generation: UInt32) {
        if let identity = state.withLock({ $0.identity }) { return identity }
        // A record is held by a thread that lives as long as the process: the delivery thread.
        try startDelivery()
        guard let identity = state.withLock({ $0.identity }) else { throw .system(SystemCallError(.thread, errno: .noSuchProcess)) }
        return identity
    }

    // MARK: Using registrations

    /// Whether `name` was posted since the last check (the first check after registering says
    /// `true`). `notify_check`.
    public func check(_ token: NotificationToken) throws(NotificationError) -> Bool {
        let counter = try currentCounter(of: token)
        return try state.withLock { (state) throws(NotificationError) -> Bool in
            guard var registration = state.registrations[token.rawValue] else { throw .invalidToken(token) }
            defer { state.registrations[token.rawValue] = registration }
            if !registration.checked {
                registration.checked = true
                registration.lastChecked = counter
                return true
            }
            let changed = counter != registration.lastChecked
            registration.lastChecked = counter
            return changed
        }
    }

    private func currentCounter(of token: NotificationToken) throws(NotificationError) -> UInt64 {
        guard let registration = state.withLock({ $0.registrations[token.rawValue] }) else { throw .invalidToken(token) }
        if let slot = registration.slot { return try table().counter(slot).load(ordering: .sequentiallyConsistent) }
        return state.withLock { $0.localCounters[registration.localName ?? "", default: 0] }
    }

    /// The 64-bit state of the token's name (0 until set; set back to 0 when the last
    /// registration of the name, in any process, goes). `notify_get_state`.
    public func state(of token: NotificationToken) throws(NotificationError) -> UInt64 {
        guard let registration = state.withLock({ $0.registrations[token.rawValue] }) else { throw .invalidToken(token) }
        if let slot = registration.slot { return try table().state(slot).load(ordering: .sequentiallyConsistent) }
        return state.withLock { $0.localStates[registration.localName ?? "", default: 0] }
    }

    /// Sets the 64-bit state of the token's name, for every process (it does not post).
    /// `notify_set_state`.
    public func setState(_ value: UInt64, for token: NotificationToken) throws(NotificationError) {
        guard let registration = state.withLock({ $0.registrations[token.rawValue] }) else { throw .invalidToken(token) }
        if let slot = registration.slot {
            try table().state(slot).store(value, ordering: .sequentiallyConsistent)
        } else {
            state.withLock { $0.localStates[registration.localName ?? ""] = value }
        }
    }

    /// The name a token is registered for.
    public func name(of token: NotificationToken) -> String? { state.withLock { $0.registrations[token.rawValue]?.name } }

    /// Whether `token` is a live registration. `notify_is_valid_token`.
    public func isValid(_ token: NotificationToken) -> Bool { state.withLock { $0.registrations[token.rawValue] != nil } }

    /// Holds deliveries to `token` back until ``resume(_:)``; posts meanwhile give one delivery
    /// then. `notify_suspend`.
    public func suspend(_ token: NotificationToken) throws(NotificationError) {
        try state.withLock { (state) throws(NotificationError) in
            guard state.registrations[token.rawValue] != nil else { throw .invalidToken(token) }
            state.registrations[token.rawValue]!.suspended += 1
        }
    }

    /// Ends a ``suspend(_:)``. `notify_resume`.
    public func resume(_ token: NotificationToken) throws(NotificationError) {
        let slot = try state.withLock { (state) throws(NotificationError) -> Int? in
            guard state.registrations[token.rawValue] != nil else { throw .invalidToken(token) }
            state.registrations[token.rawValue]!.suspended = max(0, state.registrations[token.rawValue]!.suspended - 1)
            return state.registrations[token.rawValue]!.slot
        }
        if let slot { deliver(slots: [slot], local: true) } else { deliver(slots: [], local: true) }
    }

    /// Ends a registration; the last one of this process for a name takes the process off the
    /// name (and a name nobody holds any more is forgotten, state and all). `notify_cancel`.
    public func cancel(_ token: NotificationToken) throws(NotificationError) {
        let (registration, lastHold, closedPipe) = try state.withLock { (state) throws(NotificationError) -> (Registration, Bool, PipeEntry?) in
            guard let registration = state.registrations.removeValue(forKey: token.rawValue) else { throw .invalidToken(token) }
            var last = false
            if let slot = registration.slot {
                state.holdCount[slot, default: 1] -= 1
                if registration.kind.wantsWakes { state.wakeCount[slot, default: 1] -= 1 }
                last = state.holdCount[slot] == 0
                if last { state.holdCount[slot] = nil; state.wakeCount[slot] = nil }
            }
            var closed: PipeEntry?
            if case .fileDescriptor(let descriptor) = registration.kind,
               !state.registrations.values.contains(where: { if case .fileDescriptor(descriptor) = $0.kind { true } else { false } }) {
                closed = state.pipes.removeValue(forKey: descriptor)
            }
            return (registration, last, closed)
        }
        _ = closedPipe
        guard lastHold, let slot = registration.slot, let identity = state.withLock({ $0.identity }) else { return }
        let table = try table()
        try table.locked(timeout: lockTimeout) { () throws(NotificationError) in
            table.unhold(slot, process: identity.process, generation: identity.generation)
        }
    }

    // MARK: Delivery

    private func startDelivery() throws(NotificationError) {
        let table = try table()
        let starting = state.withLock { state -> Bool in
            if state.deliveryStarted { return false }
            state.deliveryStarted = true
            return true
        }
        if !starting {
            // Another thread is starting it: wait until the record is claimed.
            while state.withLock({ $0.identity == nil && $0.startFailure == nil }) { Clock.sleep(0.000_2) }
            if let failure = state.withLock({ $0.startFailure }) { throw failure }
            return
        }
        let ready: Pipe
        do { ready = try Pipe() } catch { throw .system(error) }
        let readyWrite = ready.write
        do {
            try BackgroundThread.start { [self] in self.deliveryLoop(table, ready: readyWrite) }
        } catch {
            throw .system(error)
        }
        var byte: UInt8 = 0
        _ = try? withUnsafeMutableBytes(of: &byte) { try ready.read.read(into: $0) }
        if let failure = state.withLock({ $0.startFailure }) { throw failure }
    }

    private func deliveryLoop(_ table: NotificationTable, ready: OwnedDescriptor) {
        let mailbox: DatagramSocket
        do {
            let identity = try table.locked(timeout: lockTimeout) { () throws(NotificationError) -> (Int, UInt32) in
                let identity = try table.claimProcessRecord()
                do throws(SystemCallError) { _ = try table.recordMutex(identity.0).lock(timeout: 0.1) } catch { throw .system(error) }
                return identity
            }
            do throws(SystemCallError) { mailbox = try DatagramSocket(name: table.mailboxName(process: identity.0, generation: identity.1)) } catch { throw NotificationError.system(error) }
            state.withLock { state in
                state.identity = identity
                state.mailbox = mailbox
            }
        } catch {
            state.withLock { $0.startFailure = error as? NotificationError ?? .system(SystemCallError(.thread, errno: .ioError)) }
            _ = try? ready.writeAll([1])
            return
        }
        _ = try? ready.writeAll([1])
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 8)
        while true {
            _ = try? Poll.readable([mailbox.descriptor], timeout: nil)
            var slots: [Int] = []
            var rescan = false
            var local = false
            while let count = try? mailbox.receive(into: buffer), count >= 4 {
                let value = buffer.load(as: UInt32.self)
                if value == UInt32.max { rescan = true } else if value == UInt32.max - 1 { local = true } else if !slots.contains(Int(value)) { slots.append(Int(value)) }
            }
            if let process = state.withLock({ $0.identity?.process }),
               table.recordOverflow(process).exchange(0, ordering: .sequentiallyConsistent) == 1 {
                rescan = true
            }
            if rescan {
                slots = state.withLock { Array($0.wakeCount.keys) }
                local = true
            }
            deliver(slots: slots, local: local)
        }
    }

    /// Re-arms this process's holder word in each slot, then fires the registrations whose
    /// name was posted since they were last told.
    private func deliver(slots: [Int], local: Bool) {
        guard let table = opened.withLock({ $0 }) ?? (try? table()) else { return }
        let identity = state.withLock { $0.identity }
        var counters: [Int: UInt64] = [:]
        for slot in slots {
            if let identity {
                let mine = UInt64(identity.generation) << 32 | UInt64(identity.process + 1) << 16
                for index in 0..<NotificationTable.holdersPerName {
                    let word = table.holder(slot, index).load(ordering: .sequentiallyConsistent)
                    if word & ~0xFFFF == mine && word & 2 == 2 {
                        // Armed before reading the counter: a post after this point wakes us again.
                        _ = table.holder(slot, index).loadThenBitwiseOr(with: 1, ordering: .sequentiallyConsistent)
                        break
                    }
                }
            }
            counters[slot] = table.counter(slot).load(ordering: .sequentiallyConsistent)
        }
        let actions = state.withLock { state -> [(NotificationToken, Registration.Kind)] in
            var fire: [(NotificationToken, Registration.Kind)] = []
            for (number, registration) in state.registrations where registration.kind.wantsWakes && registration.suspended == 0 {
                let current: UInt64
                if let slot = registration.slot {
                    guard let value = counters[slot] else { continue }
                    current = value
                } else if local, let name = registration.localName {
                    current = state.localCounters[name, default: 0]
                } else {
                    continue
                }
                guard current != registration.lastSeen else { continue }
                state.registrations[number]!.lastSeen = current
                fire.append((NotificationToken(rawValue: number), registration.kind))
            }
            return fire.sorted { $0.0.rawValue < $1.0.rawValue }
        }
        for (token, kind) in actions {
            switch kind {
            case .handler(let handler): handler(token)
            case .fileDescriptor(let descriptor):
                if let pipe = state.withLock({ $0.pipes[descriptor] }) {
                    let bigEndian = UInt32(bitPattern: token.rawValue).bigEndian
                    _ = try? withUnsafeBytes(of: bigEndian) { try pipe.write.writeAll($0) }
                }
            case .signal(let signal): try? ProcessSignals.send(signal, to: CurrentProcess.id)
            case .check: break
            }
        }
    }
}

/// One registration of this process.
struct Registration: Sendable {
    enum Kind: Sendable {
        case check
        case handler(@Sendable (NotificationToken) -> Void)
        case fileDescriptor(Int32)
        case signal(Int32)

        var wantsWakes: Bool { if case .check = self { false } else { true } }
    }

    var name: String
    var kind: Kind
    /// The shared slot, or `nil` for a process-local (`self.`) name.
    var slot: Int?
    var localName: String?
    /// The counter when this registration was last delivered.
    var lastSeen: UInt64 = 0
    /// The counter at the last ``NotificationCenter/check(_:)``.
    var lastChecked: UInt64 = 0
    var checked = false
    var suspended = 0
}

/// A pipe made for file-descriptor registrations.
struct PipeEntry: Sendable {
    var read: OwnedDescriptor
    var write: OwnedDescriptor
}

/// What a center keeps, under its mutex.
struct CenterState: Sendable {
    var registrations: [Int32: Registration] = [:]
    var nextToken: Int32 = 0
    /// Registrations per slot, and those among them that want wakes.
    var holdCount: [Int: Int] = [:]
    var wakeCount: [Int: Int] = [:]
    var localCounters: [String: UInt64] = [:]
    var localStates: [String: UInt64] = [:]
    var pipes: [Int32: PipeEntry] = [:]
    var identity: (process: Int, generation: UInt32)?
    var mailbox: DatagramSocket?
    var deliveryStarted = false
    var startFailure: NotificationError?
}
