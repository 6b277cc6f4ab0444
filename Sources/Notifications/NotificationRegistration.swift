import SystemCalls

/// One registration of this process.
struct Registration: Sendable {
    enum Kind: Sendable {
        case check
        case handler(@Sendable (NotificationToken) -> Void)
        case fileDescriptor(Int32)
        case sendSignal(Int32)

        var wantsWakes: Bool { if case .check = self { false } else { true } }
    }

    var name: String
    var kind: Kind
    /// The shared slot, or `nil` for a process-local (`self.`) name.
    var slot: Int?
    var localName: String?
    /// The counter when this registration was last delivered.
    var lastSeen: UInt64 = 0
    /// The counter at the last ``NotifyCenter/check(_:)``.
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
    var startFailure: NotificationError?
}
