import Hashing
import SystemCalls

/// Writes CoreFoundation's `bplist00` binary format as CoreFoundation does: objects in
/// depth-first order (a dictionary's keys before its values), strings, numbers, dates, data and
/// booleans stored once however often they occur, the smallest integer widths, and offset and
/// reference sizes just wide enough for the file.
///
/// ```swift
/// let bytes = BinaryPropertyListWriter().write(value)
/// ```
public struct BinaryPropertyListWriter: Sendable {
    /// Whether dictionary keys are written sorted, or in the order the value holds them (the default).
    public var sortsKeys: Bool

    /// Creates a writer.
    public init(sortsKeys: Bool = false) { self.sortsKeys = sortsKeys }

    /// The scalar values that are stored once (CF uniques by equality; so do we, by exact value:
    /// strings by their bytes, ``ExactString``, so "\u{E9}" and "e\u{301}" stay two objects).
    private enum UniqueKey: Hashable {
        case string(ExactString), integer(Int64), unsigned(UInt64), real(UInt64), bool(Bool), date(UInt64), data([UInt8]), uid(UInt64)
    }

    /// An object of the table ready to encode, with references to other objects by index.
    /// `package`: KeyedArchives' archive writer builds its own table by CF's keyed-archive rules
    /// and encodes it with ``encode(_:root:capacity:)``.
    package enum Flat {
        case scalar(PropertyList)
        case array([Int])
        case dictionary(keys: [Int], values: [Int])
    }

    /// The complete file for `value`.
    public func write(_ value: PropertyList) -> [UInt8] {
        var objects: [Flat] = []
        var unique: [UniqueKey: Int] = [:]

        func flatten(_ v: PropertyList) -> Int {
            let key: UniqueKey?
            switch v {
            case .string(let s): key = .string(ExactString(s))
            case .integer(let i): key = .integer(i)
            case .unsignedInteger(let u): key = .unsigned(u)
            case .real(let r): key = .real(r.bitPattern)
            case .bool(let b): key = .bool(b)
            case .date(let d): key = .date(d.secondsSinceReferenceDate.bitPattern)
            case .data(let d): key = .data(d)
            case .uid(let u): key = .uid(u)
            case .array, .dictionary: key = nil
            }
            if let key, let existing = unique[key] { return existing }
            let index = objects.count
            switch v {
            case .array(let elements):
                objects.append(.array([]))
                let refs = elements.map(flatten)
                objects[index] = .array(refs)
            case .dictionary(let entries):
                objects.append(.dictionary(keys: [], values: []))
                let keys = sortsKeys ? entries.keys.sorted(by: PropertyListKeyOrder.precedes) : Array(entries.keys)
                let keyRefs = keys.map { flatten(.string($0)) }
                let valueRefs = keys.map { flatten(entries[$0]!) }
                objects[index] = .dictionary(keys: keyRefs, values: valueRefs)
            default:
                objects.append(.scalar(v))
                unique[key!] = index
            }
            return index
        }

        _ = flatten(value)
        return Self.encode(objects, root: 0)
    }

    /// The file for an object table: the header, each object, the offset table and the trailer
    /// naming `root` as the top object.
    package static func encode(_ objects: [Flat], root: Int, capacity: Int = 0) -> [UInt8] {
        let refSize = byteWidth(UInt64(objects.count))
        var out: [UInt8] = []
        out.reserveCapacity(capacity)
        out.append(contentsOf: "bplist00".utf8)
        var offsets: [Int] = []
        offsets.reserveCapacity(objects.count)
        for object in objects {
            offsets.append(out.count)
            switch object {
            case .scalar(let v): appendScalar(v, to: &out)
            case .array(let refs):
                appendMarker(0xA0, count: refs.count, to: &out)
                for r in refs { appendBigEndian(UInt64(r), width: refSize, to: &out) }
            case .dictionary(let keys, let values):
                appendMarker(0xD0, count: keys.count, to: &out)
                for r in keys { appendBigEndian(UInt64(r), width: refSize, to: &out) }
                for r in values { appendBigEndian(UInt64(r), width: refSize, to: &out) }
            }
        }
        let tableOffset = out.count
        let offsetSize = byteWidth(UInt64(tableOffset))
        for o in offsets { appendBigEndian(UInt64(o), width: offsetSize, to: &out) }
        out.append(contentsOf: [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)])
        appendBigEndian(UInt64(objects.count), width: 8, to: &out)
        appendBigEndian(UInt64(root), width: 8, to: &out)
        appendBigEndian(UInt64(tableOffset), width: 8, to: &out)
        return out
    }

    // The encoding helpers below are `package`-visible so that KeyedArchives' archive writer, which
    // lays out its object table by CF's keyed-archive rules, encodes each object exactly as this
    // writer does instead of keeping a second copy.

    /// The fewest of 1, 2, 4 or 8 bytes that hold `value` (CF's rule for offsets and references).
    package static func byteWidth(_ value: UInt64) -> Int {
        value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
    }

    package static func appendBigEndian(_ value: UInt64, width: Int, to out: inout [UInt8]) {
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) {
            out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    /// A marker with its count: in the low nibble below 15, else followed by an integer object.
    package static func appendMarker(_ marker: UInt8, count: Int, to out: inout [UInt8]) {
        if count < 15 {
            out.append(marker | UInt8(count))
        } else {
            out.append(marker | 0x0F)
            appendUnsigned(UInt64(count), to: &out)
        }
    }

    package static func appendUnsigned(_ value: UInt64, to out: inout [UInt8]) {
        let width = byteWidth(value)
        out.append(0x10 | UInt8(width.trailingZeroBitCount))
        appendBigEndian(value, width: width, to: &out)
    }

    package static func appendScalar(_ value: PropertyList, to out: inout [UInt8]) {
        switch value {
        case .bool(let b): out.append(b ? 0x09 : 0x08)
        case .integer(let i):
            if i >= 0 { appendUnsigned(UInt64(i), to: &out) }
            else { out.append(0x13); appendBigEndian(UInt64(bitPattern: i), width: 8, to: &out) }
        case .unsignedInteger(let u):
            // CF writes integers above Int64.max as 16 bytes whose high half is zero.
            out.append(0x14)
            appendBigEndian(0, width: 8, to: &out)
            appendBigEndian(u, width: 8, to: &out)
        case .real(let r):
            out.append(0x23)
            appendBigEndian(r.bitPattern, width: 8, to: &out)
        case .date(let d):
            out.append(0x33)
            appendBigEndian(d.secondsSinceReferenceDate.bitPattern, width: 8, to: &out)
        case .data(let bytes):
            appendMarker(0x40, count: bytes.count, to: &out)
            out.append(contentsOf: bytes)
        case .string(let s):
            if s.utf8.allSatisfy({ $0 < 0x80 }) {
                appendMarker(0x50, count: s.utf8.count, to: &out)
                out.append(contentsOf: s.utf8)
            } else {
                appendMarker(0x60, count: s.utf16.count, to: &out)
                for unit in s.utf16 { out.append(UInt8(unit >> 8)); out.append(UInt8(unit & 0xFF)) }
            }
        case .uid(let u):
            let width = byteWidth(u)
            out.append(0x80 | UInt8(width - 1))
            appendBigEndian(u, width: width, to: &out)
        case .array, .dictionary:
            preconditionFailure("containers are flattened before encoding")
        }
    }
}
