import NIOCore
import NIOHTTP1

/// Takes the body of chosen requests (large uploads) on the connection's event loop instead of
/// passing each piece to the task serving the connection.
///
/// Why: LocalSend's senders write 4 KiB pieces, and a sender slower than the receiver delivers
/// them one socket read at a time. Each piece passed through `NIOAsyncChannel` woke the serving
/// task on another thread: `perf` on the receiver put 27 % of its samples in the kernel's task
/// switching. Taken here, a piece costs one call on the thread that read it and the task wakes
/// once, at the body's end: 100 MB from the PyPI peer cost the receiver 1.0–1.3 CPU-s and 25 k
/// context switches instead of 1.65 CPU-s and 61 k (the transfer's time is the sender's).
///
/// After the head of a request `holds` chooses, the body's parts are held (and no more is read
/// from the socket) until the task decides: ``HTTPServer/takeBody(of:into:)`` gives them to a
/// function, piece by piece, on the event loop; a reply written without taking them passes them
/// on to the task as usual (it reads past them).
///
/// While a body is taken from a sender slower than we read, socket reads are paced
/// (``ReadPacing``): each 4 KiB piece otherwise woke this thread from `epoll_wait`, and the
/// kernel charges that wake-up to the sender, whose CPU is what limits such a transfer.
final class HeldBodyHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Takes one piece of a body; throwing ends the taking with that error (the rest of the body
    /// is read past: the reply closes the connection).
    typealias Take = @Sendable (inout ByteBuffer) throws -> Void

    private enum State {
        case passing
        case holding([HTTPServerRequestPart])
        case taking(Take, EventLoopPromise<Void>)
        case discarding
    }

    private let holds: @Sendable (HTTPRequestHead) -> Bool
    private var state = State.passing
    private var readWaiting = false
    private var readScheduled = false
    /// Body bytes that came in the current socket read, and in the last one.
    private var bytesThisRead = 0
    private var bytesLastRead = Int.max
    private var inactive = false
    private var context: ChannelHandlerContext?

    init(holds: @escaping @Sendable (HTTPRequestHead) -> Bool) { self.holds = holds }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) {
        end(NearbyError.connection("the connection closed in the middle of a request"))
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        switch state {
        case .passing:
            if case .head(let head) = part, holds(head) { state = .holding([]) }
            context.fireChannelRead(data)
        case .holding(var parts):
            state = .passing  // so that appending copies nothing
            parts.append(part)
            state = .holding(parts)
        case .taking(let take, let promise):
            give(part, to: take, promise)
        case .discarding:
            if case .end = part { state = .passing }
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        bytesLastRead = bytesThisRead
        bytesThisRead = 0
        context.fireChannelReadComplete()
    }

    func channelInactive(context: ChannelHandlerContext) {
        inactive = true
        end(NearbyError.connection("the sender closed the connection in the middle of a request"))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        end(error)
        context.fireErrorCaught(error)
    }

    /// A reply's end passes a body still held on to the task (which reads past it). Before the end
    /// goes on: writing it lets NIO's pipelining handler pass the next request in at once, and
    /// that request's body is held for its own reply.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { release() }
        context.write(data, promise: promise)
    }

    /// Socket reads wait while a body is held: nothing is read that nobody takes. While one is
    /// taken, a read that brought little waits a moment before the next (``ReadPacing``).
    func read(context: ChannelHandlerContext) {
        switch state {
        case .taking where ReadPacing.body.waits(after: bytesLastRead):
            guard !readScheduled else { return }
            readScheduled = true
            context.eventLoop.assumeIsolated().scheduleTask(in: ReadPacing.body.wait) { [self] in
                readScheduled = false
                guard let context = self.context, !inactive else { return }
                readUnlessHeld(context)
            }
        default:
            readUnlessHeld(context)
        }
    }

    /// The one rule for reading: nothing while a body is held (the read waits for its taking).
    private func readUnlessHeld(_ context: ChannelHandlerContext) {
        if case .holding = state { readWaiting = true } else { context.read() }
    }

    /// Gives the held body, and the rest as it comes, to `take`; the future succeeds at its end.
    func take(_ take: @escaping Take, on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        guard !inactive else {
            return eventLoop.makeFailedFuture(NearbyError.connection("the sender closed the connection in the middle of a request"))
        }
        guard case .holding(let parts) = state else {
            return eventLoop.makeFailedFuture(NearbyError.protocolViolation("no request body is waiting"))
        }
        let promise = eventLoop.makePromise(of: Void.self)
        state = .taking(take, promise)
        for part in parts {
            guard case .taking = state else { break }
            give(part, to: take, promise)
        }
        bytesThisRead = 0  // what was held came in earlier reads
        resumeReading()
        return promise.futureResult
    }

    /// Passes the held body on to the task; nothing when none is held.
    private func release() {
        guard case .holding(let parts) = state else { return }
        state = .passing
        for part in parts { context?.fireChannelRead(wrapInboundOut(part)) }
        resumeReading()
    }

    private func give(_ part: HTTPServerRequestPart, to take: Take, _ promise: EventLoopPromise<Void>) {
        switch part {
        case .head:
            state = .discarding
            promise.fail(NearbyError.protocolViolation("a request inside a request"))
        case .body(var buffer):
            bytesThisRead += buffer.readableBytes
            do { try take(&buffer) } catch {
                state = .discarding
                promise.fail(error)
            }
        case .end:
            state = .passing
            promise.succeed()
        }
    }

    /// Fails a body being taken (the connection ended or failed).
    private func end(_ error: any Error) {
        if case .taking(_, let promise) = state {
            state = .discarding
            promise.fail(error)
        }
    }

    private func resumeReading() {
        if readWaiting {
            readWaiting = false
            context?.read()
        }
    }
}

extension HTTPServer {
    /// Gives the body of the current request (held, as the server's `holds` chose) to `take`, piece
    /// by piece, on the connection's event loop; returns at its end, or throws what `take` threw or
    /// why the connection ended. `take` runs on the thread that reads sockets: it may write to a
    /// file (the page cache), never wait for anything.
    static func takeBody(of channel: any Channel, into take: @escaping HeldBodyHandler.Take) async throws {
        try await channel.eventLoop.flatSubmit {
            do {
                return try channel.pipeline.syncOperations.handler(type: HeldBodyHandler.self).take(take, on: channel.eventLoop)
            } catch {
                return channel.eventLoop.makeFailedFuture(error)
            }
        }.get()
    }
}
