/// Why bytes are not a DNS message: each case names the byte offset where reading stopped, so a
/// capture or a fuzzer's input can be looked at in a hex dump.
public enum DNSMessageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The part of a message being read when it ran out.
    public enum Part: String, Sendable, Hashable {
        /// The 12-byte header.
        case header
        /// A question's type and class.
        case question
        /// A record's type, class, TTL and data length.
        case record
        /// A record's data.
        case recordData = "record data"
        /// A label of a name.
        case label
        /// A compression pointer (2 bytes).
        case pointer
        /// A character-string of a TXT record.
        case characterString = "character string"
    }

    /// A message section, as the header counts it.
    public enum Section: String, Sendable, Hashable {
        /// Questions.
        case question
        /// Answers.
        case answer
        /// Authority records.
        case authority
        /// Additional records.
        case additional
    }

    /// The message ends inside `part`, which starts at `offset` and needs `needed` bytes.
    case truncated(Part, offset: Int, needed: Int)
    /// A compression pointer at `offset` leads back into the name it is part of (`target`): the
    /// name would never end.
    case compressionLoop(offset: Int, target: Int)
    /// A compression pointer at `offset` points at or after itself (`target`); RFC 1035 §4.1.4
    /// allows only a prior occurrence.
    case forwardPointer(offset: Int, target: Int)
    /// The name starting at `offset` follows more than 127 compression pointers (pointers to
    /// pointers: no encoder writes them, and each costs a walk through the message).
    case tooManyPointers(offset: Int)
    /// The length byte of a label at `offset` is neither 0–63 nor a pointer (0xC0): a label over 63
    /// bytes, or a label type RFC 6891 retired.
    case invalidLabelLength(offset: Int, byte: UInt8)
    /// The name starting at `offset` is longer than 255 bytes (`length`) once expanded.
    case nameTooLong(offset: Int, length: Int)
    /// The header counts `count` entries in `section`, more than the rest of the message (from
    /// `offset`) could hold.
    case countExceedsMessage(Section, count: Int, offset: Int)
    /// The data of a `type` record at `offset` declares `declared` bytes, but its contents use
    /// `used` (an A record of 5 bytes, a PTR name running past its data).
    case recordDataLength(type: DNSRecordType, offset: Int, declared: Int, used: Int)

    /// One sentence with the offset.
    public var description: String {
        switch self {
        case .truncated(let part, let offset, let needed):
            "the message ends inside a \(part.rawValue) at offset \(offset) (\(needed) bytes needed)"
        case .compressionLoop(let offset, let target):
            "the compression pointer at offset \(offset) to \(target) makes a loop"
        case .forwardPointer(let offset, let target):
            "the compression pointer at offset \(offset) points forward to \(target)"
        case .tooManyPointers(let offset):
            "the name at offset \(offset) follows more than 127 compression pointers"
        case .invalidLabelLength(let offset, let byte):
            "the label length byte 0x\(String(byte, radix: 16)) at offset \(offset) is neither a length up to 63 nor a pointer"
        case .nameTooLong(let offset, let length):
            "the name at offset \(offset) is \(length) bytes long, over 255"
        case .countExceedsMessage(let section, let count, let offset):
            "the header counts \(count) \(section.rawValue) entries, more than the message can hold after offset \(offset)"
        case .recordDataLength(let type, let offset, let declared, let used):
            "the \(type) record data at offset \(offset) declares \(declared) bytes but holds \(used)"
        }
    }
}
