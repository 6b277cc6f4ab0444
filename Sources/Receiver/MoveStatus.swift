/// Where a manifest row stands.
public enum MoveStatus: String, Sendable, Hashable, CaseIterable {
    /// Journaled before the rename (or the claim of a copy): the move may or may not have
    /// happened; recovery settles it.
    case moving
    /// A cross-file-system copy is durable under its final name; the Inbox copy may still be there.
    case copied
    /// Done: the file is in the working folder under `storedName`.
    case stored
    /// Refused and moved to `Library/Quarantine/` under `storedName`, with the reason.
    case quarantined

    /// Whether a crash may have left the move half done.
    public var isUnfinished: Bool { self == .moving || self == .copied }
}
