import Handlers
import OpenRequests

/// The receiver's temporary names, made from a journal row's id so that recovery finds them: a
/// file claimed for a cross-file-system copy is renamed to `.inboxd-ID.claimed` in the Inbox, and
/// its copy is written as `.inboxd-ID.partial` in the working folder.
enum EntryNames {
    static func claim(_ token: String) -> [UInt8] { Array(".inboxd-\(token).claimed".utf8) }
    static func partial(_ token: String) -> [UInt8] { Array(".inboxd-\(token).partial".utf8) }

    /// The name for attempt `attempt` of placing `name` without replacing (``FreeName``).
    static func free(_ name: [UInt8], _ attempt: Int) -> [UInt8] { FreeName.candidate(name, attempt: attempt) }
}
