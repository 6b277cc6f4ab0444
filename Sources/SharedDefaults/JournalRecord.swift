import CZlib
import OrderedCollections
import PropertyLists

/// One change in a suite's journal: a key set, a key removed, or the whole domain replaced.
///
/// On disk (little-endian): magic `DFJ1` (4 bytes), payload length (4), CRC-32 of the payload
/// (4), then the payload: a binary property list `[operation, key, value]`. Each record is
/// written by one `write` to a file opened `O_APPEND`, so records of concurrent writers never
/// interleave; the header lets a reader tell a complete record from one cut short by a writer
/// killed in the middle of its `write`, and find the next record after it.
enum JournalRecord: Sendable, Equatable {
    case set(String, PropertyList)
    case remove(String)
    case replaceAll(OrderedDictionary<String, PropertyList>)

    static let magic: [UInt8] = Array("DFJ1".utf8)
    static let headerSize = 12
    /// Larger records are refused when written and taken as damage when read: a journal is not
    /// for bulk data, and a reader must never allocate what a damaged length says.
    static let maximumPayload = 16 << 20

    /// The record's bytes, header included.
    func encoded() -> [UInt8] {
        let payload: PropertyList = switch self {
        case .set(let key, let value): .array([.integer(0), .string(key), value])
        case .remove(let key): .array([.integer(1), .string(key)])
        case .replaceAll(let values): .array([.integer(2), .string(""), .dictionary(values)])
        }
        let body = BinaryPropertyListWriter().write(payload)
        var out = Self.magic
        out.reserveCapacity(Self.headerSize + body.count)
        Self.appendLittleEndian(UInt32(body.count), to: &out)
        Self.appendLittleEndian(Self.checksum(body[...]), to: &out)
        out += body
        return out
    }

    /// The key the record changes (`nil`: every key).
    var key: String? {
        switch self {
        case .set(let key, _), .remove(let key): key
        case .replaceAll: nil
        }
    }

    /// Applies the record to `values`.
    func apply(to values: inout OrderedDictionary<String, PropertyList>) {
        switch self {
        case .set(let key, let value): values[key] = value
        case .remove(let key): values[key] = nil
        case .replaceAll(let all): values = all
        }
    }

    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, UInt32($0.count))) }
    }

    static func appendLittleEndian(_ value: UInt32, to out: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    static func littleEndian(_ bytes: ArraySlice<UInt8>, at index: Int) -> UInt32 {
        var value: UInt32 = 0
        for i in 0..<4 { value |= UInt32(bytes[index + i]) << UInt32(8 * i) }
        return value
    }

    /// What ``decode(_:from:)`` found at one position.
    enum Scan {
        /// A complete, intact record and the position after it.
        case record(JournalRecord, next: Int)
        /// Bytes that are no record (a torn or damaged one): resume at `next`, the start of the
        /// next intact record.
        case damaged(next: Int)
        /// The bytes end before the record does: it is being written, or was cut short at the
        /// end of the file. Wait here.
        case incomplete
    }

    /// Reads the record at `start` of `bytes`. A record that claims to run past the end is
    /// incomplete unless an intact record starts after it, in which case it was cut short and
    /// is skipped (appends are serialized, so nothing follows a record still being written).
    static func decode(_ bytes: ArraySlice<UInt8>, from start: Int) -> Scan {
        let end = bytes.endIndex
        let shown = min(4, end - start)
        guard bytes[start..<start + shown].elementsEqual(magic.prefix(shown)) else { return .damaged(next: candidate(in: bytes, after: start)) }
        guard end - start >= headerSize else { return intactRecord(in: bytes, after: start).map { .damaged(next: $0) } ?? .incomplete }
        guard bytes[start..<start + 4].elementsEqual(magic) else { return .damaged(next: candidate(in: bytes, after: start)) }
        let length = Int(littleEndian(bytes, at: start + 4))
        guard length <= maximumPayload else { return .damaged(next: candidate(in: bytes, after: start)) }
        let bodyStart = start + headerSize
        guard end - bodyStart >= length else {
            return intactRecord(in: bytes, after: start).map { .damaged(next: $0) } ?? .incomplete
        }
        let body = bytes[bodyStart..<bodyStart + length]
        guard checksum(body) == littleEndian(bytes, at: start + 8), let record = parse(Array(body)) else {
            return .damaged(next: candidate(in: bytes, after: start))
        }
        return .record(record, next: bodyStart + length)
    }

    /// The first position after `start` where a record may begin: the magic, or as much of it as
    /// the bytes hold before they end (a record still being written); the end when none.
    static func candidate(in bytes: ArraySlice<UInt8>, after start: Int) -> Int {
        var i = start + 1
        while i < bytes.endIndex {
            let available = min(4, bytes.endIndex - i)
            if bytes[i..<i + available].elementsEqual(magic.prefix(available)) { return i }
            i += 1
        }
        return bytes.endIndex
    }

    /// The start of the first intact record after `start`, if any.
    static func intactRecord(in bytes: ArraySlice<UInt8>, after start: Int) -> Int? {
        var i = start + 1
        while i + headerSize <= bytes.endIndex {
            if bytes[i] == magic[0], bytes[i + 1] == magic[1], bytes[i + 2] == magic[2], bytes[i + 3] == magic[3] {
                let length = Int(littleEndian(bytes, at: i + 4))
                let bodyStart = i + headerSize
                if length <= maximumPayload, bytes.endIndex - bodyStart >= length,
                   checksum(bytes[bodyStart..<bodyStart + length]) == littleEndian(bytes, at: i + 8) {
                    return i
                }
            }
            i += 1
        }
        return nil
    }

    private static func parse(_ body: [UInt8]) -> JournalRecord? {
        guard case .array(let parts)? = try? PropertyListReader.value(ofBinary: body), parts.count >= 2,
              case .integer(let operation) = parts[0], case .string(let key) = parts[1] else { return nil }
        switch (operation, parts.count) {
        case (0, 3): return .set(key, parts[2])
        case (1, 2): return .remove(key)
        case (2, 3): if case .dictionary(let all) = parts[2] { return .replaceAll(all) } else { return nil }
        default: return nil
        }
    }
}
