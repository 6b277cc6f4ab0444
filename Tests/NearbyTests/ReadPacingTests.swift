import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import NIOHTTP1
@testable import Nearby
import Testing

/// HeldBodyHandler's socket reads while it takes a body (ReadPacing), on NIO's embedded channel
/// with its own clock: after a read that brought a 4 KiB piece the next read waits 2 ms; after
/// one that brought 64 KiB it starts at once; a held body reads nothing; a wait outlived by its
/// connection does nothing.
@Suite struct ReadPacingTests {
    /// Counts the reads the pipeline asks the channel for (it sits between the channel and the
    /// handler under test, so it sees exactly what the handler lets through).
    final class ReadCounter: ChannelOutboundHandler {
        typealias OutboundIn = HTTPServerResponsePart
        var reads = 0
        func read(context: ChannelHandlerContext) {
            reads += 1
            context.read()
        }
    }

    static func piece(_ size: Int) -> HTTPServerRequestPart {
        .body(ByteBuffer(repeating: 7, count: size))
    }

    static func channel() throws -> (EmbeddedChannel, ReadCounter, HeldBodyHandler) {
        let counter = ReadCounter(), held = HeldBodyHandler(holds: { $0.uri.hasPrefix("/upload") })
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandlers([counter, held])
        return (channel, counter, held)
    }

    @Test func aSmallReadMakesTheNextWaitAndALargeOneDoesNot() throws {
        let (channel, counter, held) = try Self.channel()
        try channel.writeInbound(HTTPServerRequestPart.head(HTTPRequestHead(version: .http1_1, method: .POST, uri: "/upload")))
        channel.read()
        #expect(counter.reads == 0, "a held body reads nothing until it is taken")

        let taken = NIOLockedValueBox(0)
        let done = held.take({ buffer in taken.withLockedValue { $0 += buffer.readableBytes }; buffer.moveReaderIndex(to: buffer.writerIndex) },
                             on: channel.eventLoop)
        #expect(counter.reads == 1, "taking resumes reading")

        try channel.writeInbound(Self.piece(4096))
        channel.read()
        #expect(counter.reads == 1, "after 4 KiB the next read waits")
        channel.read()
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(counter.reads == 1)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(counter.reads == 2, "one read after 2 ms, however often it was asked for")

        try channel.writeInbound(Self.piece(64 * 1024))
        channel.read()
        #expect(counter.reads == 3, "after 64 KiB the next read starts at once")

        try channel.writeInbound(HTTPServerRequestPart.end(nil))
        #expect(throws: Never.self) { try done.wait() }
        #expect(taken.withLockedValue { $0 } == 4096 + 64 * 1024)
        channel.read()
        #expect(counter.reads == 4, "after the body, reads start at once")
        _ = try channel.finish()
    }

    @Test func aWaitOutlivedByItsConnectionReadsNothing() throws {
        let (channel, counter, held) = try Self.channel()
        try channel.writeInbound(HTTPServerRequestPart.head(HTTPRequestHead(version: .http1_1, method: .POST, uri: "/upload")))
        channel.read()
        let done = held.take({ buffer in buffer.moveReaderIndex(to: buffer.writerIndex) }, on: channel.eventLoop)
        try channel.writeInbound(Self.piece(100))
        channel.read()
        #expect(counter.reads == 1)
        // Closed, and the handlers removed, while the read waits (finish() would cancel the wait
        // itself, and so prove nothing).
        try channel.close().wait()
        channel.embeddedEventLoop.run()
        channel.embeddedEventLoop.advanceTime(by: ReadPacing.body.wait + .milliseconds(3))
        #expect(counter.reads == 1)
        #expect(throws: NearbyError.self) { try done.wait() }
        _ = try? channel.finish(acceptAlreadyClosed: true)
    }
}
