import NIOCore

/// One unit on the wire after the TLS handshake: a kind byte, a 32-bit big-endian length, then
/// that many bytes. A message frame holds a binary property list (``SessionMessage``); a data
/// frame holds the next bytes of the item being uploaded.
///
/// Hand-written rather than HTTP: a session is one request after another on one connection, and
/// a length-prefixed frame is all it needs; an HTTP stack would add a parser to fuzz and nothing
/// the session uses.
public struct Frame: Sendable, Equatable {
    /// What the payload is.
    public enum Kind: UInt8, Sendable {
        /// A ``SessionMessage`` as a binary property list.
        case message = 1
        /// Bytes of the item being uploaded, or of a continuation stream.
        case data = 2
        /// The end of one direction of a continuation stream (no payload): Handoff's
        /// `ContinuationFrame.Kind.finished`, so that it passes between the app and the network as is.
        case finished = 3

        /// The longest payload a frame of this kind may carry: the one limit the decoder
        /// enforces and the fuzz oracle expects (a `finished` frame carries none).
        var maximumPayload: Int {
            switch self {
            case .message: Frame.maximumMessage
            case .data: Frame.maximumData
            case .finished: 0
            }
        }
    }

    /// The largest message: an ask for ``Limits/maximumItems`` items with long names fits.
    public static let maximumMessage = 1 << 20
    /// The largest data frame: what a sender writes at once, and all a receiver buffers.
    public static let maximumData = 1 << 18

    /// What the payload is.
    public var kind: Kind
    /// The payload.
    public var payload: ByteBuffer

    /// A frame.
    public init(kind: Kind, payload: ByteBuffer) {
        self.kind = kind
        self.payload = payload
    }
}
