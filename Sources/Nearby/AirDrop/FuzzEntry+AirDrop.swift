extension FuzzEntry {
    /// AirDrop's readers of network bytes, chosen by the first byte: 0 an `Ask`, 1 a `Discover`
    /// reply, 2 an upload body (gzip'd or not, then odc cpio) cut where the next byte says. What
    /// decodes must come back equal after encoding; the archive reader must hand on exactly each
    /// entry's declared bytes, never more than the bound, and the same in one piece as in two.
    public static func airDrop(_ input: [UInt8]) {
        guard input.count >= 2 else { return }
        let bytes = Array(input.dropFirst(2))
        switch input[0] % 3 {
        case 0:
            guard let ask = try? AirDropAsk.decode(bytes) else { return }
            precondition(!ask.files.isEmpty && ask.files.count <= SessionMessage.maximumItems, "an Ask with \(ask.files.count) files went through")
            let again = try? AirDropAsk.decode(ask.encoded())
            precondition(again == ask, "an Ask changed in a round trip")
        case 1:
            guard let info = try? AirDropReceiverInfo.decode(bytes) else { return }
            precondition((try? AirDropReceiverInfo.decode(info.discoverReply)) == info, "a Discover reply changed in a round trip")
        default:
            let cut = bytes.isEmpty ? 0 : Int(input[1]) % (bytes.count + 1)
            let whole = archive(bytes, cuts: [])
            let split = archive(bytes, cuts: [cut])
            precondition(whole == split, "an archive read differently when cut at \(cut)")
        }
    }

    /// What the upload reader makes of `bytes` fed in pieces: the entries (name, size, bytes
    /// handed on) and whether it ended in error; checks each entry got exactly its size.
    public static func archive(_ bytes: [UInt8], cuts: [Int]) -> [String] {
        var reader = CPIOReader(maximumEntry: 1 << 20)
        let inflater = bytes.starts(with: [0x1F, 0x8B]) ? try? GzipInflater(limit: 8 << 20) : nil
        var log: [String] = []
        var open: (name: String, size: Int64, got: Int64)?
        func read(_ piece: UnsafeRawBufferPointer) throws {
            try reader.feed(piece) { event in
                switch event {
                case .entry(let name, _, let size):
                    precondition(open == nil && size <= 1 << 20, "an entry began inside another, or past the bound")
                    open = (name, size, 0)
                case .data(let data):
                    open!.got += Int64(data.count)
                    precondition(open!.got <= open!.size, "more bytes than the entry declared")
                case .entryEnd:
                    precondition(open!.got == open!.size, "an entry ended short")
                    log.append("\(open!.name):\(open!.size)")
                    open = nil
                case .trailer: log.append("trailer")
                }
            }
        }
        var start = 0
        do {
            for end in cuts + [bytes.count] where end >= start {
                try bytes[start..<end].withUnsafeBytes { piece in
                    if let inflater { try inflater.feed(piece) { try read($0) } } else { try read(piece) }
                }
                start = end
            }
            try inflater?.finish()
            try reader.finish()
        } catch {
            log.append("error")
        }
        return log
    }

    /// Valid AirDrop inputs for ``airDrop(_:)``, by path (`airdrop/…`).
    public static var airDropSeeds: [(name: String, bytes: [UInt8])] {
        let ask = AirDropAsk(senderName: "Eve's Mac", senderModel: "MacBookPro", senderID: "0123456789ab", bundleID: "com.apple.finder",
                             files: [.init(name: "notes.txt", type: "public.plain-text"), .init(name: "album", type: "public.folder", isDirectory: true)])
        var writer = CPIOWriter()
        let archive = writer.header(name: "notes.txt", size: 5) + Array("hello".utf8) + writer.header(name: "empty", size: 0) + CPIOWriter.trailer
        var gzipped: [UInt8] = []
        if let deflater = try? GzipDeflater() {
            try? archive.withUnsafeBytes { try deflater.feed($0) { gzipped += $0 } }
            try? deflater.finish { gzipped += $0 }
        }
        return [
            ("airdrop/ask", [0, 0] + ask.encoded()),
            ("airdrop/discover-reply", [1, 0] + AirDropReceiverInfo(name: "Bea's desktop", model: "nearby").discoverReply),
            ("airdrop/archive", [2, 80] + archive),
            ("airdrop/archive-gzip", [2, 17] + gzipped),
        ]
    }
}
