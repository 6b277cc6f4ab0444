import Crypto
@testable import Nearby
import NIOCore

/// A sender that speaks the session's frames directly, to send what our sender never would
/// (bodies longer than declared, forged tokens, wrong digests, a connection dropped halfway).
final class RawSession {
    var frames: NIOAsyncChannelInboundStream<Frame>.AsyncIterator
    let outbound: NIOAsyncChannelOutboundWriter<Frame>

    init(frames: NIOAsyncChannelInboundStream<Frame>.AsyncIterator, outbound: NIOAsyncChannelOutboundWriter<Frame>) {
        self.frames = frames
        self.outbound = outbound
    }

    /// Connects as `device` (with its identity, accepting any receiver) and runs `body`; the
    /// connection closes when `body` returns.
    static func run(_ device: TransferTests.Device, port: Int, _ body: (RawSession) async throws -> Void) async throws {
        let channel = try await Connection.connect(host: "127.0.0.1", port: port, identity: device.identity,
                                                   check: PeerCheck(.anyoneRecorded), timeout: 5, idle: 30)
        try await channel.executeThenClose { inbound, outbound in
            try await body(RawSession(frames: inbound.makeAsyncIterator(), outbound: outbound))
        }
    }

    func send(_ message: SessionMessage) async throws { try await outbound.write(message.frame) }

    func data(_ bytes: [UInt8]) async throws {
        for start in stride(from: 0, to: bytes.count, by: Frame.maximumData) {
            try await outbound.write(Frame(kind: .data, payload: ByteBuffer(bytes: bytes[start..<min(bytes.count, start + Frame.maximumData)])))
        }
    }

    /// The next message, `nil` when the receiver closed the connection.
    func receive() async throws -> SessionMessage? {
        guard let frame = try await frames.next() else { return nil }
        return try SessionMessage.decode(Array(frame.payload.readableBytesView))
    }

    static func sha256(_ bytes: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: bytes)) }
}
