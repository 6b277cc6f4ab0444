/// Reads a cpio archive in the POSIX "odc" format (what AirDrop's `Upload` carries, gzip'd) as it
/// streams in, and tells what is in it: each entry's name, mode and size, then its bytes, then its
/// end. It extracts nothing and follows nothing: what a name, a link target or a mode means is the
/// caller's to decide (the AirDrop receiver keeps only regular files' bytes, under safe names).
///
/// Hand-written because libarchive, the library that reads cpio (`libarchive13`), extracts or
/// hands out whole entries with their paths and types, and its reader is a large attack surface for
/// what is a fixed 76-byte header, a name and the bytes.
///
/// odc (POSIX.1 `cpio -H odc`): per entry a header of ASCII octal fields (magic `070707`, dev 6,
/// ino 6, mode 6, uid 6, gid 6, nlink 6, rdev 6, mtime 11, namesize 6, filesize 11), the name
/// with its NUL (`namesize` bytes), then `filesize` bytes; no padding. The entry named
/// `TRAILER!!!` ends the archive.
struct CPIOReader {
    /// What the archive holds, in order.
    enum Event {
        /// An entry begins: its name as stored (display text: never a path to use), mode and size.
        case entry(name: String, mode: UInt32, size: Int64)
        /// The next bytes of the current entry.
        case data(UnsafeRawBufferPointer)
        /// The current entry's bytes are all there.
        case entryEnd
        /// The trailer: the archive is complete.
        case trailer
    }

    /// Why the archive is refused.
    enum Failure: PeerMistake, Equatable {
        case notODC(offset: Int64)
        case badField(String, offset: Int64)
        case nameTooLong(Int, offset: Int64)
        case tooLarge(Int64, offset: Int64)
        case afterTrailer
        case truncated

        var description: String {
            switch self {
            case .notODC(let offset): "cpio: no odc header (070707) at byte \(offset)"
            case .badField(let field, let offset): "cpio: the header at byte \(offset) has a \(field) that is not octal"
            case .nameTooLong(let size, let offset): "cpio: the entry at byte \(offset) has a name of \(size) bytes (at most \(CPIOReader.maximumName))"
            case .tooLarge(let size, let offset): "cpio: the entry at byte \(offset) is \(size) bytes, more than is taken"
            case .afterTrailer: "cpio: bytes after the trailer"
            case .truncated: "cpio: the archive ends before its trailer"
            }
        }
    }

    /// The longest name taken (with its NUL), as PATH_MAX.
    static let maximumName = 4096
    static let headerSize = 76

    /// The largest entry taken.
    let maximumEntry: Int64
    private var state = State.header
    private var pending: [UInt8] = []
    /// Bytes of the archive read so far.
    private(set) var offset: Int64 = 0
    private var entryStart: Int64 = 0
    private var nameSize = 0
    private var fileSize: Int64 = 0
    private var mode: UInt32 = 0

    private enum State { case header, name, data(remaining: Int64), done }

    /// A reader that refuses entries over `maximumEntry` bytes.
    init(maximumEntry: Int64) { self.maximumEntry = maximumEntry }

    /// Whether the trailer was read.
    var isComplete: Bool { if case .done = state { true } else { false } }

    /// Reads the next bytes of the archive, telling `handle` what they hold.
    mutating func feed(_ input: UnsafeRawBufferPointer, _ handle: (Event) throws -> Void) throws {
        var rest = input[...]
        while !rest.isEmpty {
            switch state {
            case .done:
                // tar and cpio writers pad the archive to a block with zeros.
                guard rest.allSatisfy({ $0 == 0 }) else { throw Failure.afterTrailer }
                offset += Int64(rest.count)
                return
            case .header:
                let need = Self.headerSize - pending.count
                let take = min(need, rest.count)
                pending += rest.prefix(take)
                rest = rest.dropFirst(take)
                offset += Int64(take)
                guard pending.count == Self.headerSize else { continue }
                try readHeader()
                pending.removeAll(keepingCapacity: true)
                state = .name
            case .name:
                let need = nameSize - pending.count
                let take = min(need, rest.count)
                pending += rest.prefix(take)
                rest = rest.dropFirst(take)
                offset += Int64(take)
                guard pending.count == nameSize else { continue }
                // The stored name without its NUL; anything after a NUL inside it is ignored.
                let bytes = pending.prefix { $0 != 0 }
                let name = String(decoding: bytes, as: UTF8.self)
                pending.removeAll(keepingCapacity: true)
                if name == "TRAILER!!!" {
                    state = .done
                    try handle(.trailer)
                    continue
                }
                try handle(.entry(name: name, mode: mode, size: fileSize))
                if fileSize == 0 {
                    try handle(.entryEnd)
                    state = .header
                } else {
                    state = .data(remaining: fileSize)
                }
            case .data(let remaining):
                let take = Int(min(Int64(rest.count), remaining))
                try handle(.data(UnsafeRawBufferPointer(rebasing: rest.prefix(take))))
                rest = rest.dropFirst(take)
                offset += Int64(take)
                if remaining - Int64(take) == 0 {
                    try handle(.entryEnd)
                    state = .header
                } else {
                    state = .data(remaining: remaining - Int64(take))
                }
            }
        }
    }

    /// Checks that the archive ended where it may: after its trailer.
    func finish() throws {
        guard isComplete else { throw Failure.truncated }
    }

    private mutating func readHeader() throws {
        entryStart = offset - Int64(Self.headerSize)
        guard pending.prefix(6).elementsEqual("070707".utf8) else { throw Failure.notODC(offset: entryStart) }
        mode = UInt32(try octal(18..<24, "mode"))
        let name = Int(try octal(59..<65, "namesize"))
        fileSize = try octal(65..<76, "filesize")
        guard name >= 1, name <= Self.maximumName else { throw Failure.nameTooLong(name, offset: entryStart) }
        guard fileSize <= maximumEntry else { throw Failure.tooLarge(fileSize, offset: entryStart) }
        nameSize = name
        // The other fields are read only to be checked: a header of garbage is refused whole.
        for (range, field) in [(6..<12, "dev"), (12..<18, "ino"), (24..<30, "uid"), (30..<36, "gid"), (36..<42, "nlink"), (42..<48, "rdev"), (48..<59, "mtime")] {
            _ = try octal(range, field)
        }
    }

    private func octal(_ range: Range<Int>, _ field: String) throws -> Int64 {
        var value: Int64 = 0
        for byte in pending[range] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "7") else { throw Failure.badField(field, offset: entryStart) }
            value = value * 8 + Int64(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
