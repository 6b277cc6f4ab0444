import Atomics
import Synchronization
import SystemCalls

// Registering for names and using registrations (notify_register_*, notify_check, state,
// suspend, cancel).
extension NotifyCenter {
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
        return try register(name, kind: .sendSignal(signal))
    }

    func register(_ name: String, kind: Registration.Kind) throws(NotificationError) -> NotificationToken {
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
    func processRecord(_ table: NotificationTable) throws(NotificationError) -> (process: Int, generation: UInt32) {
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

    func currentCounter(of token: NotificationToken) throws(NotificationError) -> UInt64 {
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
        let mailbox = try state.withLock { (state) throws(NotificationError) -> DatagramSocket? in
            guard state.registrations[token.rawValue] != nil else { throw .invalidToken(token) }
            state.registrations[token.rawValue]!.suspended = max(0, state.registrations[token.rawValue]!.suspended - 1)
            return state.mailbox
        }
        // The delivery thread looks at every name again (handlers run there only, one at a time).
        if let mailbox { try? mailbox.send(slotMessage(UInt32.max), to: mailbox.name, timeout: 1) }
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
}
