import NIOCore
import NIOPosix
import Synchronization
import SystemCalls

/// Carries a continuation stream between the network and an app on this device: data frames
/// and each direction's finished frame pass through unchanged, between the pinned TLS connection
/// to the other device and a local socket (the offering app's endpoint, or the continuing app's
/// helper socket), both speaking the same frames.
///
/// Either side ending without its finished frame (an app killed, a device gone) ends the other
/// side too, without a finished frame: the app there reads an error, never waits forever.
///
/// A stream may carry nothing for as long as its apps like (Apple's do not time out), yet a
/// device that vanished without closing (no FIN: powered off, out of reach) must still end it.
/// So each relay sends the other an empty data frame every ``heartbeat`` seconds while it
/// relays, which keeps both sides' idle timeouts from firing, and, until the other direction
/// finished, takes the other device for gone after ``silenceLimit`` heartbeats without a frame
/// from it. (Once it finished, nothing reads its frames here until this side finishes too, so
/// silence means nothing; a device gone then is found by TCP, whose unanswered heartbeats fail.)
/// Empty data frames are never passed to an app.
enum StreamRelay {
    /// Seconds between heartbeats: the same on both devices (the silence limit assumes the
    /// other's are as frequent as ours); the receiver's idle timeout (30 s) is three of them.
    static let heartbeat = 10.0
    /// Heartbeats missed before the other device is taken for gone.
    static let silenceLimit = 3.0

    /// The local socket `descriptor` (which the relay takes and closes) as a channel of frames.
    static func local(_ descriptor: CInt) async throws -> NIOAsyncChannel<Frame, Frame> {
        try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).withConnectedSocket(descriptor) { channel in
            channel.eventLoop.makeCompletedFuture {
                let sync = channel.pipeline.syncOperations
                try sync.addHandler(ByteToMessageHandler(FrameDecoder()))
                try sync.addHandler(FrameEncoder())
                return try NIOAsyncChannel<Frame, Frame>(wrappingChannelSynchronously: channel)
            }
        }
    }

    /// Relays until both directions finished; throws when either ended without finishing.
    /// `remote` is read in this task (its iterator cannot move to another); the local side's
    /// frames go out from a child task.
    /// `heartbeat`: seconds between heartbeats (``heartbeat`` but in tests).
    static func run(_ side: Side, remote: inout some FrameSource, remoteOutbound: NIOAsyncChannelOutboundWriter<Frame>, remoteChannel: any Channel,
                    local: NIOAsyncChannel<Frame, Frame>, heartbeat: Double = Self.heartbeat) async throws {
        let heard = LastHeard()
        let beating = Self.beat(every: heartbeat, remoteChannel, heard)
        defer { beating.cancel() }
        var heardRemote = Heard(source: remote, heard: heard)
        defer { remote = heardRemote.source }
        try await local.executeThenClose { localInbound, localOutbound in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    do {
                        for try await frame in localInbound {
                            switch frame.kind {
                            case .data: try await remoteOutbound.write(frame)
                            case .finished:
                                try await remoteOutbound.write(frame)
                                return
                            case .message: throw NearbyError.protocolViolation("the app's stream carried a message")
                            }
                        }
                        throw NearbyError.connection("the app ended its stream without closing it")
                    } catch {
                        // The other device learns of it by the connection's end.
                        try? await remoteChannel.close()
                        throw error
                    }
                }
                do {
                    reading: while true {
                        guard let frame = try await heardRemote.next() else {
                            throw NearbyError.connection("the other device ended the stream without closing it")
                        }
                        switch frame.kind {
                        case .data: try await localOutbound.write(frame)
                        case .finished:
                            try await localOutbound.write(frame)
                            break reading
                        case .message: throw NearbyError.protocolViolation("a message inside a continuation stream")
                        }
                    }
                } catch {
                    try? await local.channel.close()
                    throw error
                }
                try await group.waitForAll()
            }
            // Both directions finished. A close now could drop frames still queued for either
            // socket (a loaded CI lost the last 10 KB and the finished frame), so each side closes
            // only once the other has everything: the app closes its end after its last read
            // (bounded: an app that never closes its input stream is not waited for), and
            // between the devices the continuing side acknowledges the offering side's finish
            // and then waits for it to close, which it does on reading that acknowledgement.
            await Self.closed(local.channel, within: Self.closeWait)
            switch side {
            case .continuing:
                try await remoteOutbound.write(SessionMessage.acknowledged.frame)
                while try await heardRemote.next() != nil {}
            case .offering:
                _ = try await heardRemote.next()
            }
        }
    }

    /// Sends a heartbeat every `seconds` and closes `channel` once nothing came from the other
    /// device for ``silenceLimit`` of them before it finished; until cancelled.
    ///
    /// On the connection's event loop, not in a task: the cooperative pool can be held up by
    /// other work for longer than a heartbeat (a loaded test run ended a quiet stream that way),
    /// while the event loop is the connection's own. A heartbeat is one whole frame written
    /// there, so it never splits a frame the relay writes.
    static func beat(every seconds: Double, _ channel: any Channel, _ heard: LastHeard) -> RepeatedTask {
        let interval = TimeAmount.milliseconds(Int64(seconds * 1000))
        return channel.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { task in
            if heard.state.withLock({ !$0.finished && Clock.monotonic() - $0.time > Self.silenceLimit * seconds }) {
                task.cancel()
                channel.close(promise: nil)
                return
            }
            channel.writeAndFlush(Frame(kind: .data, payload: ByteBuffer()), promise: nil)
        }
    }

    /// When a frame last came from the other device, and whether it finished its direction.
    final class LastHeard: Sendable {
        let state = Mutex((time: Clock.monotonic(), finished: false))
    }

    /// The other device's frames without its heartbeats, noting when each came.
    struct Heard<Source: FrameSource>: FrameSource {
        var source: Source
        let heard: LastHeard

        mutating func next() async throws -> Frame? {
            while let frame = try await source.next() {
                heard.state.withLock { $0 = (Clock.monotonic(), $0.finished || frame.kind == .finished) }
                if frame.kind == .data && frame.payload.readableBytes == 0 { continue }
                return frame
            }
            return nil
        }
    }

    /// Which end of the connection between the devices this relay is.
    enum Side {
        /// The receiver of the device that offered the activity.
        case offering
        /// The helper of the app that continued it.
        case continuing
    }

    /// Seconds to wait for an app to close its end once both directions finished.
    static let closeWait = 10.0

    /// Returns once `channel` closed, or `seconds` passed. Not a task group racing
    /// `closeFuture.get()` against a sleep: that wait ignores cancellation, so the group waited for
    /// the close after all, and an app that never closed its end held the relay for good.
    static func closed(_ channel: any Channel, within seconds: Double) async {
        /// Resumes the wait once, whichever comes first.
        final class Once: Sendable {
            let done = Atomic(false)
            func first() -> Bool { !done.exchange(true, ordering: .acquiringAndReleasing) }
        }
        let once = Once()
        await withCheckedContinuation { (waiting: CheckedContinuation<Void, Never>) in
            let timer = channel.eventLoop.scheduleTask(in: .milliseconds(Int64(seconds * 1000))) {
                if once.first() { waiting.resume() }
            }
            channel.closeFuture.whenComplete { _ in
                timer.cancel()
                if once.first() { waiting.resume() }
            }
        }
    }
}
