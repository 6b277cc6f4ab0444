import NIOCore
import NIOHTTP1

/// Joins the body parts of one socket read into one before they leave the event loop. NIO's
/// decoder hands on each chunk of a chunked body as a part, and the PyPI LocalSend sender writes
/// 4 KiB chunks: 25,000 parts for 100 MB, each a hop to the task that writes the file, made our
/// receiver 10–20 % slower than the peer's own (the lab's 100 MB figure). Parts are joined up to
/// 1 MiB and passed on at the end of each read, at a request's end and before anything else.
final class BodyCoalescer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    private var pending: ByteBuffer?
    static let limit = 1 << 20

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .body(var buffer):
            if pending == nil {
                pending = buffer
            } else {
                pending!.writeBuffer(&buffer)
            }
            if pending!.readableBytes >= Self.limit { flush(context) }
        case let other:
            flush(context)
            context.fireChannelRead(wrapInboundOut(other))
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        flush(context)
        context.fireChannelReadComplete()
    }

    func channelInactive(context: ChannelHandlerContext) {
        flush(context)
        context.fireChannelInactive()
    }

    private func flush(_ context: ChannelHandlerContext) {
        guard let buffer = pending else { return }
        pending = nil
        context.fireChannelRead(wrapInboundOut(.body(buffer)))
    }
}
