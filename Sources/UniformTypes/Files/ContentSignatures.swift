/// The content signatures the engine recognises when a file's name says nothing useful.
///
/// An own table rather than libmagic: loading libmagic's compiled database costs more per process
/// than a whole `uti` query here, its answers are MIME strings that then need mapping to types,
/// and they vary with the installed database version. These signatures are the formats a document
/// exchange meets; anything else falls back to text or data.
enum ContentSignatures {
    struct Signature {
        var identifier: String
        var name: String
        var offset: Int
        var bytes: [UInt8]
    }

    static let table: [Signature] = [
        Signature(identifier: "public.png", name: "PNG signature", offset: 0, bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
        Signature(identifier: "public.jpeg", name: "JPEG SOI marker", offset: 0, bytes: [0xFF, 0xD8, 0xFF]),
        Signature(identifier: "com.compuserve.gif", name: "GIF87a/GIF89a header", offset: 0, bytes: Array("GIF8".utf8)),
        Signature(identifier: "public.tiff", name: "TIFF little-endian header", offset: 0, bytes: [0x49, 0x49, 0x2A, 0x00]),
        Signature(identifier: "public.tiff", name: "TIFF big-endian header", offset: 0, bytes: [0x4D, 0x4D, 0x00, 0x2A]),
        Signature(identifier: "com.adobe.pdf", name: "%PDF- header", offset: 0, bytes: Array("%PDF-".utf8)),
        Signature(identifier: "com.pkware.zip-archive", name: "zip local file header", offset: 0, bytes: [0x50, 0x4B, 0x03, 0x04]),
        Signature(identifier: "org.gnu.gnu-zip-archive", name: "gzip header", offset: 0, bytes: [0x1F, 0x8B]),
        Signature(identifier: "com.apple.binary-property-list", name: "bplist00 header", offset: 0, bytes: Array("bplist00".utf8)),
        Signature(identifier: "public.mpeg-4", name: "ISO media ftyp box", offset: 4, bytes: Array("ftyp".utf8)),
        Signature(identifier: "public.mp3", name: "ID3 tag", offset: 0, bytes: Array("ID3".utf8)),
    ]

    /// The first signature `prefix` starts with.
    static func match(_ prefix: UnsafeRawBufferPointer) -> Signature? {
        table.first { s in
            prefix.count >= s.offset + s.bytes.count && prefix[s.offset..<(s.offset + s.bytes.count)].elementsEqual(s.bytes)
        }
    }

    /// Whether the bytes are valid UTF-8 (a cut-off last character allowed) with no NUL: the text
    /// test without the shared MIME database.
    static func isUTF8Text(_ prefix: UnsafeRawBufferPointer, truncated: Bool) -> Bool {
        guard !prefix.contains(0) else { return false }
        var bytes = prefix[...]
        if truncated {
            // Drop an incomplete last scalar the read may have cut.
            var back = 0
            while back < 3, let last = bytes.last, last & 0xC0 == 0x80 { bytes.removeLast(); back += 1 }
            if let last = bytes.last, last >= 0xC0 { bytes.removeLast() }
        }
        return String(validating: bytes, as: UTF8.self) != nil
    }

    /// xdgmime's fallback when no magic matches: text when the first 32 bytes hold no control
    /// character but tab, line feed and carriage return.
    static func startsLikeText(_ data: UnsafeRawBufferPointer) -> Bool {
        for b in data.prefix(32) where b < 0x20 && b != 0x09 && b != 0x0A && b != 0x0D { return false }
        return true
    }

    /// GIO's `looks_like_text`: no byte is an ASCII control character other than whitespace
    /// (tab, line feed, vertical tab, form feed, carriage return) and backspace.
    static func looksLikeText(_ data: UnsafeRawBufferPointer) -> Bool {
        for b in data where (b < 0x20 || b == 0x7F) && !(b >= 0x08 && b <= 0x0D) { return false }
        return true
    }
}
