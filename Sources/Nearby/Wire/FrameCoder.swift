import NIOCore

/// Splits the TLS stream into ``Frame``s, refusing any frame larger than its kind allows before
/// reading its payload: a peer cannot make the receiver buffer more than one frame.
struct FrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = Frame

    /// A frame header the decoder will not accept.
    struct Invalid: Error, CustomStringConvertible {
        var description: String
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard buffer.readableBytes >= 5,
              let kindByte: UInt8 = buffer.getInteger(at: buffer.readerIndex),
              let length: UInt32 = buffer.getInteger(at: buffer.readerIndex + 1) else { return .needMoreData }
        guard let kind = Frame.Kind(rawValue: kindByte) else { throw Invalid(description: "unknown frame kind \(kindByte)") }
        let limit = kind == .message ? Frame.maximumMessage : Frame.maximumData
        guard Int(length) <= limit else { throw Invalid(description: "a \(kind) frame of \(length) bytes (at most \(limit))") }
        guard buffer.readableBytes >= 5 + Int(length) else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: 5)
        let payload = buffer.readSlice(length: Int(length))!
        context.fireChannelRead(wrapInboundOut(Frame(kind: kind, payload: payload)))
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }
}

/// Writes ``Frame``s: the header, then the payload.
struct FrameEncoder: MessageToByteEncoder {
    typealias OutboundIn = Frame

    func encode(data: Frame, out: inout ByteBuffer) throws {
        out.writeInteger(data.kind.rawValue)
        out.writeInteger(UInt32(data.payload.readableBytes))
        var payload = data.payload
        out.writeBuffer(&payload)
    }
}
