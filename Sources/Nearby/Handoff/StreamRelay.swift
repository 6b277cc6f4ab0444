import NIOCore
import NIOPosix

/// Carries a continuation stream between the network and an app on this device: data frames
/// and each direction's finished frame pass through unchanged, between the pinned TLS connection
/// to the other device and a local socket (the offering app's endpoint, or the continuing app's
/// helper socket), both speaking the same frames.
///
/// Either side ending without its finished frame (an app killed, a device gone) ends the other
/// side too, without a finished frame: the app there reads an error, never waits forever.
enum StreamRelay {
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
    static func run(_ side: Side, remote: inout some FrameSource, remoteOutbound: NIOAsyncChannelOutboundWriter<Frame>, remoteChannel: any Channel,
                    local: NIOAsyncChannel<Frame, Frame>) async throws {
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
                        guard let frame = try await remote.next() else {
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
                while try await remote.next() != nil {}
            case .offering:
                _ = try await remote.next()
            }
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

    /// Returns once `channel` closed, or `seconds` passed.
    static func closed(_ channel: any Channel, within seconds: Double) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await channel.closeFuture.get() }
            group.addTask { try? await Task.sleep(for: .seconds(seconds)) }
            await group.next()
            group.cancelAll()
        }
    }
}
