import PropertyLists
import Synchronization
import SystemCalls

/// The LocalSend receiver's one session at a time (as LocalSend's own receivers keep it): who
/// asked, from which address, and per accepted file its token and its state. An upload is let in
/// only with its session's identifier, its own file's token and from the address that asked;
/// each file is received once. A session ends when every file is delivered or failed, when its
/// sender cancels it, or after ``expiry`` seconds without a request; what it left in the spool
/// goes with it (LocalSend has no resume).
final class LocalSendSessions: Sendable {
    /// One accepted file.
    struct File: Sendable {
        var index: Int
        var token: String
        var size: Int64
        var name: String
        var type: String
        var destination: Destination
        var sha256: [UInt8]?
        var state: State
    }

    /// Where a file is.
    enum State: Sendable, Equatable { case waiting, receiving, delivered, failed }

    /// An accepted session.
    struct Session: Sendable {
        var id: String
        var address: String
        var senderName: String
        var spool: Spool
        var annotation: PropertyList
        var files: [String: File]
        var lastRequest: Double
        /// When the session must be over (the receiver's minimum rate, as for nearby sessions).
        var deadline: Double
    }

    /// What an upload may do.
    struct Ticket: Sendable {
        var sessionId: String
        var fileId: String
        var file: File
        var spool: Spool
        var senderName: String
        var annotation: PropertyList
        var deadline: Double
    }

    /// Seconds without a request after which a session is dropped.
    let expiry: Double
    /// The session, or a prepare waiting for its answer (`nil` session, `asking` true).
    let state = Mutex<(session: Session?, asking: Bool)>((nil, false))

    init(expiry: Double) { self.expiry = expiry }

    /// Reserves the slot for a prepare-upload that is about to be decided; `false` while another
    /// session runs or another prepare is being decided (LocalSend's 409).
    func reserve(now: Double) -> Bool {
        let (reserved, dropped) = state.withLock { state -> (Bool, Session?) in
            var dropped: Session?
            if let session = state.session, now - session.lastRequest > expiry {
                dropped = session
                state.session = nil
            }
            guard state.session == nil, !state.asking else { return (false, dropped) }
            state.asking = true
            return (true, dropped)
        }
        dropped.map(Self.cleanUp)
        return reserved
    }

    /// Ends the reservation without a session (the ask was refused).
    func release() { state.withLock { $0.asking = false } }

    /// Starts the accepted session (the reservation becomes it).
    func start(_ session: Session) { state.withLock { $0 = (session, false) } }

    /// Why an upload is refused (status and reason), or its ticket: the file moves to `receiving`.
    func begin(sessionId: String, fileId: String, token: String, address: String, now: Double) -> Result<Ticket, Refusal> {
        state.withLock { state in
            guard var session = state.session, session.id == sessionId else { return .failure(.unknownSession) }
            guard session.address == address, var file = session.files[fileId], file.token == token else { return .failure(.forbidden) }
            guard file.state == .waiting else { return .failure(.alreadyTaken) }
            file.state = .receiving
            session.files[fileId] = file
            session.lastRequest = now
            state.session = session
            return .success(Ticket(sessionId: sessionId, fileId: fileId, file: file, spool: session.spool, senderName: session.senderName,
                                   annotation: session.annotation, deadline: session.deadline))
        }
    }

    /// Whether the ticket's session still runs (not cancelled, not replaced), and notes that it
    /// is active now (a long upload keeps its session from expiring).
    func touch(_ ticket: Ticket, now: Double) -> Bool {
        state.withLock { state in
            guard state.session?.id == ticket.sessionId else { return false }
            state.session?.lastRequest = now
            return true
        }
    }

    /// Records how the ticket's file ended; a session whose files have all ended ends too.
    func finish(_ ticket: Ticket, delivered: Bool, now: Double) {
        let ended: Session? = state.withLock { state in
            guard var session = state.session, session.id == ticket.sessionId else { return nil }
            session.files[ticket.fileId]?.state = delivered ? .delivered : .failed
            session.lastRequest = now
            if session.files.values.allSatisfy({ $0.state == .delivered || $0.state == .failed }) {
                state.session = nil
                return session
            }
            state.session = session
            return nil
        }
        if !delivered { try? FileSystem.removeTree(ticket.spool.itemFolder(ticket.file.index)) }
        ended.map(Self.cleanUp)
    }

    /// Ends the session `sessionId` if `address` is its sender's; `false` otherwise.
    func cancel(sessionId: String?, address: String) -> Bool {
        let ended: Session? = state.withLock { state in
            guard let session = state.session, session.address == address, sessionId == nil || session.id == sessionId else { return nil }
            state.session = nil
            return session
        }
        ended.map(Self.cleanUp)
        return ended != nil
    }

    /// Removes what an ended session left in the spool (delivered files were moved out of it).
    static func cleanUp(_ session: Session) { try? FileSystem.removeTree(session.spool.folder) }

    /// Why an upload is refused.
    enum Refusal: Error, Equatable {
        case unknownSession, forbidden, alreadyTaken

        /// The status LocalSend's protocol gives it.
        var status: Int {
            switch self {
            case .unknownSession: 400
            case .forbidden: 403
            case .alreadyTaken: 409
            }
        }

        /// In words.
        var reason: String {
            switch self {
            case .unknownSession: "no such session"
            case .forbidden: "invalid token or address"
            case .alreadyTaken: "this file was already sent"
            }
        }
    }
}
