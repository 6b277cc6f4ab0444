/// Reads a DNS message from untrusted bytes: every read is bounds-checked and fails with the
/// offset instead of trapping, names are followed through compression pointers only backwards
/// (so they always end), and counts are checked against the bytes left before anything is
/// reserved for them. What ``DNSMessage/init(parsing:)`` and the fuzz target rely on.
struct MessageReader {
    let bytes: [UInt8]
    /// Where the next read starts.
    var offset = 0

    /// The most compression pointers one name may follow (a name has at most 127 labels).
    static let maximumPointers = 127

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var remaining: Int { bytes.count - offset }

    mutating func uint8(_ part: DNSMessageError.Part) throws(DNSMessageError) -> UInt8 {
        guard offset < bytes.count else { throw .truncated(part, offset: offset, needed: 1) }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint16(_ part: DNSMessageError.Part) throws(DNSMessageError) -> UInt16 {
        guard offset + 2 <= bytes.count else { throw .truncated(part, offset: offset, needed: 2) }
        defer { offset += 2 }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    mutating func uint32(_ part: DNSMessageError.Part) throws(DNSMessageError) -> UInt32 {
        let high = try uint16(part), low = try uint16(part)
        return UInt32(high) << 16 | UInt32(low)
    }

    mutating func take(_ count: Int, _ part: DNSMessageError.Part) throws(DNSMessageError) -> [UInt8] {
        guard count >= 0, offset + count <= bytes.count else { throw .truncated(part, offset: offset, needed: count) }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    /// Reads the name at ``offset`` and moves past it (past its first pointer, if it has one).
    mutating func name() throws(DNSMessageError) -> DNSName {
        let (name, end) = try name(at: offset)
        offset = end
        return name
    }

    /// The name starting at `start`, and the offset just after it in place. A pointer must point
    /// before the stretch of labels it ends (the name's start, or the previous pointer's target):
    /// each jump then lands strictly earlier, so every name ends, and a pointer into its own
    /// stretch is a loop. A name may follow at most ``maximumPointers`` pointers: real encoders
    /// use one, and a chain of pointers to pointers would otherwise cost a hostile packet's every
    /// name a walk through the whole packet.
    func name(at start: Int) throws(DNSMessageError) -> (DNSName, end: Int) {
        var labels: [[UInt8]] = []
        var position = start
        var stretchStart = start
        var end: Int?
        var length = 1
        var pointers = 0
        while true {
            guard position < bytes.count else { throw .truncated(.label, offset: position, needed: 1) }
            let byte = bytes[position]
            switch byte >> 6 {
            case 0:
                if byte == 0 { return (DNSName(unchecked: labels), end ?? position + 1) }
                let count = Int(byte)
                guard position + 1 + count <= bytes.count else { throw .truncated(.label, offset: position, needed: 1 + count) }
                length += 1 + count
                guard length <= 255 else { throw .nameTooLong(offset: start, length: length) }
                labels.append(Array(bytes[(position + 1)...(position + count)]))
                position += 1 + count
            case 3:
                guard position + 2 <= bytes.count else { throw .truncated(.pointer, offset: position, needed: 2) }
                let target = Int(byte & 0x3F) << 8 | Int(bytes[position + 1])
                if target > position { throw .forwardPointer(offset: position, target: target) }
                if target >= stretchStart { throw .compressionLoop(offset: position, target: target) }
                pointers += 1
                if pointers > Self.maximumPointers { throw .tooManyPointers(offset: start) }
                if end == nil { end = position + 2 }
                stretchStart = target
                position = target
            default:
                throw .invalidLabelLength(offset: position, byte: byte)
            }
        }
    }
}
