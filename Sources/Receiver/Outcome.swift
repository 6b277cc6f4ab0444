/// What happened to one Inbox entry in a pass.
public enum Outcome: Sendable, Equatable {
    /// Moved into the working folder under this name.
    case moved(String)
    /// Left in place for a later pass: why (still being written, a transient error).
    case deferred(String)
    /// Left in place, never to be moved as is: why (not a regular file, several links, too large).
    case refused(String)
    /// Moved into `Library/Quarantine/` under this name (with a manifest row): why.
    case quarantined(String, storedAs: String)
}

/// One entry's outcome: its name in the Inbox (bytes: it need not be UTF-8) and what happened.
public struct EntryOutcome: Sendable, Equatable {
    public var name: [UInt8]
    public var outcome: Outcome

    /// An outcome for `name`.
    public init(name: [UInt8], outcome: Outcome) {
        self.name = name
        self.outcome = outcome
    }
}

/// What the app's policy says of a regular file that passed the checks.
public struct Judgement: Sendable, Equatable {
    /// The document's type identifier, recorded in the manifest.
    public var type: String?
    /// Why it is refused; `nil` to accept it.
    public var refusal: String?

    /// A judgement.
    public init(type: String?, refusal: String? = nil) {
        self.type = type
        self.refusal = refusal
    }
}
