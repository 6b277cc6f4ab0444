import Handoff
import NIOCore
import NIOEmbedded

/// What the libFuzzer targets of `Fuzz/` call (docs/fuzzing.md): the three places where Nearby
/// reads bytes from the network, reached the way the network reaches them. SPI, so that the fuzz
/// package can drive internal types without widening the API.
///
/// A decode error is an expected outcome and is ignored; what fails is a broken promise, which
/// traps so that libFuzzer records it: a frame the decoder split wrongly or let through too large,
/// or a message that decodes but does not come back equal after encoding and decoding again.
@_spi(Fuzzing) public enum FuzzEntry {
    /// Splits `bytes` into a TLS stream and the points where it is cut (``frameInput(cuts:stream:)``
    /// writes that layout), then feeds the stream in those slices to a real ``FrameDecoder`` in an
    /// `EmbeddedChannel`, as a connection's pipeline does, and ends it as a closed connection does.
    /// Each frame must be the stream's next bytes, encoded again (a data frame's payload may come
    /// in pieces, each the stream's next bytes), and no larger than its kind allows; when the
    /// decoder stops, what is left must be a frame it had to refuse or a message not yet complete. Every frame is decoded as a session message and as a pairing message.
    public static func frames(_ bytes: [UInt8]) {
        guard let input = splitFrameInput(bytes) else { return }
        let (cuts, stream) = input
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(FrameDecoder()))
        var offset = 0
        var dataLeft = 0
        func drain() {
            while let frame = try? channel.readInbound(as: Frame.self) {
                offset = check(frame, at: offset, dataLeft: &dataLeft, in: stream)
                if frame.kind == .message { sessionMessage(Array(frame.payload.readableBytesView)) }
                pairingMessage(frame)
            }
        }
        var refused = false
        var start = stream.startIndex
        for end in cuts + [stream.endIndex] where end > start {
            do { try channel.writeInbound(ByteBuffer(bytes: stream[start..<end])) } catch {
                precondition(error is FrameDecoder.Invalid, "the decoder failed with \(error)")
                refused = true
            }
            drain()
            if refused { break }
            start = end
        }
        // Closing runs decodeLast, as the peer's end of stream does; left-over bytes are reported
        // as an error, which is expected here. The loop must run once more: EmbeddedChannel removes
        // the handlers, which breaks the channel's cycle with its pipeline, in a task it schedules.
        _ = try? channel.close().wait()
        channel.embeddedEventLoop.run()
        drain()
        _ = try? channel.throwIfErrorCaught()
        checkRest(of: stream, from: offset, dataLeft: dataLeft, refused: refused)
    }

    /// Decodes `bytes` as a session message; one that decodes must encode to bytes that decode
    /// to an equal message.
    public static func sessionMessage(_ bytes: [UInt8]) {
        guard let message = try? SessionMessage.decode(bytes) else { return }
        if case .ask(_, _, _, _, let items) = message {
            for item in items {
                let safe = ItemName.safe(item.name)
                precondition(ItemName.isSafe(safe) && ItemName.safe(safe) == safe, "an unsafe name: \(safe.debugDescription)")
            }
        }
        let again = try? SessionMessage.decode(message.encoded())
        precondition(again == message, "a session message changed in a round trip: \(message) became \(String(describing: again))")
    }

    /// Decodes `bytes` as the payload of a pairing message frame; one that decodes must encode to
    /// bytes that decode to an equal message.
    public static func pairingMessage(_ bytes: [UInt8]) {
        pairingMessage(Frame(kind: .message, payload: ByteBuffer(bytes: bytes)))
    }

    /// Valid inputs for each target, by path (`nearby-session/…`, `nearby-pairing/…`,
    /// `nearby-frames/…`): every message kind encoded, and whole sessions and pairings as framed
    /// streams, some cut where a header or payload continues. `Fuzz/Sources/NearbySeeds` writes
    /// them into `Fuzz/Seeds`.
    public static var seeds: [(name: String, bytes: [UInt8])] {
        let digest = [UInt8](repeating: 0xA5, count: 32)
        let token = [UInt8](repeating: 0x3C, count: 32)
        let session: [(String, SessionMessage)] = [
            ("ask", .ask(senderName: "Ann's laptop", senderApp: "com.example.sender", targetApp: "com.example.notes",
                         transfer: [UInt8](repeating: 1, count: 16),
                         items: [ItemOffer(name: "notes.txt", type: "public.plain-text", size: 12),
                                 ItemOffer(name: "photo é.png", type: "public.png", size: 300_000)])),
            ("ask-no-target", .ask(senderName: "b", senderApp: "c", targetApp: nil, transfer: [UInt8](repeating: 2, count: 16),
                                   items: [ItemOffer(name: "x", type: "public.data", size: 1 << 40)])),
            ("answer", .answer(accepted: true, reason: nil, token: token, held: [0, 4096])),
            ("answer-declined", .answer(accepted: false, reason: "declined", token: [], held: [])),
            ("upload", .upload(token: token, item: 1, offset: 4096)),
            ("uploaded", .uploaded(item: 1, sha256: digest)),
            ("delivered", .delivered(item: 1, destination: "com.example.notes")),
            ("refused", .refused("not paired")),
            ("asking", .asking),
            ("watch-activities", .watchActivities),
            ("activities", .activities([ActivityOffer(activityType: "com.example.contacts.list", bundleIdentifier: "com.example.contacts",
                                                      title: "Contacts", userInfo: .dictionary(["count": .integer(2)]), madeCurrent: 12.5,
                                                      processIdentifier: 4242).encoded(), [1, 2, 3]])),
            ("continued", .continued(ActivityOffer.Identity(bundleIdentifier: "com.example.contacts", processIdentifier: 4242, madeCurrent: 12.5))),
            ("open-streams", .openStreams(ActivityOffer.Identity(bundleIdentifier: "com.example.contacts", processIdentifier: 4242, madeCurrent: 12.5))),
            ("acknowledged", .acknowledged),
            ("ask-most-items", .ask(senderName: "Ann's laptop", senderApp: "com.example.sender", targetApp: nil,
                                    transfer: [UInt8](repeating: 3, count: 16),
                                    items: (0..<SessionMessage.maximumItems).map { i in
                                        ItemOffer(name: "scan \(i).pdf", type: "com.adobe.pdf", size: Int64(i))
                                    })),
        ]
        let share = [UInt8](repeating: 0x04, count: 65)
        let confirmation = [UInt8](repeating: 0x5A, count: 32)
        let pairing: [(String, PairingMessage)] = [
            ("hello", .hello(name: "Ann's laptop", receivePort: 47_810)),
            ("reply", .reply(name: "Bob's desktop", share: share, receivePort: 47_811)),
            ("confirm", .confirm(share: share, confirmation: confirmation)),
            ("done", .done(paired: true, confirmation: confirmation, reason: nil)),
            ("done-refused", .done(paired: false, confirmation: [], reason: "wrong code")),
            ("compare-hello", .compareHello(name: "Ann's laptop", receivePort: 47_810, commitment: confirmation)),
            ("compare-reply", .compareReply(name: "Bob's desktop", nonce: confirmation, receivePort: 47_811)),
            ("compare-reveal", .compareReveal(nonce: confirmation)),
            ("compare-verdict", .compareVerdict(confirmed: true, reason: nil)),
            ("compare-declined", .compareVerdict(confirmed: false, reason: "the digits did not match on Bob's desktop")),
        ]
        let payload = Array("twelve bytes".utf8)
        let sessionStream = encode([session[0].1.frame, session[2].1.frame, SessionMessage.upload(token: token, item: 0, offset: 0).frame,
                                    Frame(kind: .data, payload: ByteBuffer(bytes: payload.prefix(5))),
                                    Frame(kind: .data, payload: ByteBuffer(bytes: payload.dropFirst(5))),
                                    SessionMessage.uploaded(item: 0, sha256: digest).frame,
                                    SessionMessage.delivered(item: 0, destination: "com.example.notes").frame])
        let pairingStream = encode(pairing.prefix(4).map { $0.1.frame })
        // A data frame of the largest size, between messages: the decoder passes it on in pieces.
        let largest = encode([session[4].1.frame, Frame(kind: .data, payload: ByteBuffer(repeating: 0x61, count: Frame.maximumData)),
                              session[5].1.frame])
        return session.map { ("nearby-session/\($0.0).bplist", $0.1.encoded()) }
            + pairing.map { ("nearby-pairing/\($0.0).bplist", $0.1.encoded()) }
            + [("nearby-frames/session-whole.bin", frameInput(cuts: [], stream: sessionStream)),
               ("nearby-frames/session-cut.bin", frameInput(cuts: [3, 40, sessionStream.count - 2], stream: sessionStream)),
               ("nearby-frames/pairing-cut.bin", frameInput(cuts: [1, 5, 100], stream: pairingStream)),
               ("nearby-frames/largest-data-cut.bin", frameInput(cuts: [60, 70_000, largest.count - 100], stream: largest)),
               ("nearby-frames/ask-most-items-cut.bin",
                frameInput(cuts: [20_000], stream: encode([session.first { $0.0 == "ask-most-items" }!.1.frame])))]
            + localSendSeeds + airDropSeeds
    }

    /// The layout ``frames(_:)`` reads: one byte whose low two bits count the cuts (0 to 3), each
    /// cut as three bytes big-endian (taken modulo the stream's length plus one, then sorted), then
    /// the stream. The cuts come from the input so that libFuzzer explores them too.
    static func frameInput(cuts: [Int], stream: [UInt8]) -> [UInt8] {
        precondition(cuts.count <= 3 && cuts.allSatisfy { (0..<(1 << 24)).contains($0) })
        return [UInt8(cuts.count)] + cuts.flatMap { [UInt8($0 >> 16), UInt8(($0 >> 8) & 0xFF), UInt8($0 & 0xFF)] } + stream
    }

    static func splitFrameInput(_ bytes: [UInt8]) -> (cuts: [Int], stream: ArraySlice<UInt8>)? {
        guard let first = bytes.first else { return nil }
        let count = Int(first & 3), headerSize = 1 + 3 * count
        guard bytes.count >= headerSize else { return nil }
        let stream = bytes[headerSize...]
        let cuts = (0..<count).map { i in
            let at = 1 + 3 * i
            return (Int(bytes[at]) << 16 | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2])) % (stream.count + 1)
        }
        // Indices into the slice, which starts after the header.
        return (cuts.sorted().map { $0 + stream.startIndex }, stream)
    }

    static func encode(_ frames: [Frame]) -> [UInt8] {
        var out = ByteBuffer()
        for frame in frames { FrameEncoder.encode(frame, into: &out) }
        return Array(out.readableBytesView)
    }

    static func pairingMessage(_ frame: Frame) {
        guard let message = try? PairingMessage.decode(frame) else { return }
        let again = try? PairingMessage.decode(message.frame)
        precondition(again == message, "a pairing message changed in a round trip: \(message) became \(String(describing: again))")
    }

    /// Checks that `frame` is the stream's next bytes at `offset` and within its kind's limit: a
    /// message, or an empty data frame, encoded again; a piece of a data frame's payload, those
    /// bytes (after the header, for the first piece). `dataLeft` carries the bytes of the data
    /// frame still to come from one piece to the next. Returns the offset after the frame or piece.
    static func check(_ frame: Frame, at offset: Int, dataLeft: inout Int, in stream: ArraySlice<UInt8>) -> Int {
        let limit = frame.kind.maximumPayload
        precondition(frame.payload.readableBytes <= limit, "a \(frame.kind) frame of \(frame.payload.readableBytes) bytes")
        let start = stream.startIndex + offset
        var skip = 0
        if dataLeft == 0, frame.kind == .data, stream.count - offset >= Frame.headerSize, stream[start] == Frame.Kind.data.rawValue {
            let length = stream[start + 1..<start + Frame.headerSize].reduce(0) { $0 << 8 | Int($1) }
            if length > 0 {
                dataLeft = length
                skip = Frame.headerSize
            }
        }
        if dataLeft > 0 {
            let piece = frame.payload.readableBytes
            precondition(frame.kind == .data && piece > 0 && piece <= dataLeft, "a piece of \(piece) bytes where \(dataLeft) data bytes were due")
            precondition(stream.count - offset - skip >= piece && stream[start + skip..<start + skip + piece].elementsEqual(frame.payload.readableBytesView),
                         "a piece of data that is not the stream's next \(piece) bytes at \(offset + skip)")
            dataLeft -= piece
            return offset + skip + piece
        }
        let encoded = encode([frame])
        precondition(stream.count - offset >= encoded.count && stream[start..<start + encoded.count].elementsEqual(encoded),
                     "a frame that is not the stream's next \(encoded.count) bytes at \(offset)")
        return offset + encoded.count
    }

    /// Checks what the decoder left: a header it had to refuse when it refused, otherwise less
    /// than one whole frame.
    static func checkRest(of stream: ArraySlice<UInt8>, from offset: Int, dataLeft: Int, refused: Bool) {
        let rest = stream.dropFirst(offset)
        if dataLeft > 0 {
            // A data frame's bytes are passed on as they come: none may wait.
            precondition(!refused && rest.isEmpty, "\(rest.count) bytes of a data frame at \(offset) were not delivered")
            return
        }
        var header: (kind: Frame.Kind?, length: Int)?
        if rest.count >= 5 {
            let i = rest.startIndex
            let length = Int(rest[i + 1]) << 24 | Int(rest[i + 2]) << 16 | Int(rest[i + 3]) << 8 | Int(rest[i + 4])
            header = (Frame.Kind(rawValue: rest[i]), length)
        }
        // A `finished` frame with a payload is refused: the oracle once allowed it a data frame's
        // limit and trapped on the decoder's right refusal (Fuzz/Regressions/nearby-frames-finished-with-payload.bin).
        let acceptable = header.map { header in header.kind.map { header.length <= $0.maximumPayload } ?? false }
        if refused {
            precondition(acceptable == false, "the decoder refused an acceptable header at \(offset)")
        } else if let header, acceptable == true {
            precondition(rest.count < 5 + header.length, "a whole frame at \(offset) was not delivered")
        } else {
            precondition(header == nil, "an unacceptable header at \(offset) was not refused")
        }
    }
}
