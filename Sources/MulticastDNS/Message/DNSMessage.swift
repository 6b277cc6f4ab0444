/// A DNS message as Multicast DNS uses it (RFC 1035 §4, RFC 6762 §18): a header, questions, and
/// answer, authority and additional records.
///
/// ``init(parsing:)`` reads bytes from the network and is total: any input gives a message or a
/// ``DNSMessageError`` naming the offset, never a trap, and its work is bounded by the input's
/// length. ``encoded()`` writes with name compression.
public struct DNSMessage: Sendable, Hashable {
    /// The query identifier: 0 in Multicast DNS, the querier's in a legacy unicast answer.
    public var id: UInt16
    /// The flags word (QR, AA, TC…, opcode and response code included).
    public var flags: Flags
    /// The questions.
    public var questions: [DNSQuestion]
    /// The answers (in a query: the known answers, RFC 6762 §7.1).
    public var answers: [DNSRecord]
    /// The authority records (in a probe: the records it proposes, §8.2).
    public var authorities: [DNSRecord]
    /// The additional records.
    public var additionals: [DNSRecord]

    /// A message of these parts.
    public init(id: UInt16 = 0, flags: Flags = [], questions: [DNSQuestion] = [], answers: [DNSRecord] = [],
                authorities: [DNSRecord] = [], additionals: [DNSRecord] = []) {
        self.id = id
        self.flags = flags
        self.questions = questions
        self.answers = answers
        self.authorities = authorities
        self.additionals = additionals
    }

    /// Whether it is a response (QR set).
    public var isResponse: Bool { flags.contains(.response) }
    /// The opcode (0 for a standard query; Multicast DNS ignores messages with any other).
    public var opcode: UInt8 { UInt8((flags.rawValue >> 11) & 0xF) }
    /// The response code (Multicast DNS ignores messages with any other than 0).
    public var responseCode: UInt8 { UInt8(flags.rawValue & 0xF) }

    // MARK: Reading

    /// The message in `bytes`. Bytes after the last record are ignored (some stacks pad).
    /// Throws a ``DNSMessageError`` with the offset where the bytes stop making sense.
    public init(parsing bytes: [UInt8]) throws(DNSMessageError) {
        var reader = MessageReader(bytes)
        guard bytes.count >= 12 else { throw .truncated(.header, offset: 0, needed: 12) }
        id = try reader.uint16(.header)
        flags = Flags(rawValue: try reader.uint16(.header))
        let questionCount = Int(try reader.uint16(.header))
        let answerCount = Int(try reader.uint16(.header))
        let authorityCount = Int(try reader.uint16(.header))
        let additionalCount = Int(try reader.uint16(.header))
        // The smallest question is 5 bytes (root name, type, class), the smallest record 11.
        if questionCount * 5 > reader.remaining {
            throw .countExceedsMessage(.question, count: questionCount, offset: reader.offset)
        }
        questions = []
        questions.reserveCapacity(questionCount)
        for _ in 0..<questionCount {
            let name = try reader.name()
            let type = DNSRecordType(rawValue: try reader.uint16(.question))
            let classField = try reader.uint16(.question)
            questions.append(DNSQuestion(name: name, type: type, recordClass: DNSClass(rawValue: classField),
                                         unicastResponse: classField & 0x8000 != 0))
        }
        answers = try Self.records(&reader, answerCount, .answer)
        authorities = try Self.records(&reader, authorityCount, .authority)
        additionals = try Self.records(&reader, additionalCount, .additional)
    }

    private static func records(_ reader: inout MessageReader, _ count: Int, _ section: DNSMessageError.Section) throws(DNSMessageError) -> [DNSRecord] {
        if count * 11 > reader.remaining { throw .countExceedsMessage(section, count: count, offset: reader.offset) }
        var records: [DNSRecord] = []
        records.reserveCapacity(count)
        for _ in 0..<count { records.append(try record(&reader)) }
        return records
    }

    private static func record(_ reader: inout MessageReader) throws(DNSMessageError) -> DNSRecord {
        let name = try reader.name()
        let type = DNSRecordType(rawValue: try reader.uint16(.record))
        let classField = try reader.uint16(.record)
        let ttl = try reader.uint32(.record)
        let length = Int(try reader.uint16(.record))
        let start = reader.offset
        guard length <= reader.remaining else { throw .truncated(.recordData, offset: start, needed: length) }
        let end = start + length
        let data = try recordData(type, &reader, start: start, end: end)
        reader.offset = end
        return DNSRecord(name: name, data: data, ttl: ttl, cacheFlush: classField & 0x8000 != 0,
                         recordClass: DNSClass(rawValue: classField))
    }

    /// The data of a `type` record in `start..<end`; anything it does not fill exactly is an error.
    private static func recordData(_ type: DNSRecordType, _ reader: inout MessageReader, start: Int, end: Int) throws(DNSMessageError) -> DNSRecordData {
        let length = end - start
        func expect(_ used: Int) throws(DNSMessageError) {
            if used != length { throw .recordDataLength(type: type, offset: start, declared: length, used: used) }
        }
        switch type {
        case .a, .aaaa:
            try expect(type == .a ? 4 : 16)
            guard let address = IPAddress(bytes: try reader.take(length, .recordData)) else {
                throw .recordDataLength(type: type, offset: start, declared: length, used: length)
            }
            return .address(address)
        case .ptr:
            let (name, next) = try reader.name(at: start)
            try expect(next - start)
            return .ptr(name)
        case .srv:
            guard length >= 7 else { throw .recordDataLength(type: type, offset: start, declared: length, used: 7) }
            let priority = try reader.uint16(.recordData), weight = try reader.uint16(.recordData), port = try reader.uint16(.recordData)
            let (target, next) = try reader.name(at: reader.offset)
            try expect(next - start)
            return .srv(priority: priority, weight: weight, port: port, target: target)
        case .txt:
            var strings: [[UInt8]] = []
            while reader.offset < end {
                let count = Int(try reader.uint8(.characterString))
                if reader.offset + count > end {
                    throw .recordDataLength(type: type, offset: start, declared: length, used: reader.offset + count - start)
                }
                strings.append(try reader.take(count, .characterString))
            }
            return .txt(TXTRecord(unchecked: strings))
        case .nsec:
            let (next, after) = try reader.name(at: start)
            if after > end { throw .recordDataLength(type: type, offset: start, declared: length, used: after - start) }
            reader.offset = after
            return .nsec(nextName: next, typeBitmaps: try reader.take(end - after, .recordData))
        default:
            return .other(type: type, bytes: try reader.take(length, .recordData))
        }
    }

    // MARK: Writing

    /// The message in wire form, names compressed. Total like the reader: a record whose data
    /// would not fit its 16-bit length (only raw ``DNSRecordData/other(type:bytes:)`` data or a
    /// TXT record of hundreds of strings can be that large) is left out, and the header counts
    /// what was written.
    public func encoded() -> [UInt8] {
        var writer = MessageWriter()
        writer.uint16(id)
        writer.uint16(flags.rawValue)
        for _ in 0..<4 { writer.uint16(0) }
        var written = 0
        for question in questions.prefix(0xFFFF) {
            writer.name(question.name)
            writer.uint16(question.type.rawValue)
            writer.uint16(question.recordClass.rawValue | (question.unicastResponse ? 0x8000 : 0))
            written += 1
        }
        writer.patch(UInt16(written), at: 4)
        for (index, section) in [answers, authorities, additionals].enumerated() {
            var count: UInt16 = 0
            for record in section where count < 0xFFFF {
                if Self.write(record, into: &writer) { count += 1 }
            }
            writer.patch(count, at: 6 + 2 * index)
        }
        return writer.bytes
    }

    /// Writes `record`; `false` (and nothing written) when its data is over 65535 bytes.
    private static func write(_ record: DNSRecord, into writer: inout MessageWriter) -> Bool {
        let start = writer.bytes.count
        writer.name(record.name)
        writer.uint16(record.type.rawValue)
        writer.uint16(record.recordClass.rawValue | (record.cacheFlush ? 0x8000 : 0))
        writer.uint32(record.ttl)
        let lengthOffset = writer.bytes.count
        writer.uint16(0)
        let dataStart = writer.bytes.count
        switch record.data {
        case .address(let address):
            writer.append(address.bytes)
        case .ptr(let name):
            writer.name(name)
        case .srv(let priority, let weight, let port, let target):
            writer.uint16(priority)
            writer.uint16(weight)
            writer.uint16(port)
            writer.name(target)
        case .txt(let text):
            if text.strings.isEmpty { writer.uint8(0) }
            for string in text.strings {
                writer.uint8(UInt8(string.count))
                writer.append(string)
            }
        case .nsec(let next, let bitmaps):
            writer.name(next)
            writer.append(bitmaps)
        case .other(_, let bytes):
            writer.append(bytes)
        }
        let length = writer.bytes.count - dataStart
        guard length <= 0xFFFF else {
            writer.truncate(to: start)
            return false
        }
        writer.patch(UInt16(length), at: lengthOffset)
        return true
    }
}
