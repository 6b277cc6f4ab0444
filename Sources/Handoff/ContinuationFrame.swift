/// One unit of what travels between an app and the Handoff channel on its device (the offering
/// app's socket, the continuing app's helper): a kind byte, a 32-bit big-endian length, then that
/// many bytes; the layout of Nearby's frames, so that data and the end of a stream pass between
/// the two unchanged (the kinds ``Kind/data`` and ``Kind/finished`` are Nearby's too).
public enum ContinuationFrame: Sendable, Equatable {
    /// Bytes of the stream.
    case data([UInt8])
    /// The sender closed its output stream: no more data comes (a connection that ends without
    /// it ended with an error).
    case finished
    /// To the continuing app: the streams to the offering app are connected.
    case opened
    /// To the continuing app: the streams could not be connected (why).
    case failed(String)
    /// To the offering app: its activity (the one made current at `madeCurrent`) was continued on
    /// another device.
    case continued(madeCurrent: Double)
    /// To the offering app: the device continuing its activity opened streams; the connection
    /// carries them from now on.
    case streams(madeCurrent: Double)

    /// The kind byte of each frame.
    public enum Kind: UInt8, Sendable {
        /// ``ContinuationFrame/data(_:)``: Nearby's data frame.
        case data = 2
        /// ``ContinuationFrame/finished``: Nearby's finished frame.
        case finished = 3
        /// ``ContinuationFrame/opened``.
        case opened = 4
        /// ``ContinuationFrame/failed(_:)``.
        case failed = 5
        /// ``ContinuationFrame/continued(madeCurrent:)``.
        case continued = 6
        /// ``ContinuationFrame/streams(madeCurrent:)``.
        case streams = 7
    }

    /// The header's size: kind and length.
    public static let headerSize = 5
    /// The largest payload: Nearby's largest data frame, 256 KiB.
    public static let maximumPayload = 1 << 18
    /// The most one data frame carries when this side writes (a stream's write is cut into these).
    public static let writeChunk = 1 << 16

    /// The frame's kind.
    public var kind: Kind {
        switch self {
        case .data: .data
        case .finished: .finished
        case .opened: .opened
        case .failed: .failed
        case .continued: .continued
        case .streams: .streams
        }
    }

    /// The frame's payload.
    var payload: [UInt8] {
        switch self {
        case .data(let bytes): bytes
        case .finished, .opened: []
        case .failed(let reason): Array(reason.utf8.prefix(4096))
        case .continued(let time), .streams(let time): Self.bigEndian(time.bitPattern)
        }
    }

    /// The frame on the wire.
    public func encoded() -> [UInt8] {
        let payload = self.payload
        return [kind.rawValue] + Self.bigEndian(UInt32(payload.count)) + payload
    }

    /// The length in a header (its bytes 1 to 4), or an error when the kind is unknown or the
    /// length over ``maximumPayload``.
    static func payloadLength(_ header: ArraySlice<UInt8>) throws(HandoffError) -> (Kind, Int) {
        let bytes = Array(header)
        guard let kind = Kind(rawValue: bytes[0]) else { throw .malformed("a stream frame of unknown kind \(bytes[0])") }
        let length = bytes[1...4].reduce(0) { $0 << 8 | Int($1) }
        guard length <= maximumPayload else { throw .malformed("a stream frame of \(length) bytes (at most \(maximumPayload))") }
        return (kind, length)
    }

    /// The frame of `kind` with `payload`.
    static func decode(_ kind: Kind, _ payload: [UInt8]) throws(HandoffError) -> ContinuationFrame {
        switch kind {
        case .data: return .data(payload)
        case .finished: return .finished
        case .opened: return .opened
        case .failed: return .failed(String(decoding: payload, as: UTF8.self))
        case .continued, .streams:
            guard payload.count == 8 else { throw .malformed("a \(kind) frame of \(payload.count) bytes (8)") }
            let time = Double(bitPattern: payload.reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
            return kind == .continued ? .continued(madeCurrent: time) : .streams(madeCurrent: time)
        }
    }

    private static func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        (0..<(T.bitWidth / 8)).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }
}
