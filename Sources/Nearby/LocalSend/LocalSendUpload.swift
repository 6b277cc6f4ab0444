import NIOCore
import NIOHTTP1
import SystemCalls

/// One LocalSend upload's body on its way into the spool, taken piece by piece on the connection's
/// event loop (``HTTPServer/takeBody(of:into:)``): each piece keeps the session alive and is held
/// to the session's deadline and the file's declared size; the pieces are gathered into one write
/// per 256 KiB, as the nearby protocol's frames come (the PyPI sender's pieces are 4 KiB).
///
/// `@unchecked Sendable`: the serving task makes it, then only the event loop uses it until the
/// body's end completes the future the task waits for, then only the task again; that future
/// orders the two.
final class LocalSendUpload: @unchecked Sendable {
    let sessions: LocalSendSessions
    let ticket: LocalSendSessions.Ticket
    private(set) var writer: ItemWriter
    private var pending = ByteBufferAllocator().buffer(capacity: LocalSendUpload.gather)
    /// The reply that refused the body, once one did.
    private(set) var refusal: HTTPServer.Reply?

    /// Bytes gathered before they are written.
    static let gather = 256 << 10

    init(sessions: LocalSendSessions, ticket: LocalSendSessions.Ticket, writer: ItemWriter) {
        self.sessions = sessions
        self.ticket = ticket
        self.writer = writer
    }

    /// Takes one piece of the body (on the event loop); throws, with ``refusal`` set, to refuse the body.
    func take(_ buffer: inout ByteBuffer) throws {
        let now = Clock.monotonic()
        guard sessions.touch(ticket, now: now) else {
            throw refuse(.error(.conflict, "the session was cancelled", close: true), NearbyError.connection("the session was cancelled"))
        }
        guard now < ticket.deadline else {
            let reason = "the session ran past its time (slower than the receiver's minimum rate)"
            throw refuse(.error(.requestTimeout, reason, close: true), NearbyError.connection(reason))
        }
        do {
            // Past the declared size: refused at once, not after the gathering.
            guard Int64(pending.readableBytes + buffer.readableBytes) <= ticket.file.size - writer.position else {
                try flush()
                try buffer.withUnsafeReadableBytes { bytes throws(NearbyError) in try writer.append(bytes) }
                throw NearbyError.protocolViolation("item \(ticket.file.index) is longer than the \(ticket.file.size) bytes declared")
            }
            pending.writeBuffer(&buffer)
            if pending.readableBytes >= Self.gather { try flush() }
        } catch {
            throw refuse(.error(.badRequest, "\(error)", close: true), error)
        }
    }

    /// Writes what is gathered.
    func flush() throws(NearbyError) {
        defer { pending.clear() }
        try pending.withUnsafeReadableBytes { bytes throws(NearbyError) in try writer.append(bytes) }
    }

    private func refuse(_ reply: HTTPServer.Reply, _ error: any Error) -> any Error {
        refusal = reply
        return error
    }
}
