import OrderedCollections

/// Reads CoreFoundation's `bplist00` binary property lists.
///
/// Hand-written because no maintained Swift library reads bplist without Foundation, and
/// Foundation's reader on Linux crashes or hangs on hostile files (see docs/property-lists.md).
/// Every count, length and offset is checked against the bytes actually present before any
/// allocation; each object is decoded once and shared by every reference to it; cycles, depth
/// beyond the limit and reference "bombs" are refused.
struct BinaryPropertyListParser {
    private let bytes: UnsafeRawBufferPointer
    private let options: PropertyListReadOptions
    private var offsetSize = 0
    private var refSize = 0
    private var objectCount = 0
    private var offsetTableStart = 0
    private var decoded: [PropertyList?] = []
    private var expandedCount: [Int] = []
    private var inProgress: [Bool] = []
    private var duplicates: [PropertyListDocument.DuplicateKey] = []

    static let trailerSize = 32

    static func parse(_ bytes: UnsafeRawBufferPointer, options: PropertyListReadOptions)
        throws(PropertyListError) -> PropertyListDocument
    {
        var parser = BinaryPropertyListParser(bytes: bytes, options: options)
        var document = PropertyListDocument(value: try parser.topValue(), format: .binary)
        document.duplicateKeys = parser.duplicates
        return document
    }

    /// The value alone, without a ``PropertyListDocument`` (see ``PropertyListReader/value(ofBinary:)``).
    static func parseValue(_ bytes: UnsafeRawBufferPointer, options: PropertyListReadOptions) throws(PropertyListError) -> PropertyList {
        var parser = BinaryPropertyListParser(bytes: bytes, options: options)
        return try parser.topValue()
    }

    private mutating func topValue() throws(PropertyListError) -> PropertyList {
        let top = try readTrailer()
        let value = try object(top, depth: 0)
        let limit = max(options.maximumExpandedNodes, 32 * objectCount)
        if expandedCount[top] > limit {
            throw PropertyListError(
                "shared references expand to more than \(limit) nodes from \(objectCount) objects",
                at: .byteOffset(offset(of: top)), format: .binary)
        }
        return value
    }

    private init(bytes: UnsafeRawBufferPointer, options: PropertyListReadOptions) {
        self.bytes = bytes
        self.options = options
    }

    private func fail(_ message: String, at offset: Int) -> PropertyListError {
        PropertyListError(message, at: .byteOffset(offset), format: .binary)
    }

    /// A big-endian unsigned integer of `size` bytes (1–8) at `at`; the caller has checked bounds.
    private func uint(at: Int, size: Int) -> UInt64 {
        var v: UInt64 = 0
        for i in 0..<size { v = v << 8 | UInt64(bytes[at + i]) }
        return v
    }

    /// Validates the header and trailer and returns the top object's index.
    private mutating func readTrailer() throws(PropertyListError) -> Int {
        let n = bytes.count
        guard n >= 8 + 1 + 1 + Self.trailerSize else {
            throw fail("a binary property list needs at least 42 bytes; this one has \(n)", at: 0)
        }
        // CF reads any "bplist0?" as version 0; "bplist1?" adds object types that are not plist types.
        guard bytes[6] == UInt8(ascii: "0") else {
            throw fail("unsupported binary plist version 'bplist\(String(decoding: bytes[6..<8], as: UTF8.self))'", at: 6)
        }
        let t = n - Self.trailerSize
        offsetSize = Int(bytes[t + 6])
        refSize = Int(bytes[t + 7])
        let count = uint(at: t + 8, size: 8)
        let top = uint(at: t + 16, size: 8)
        let tableOffset = uint(at: t + 24, size: 8)
        guard (1...8).contains(offsetSize) else { throw fail("offset size \(offsetSize) is not 1 to 8", at: t + 6) }
        guard (1...8).contains(refSize) else { throw fail("object reference size \(refSize) is not 1 to 8", at: t + 7) }
        guard count >= 1 else { throw fail("the trailer says there are no objects", at: t + 8) }
        guard tableOffset >= 9, tableOffset < UInt64(t) else {
            throw fail("offset table at \(tableOffset) is outside the object area 9..<\(t)", at: t + 24)
        }
        let tableSpace = UInt64(t) - tableOffset
        guard count <= tableSpace / UInt64(offsetSize) else {
            throw fail("\(count) objects need an offset table larger than the file", at: t + 8)
        }
        guard count * UInt64(offsetSize) == tableSpace else {
            throw fail("\(tableSpace - count * UInt64(offsetSize)) unexpected bytes between the offset table and the trailer", at: Int(tableOffset + count * UInt64(offsetSize)))
        }
        guard refSize >= 8 || count <= UInt64(1) << UInt64(8 * refSize) else {
            throw fail("\(refSize)-byte references cannot address \(count) objects", at: t + 7)
        }
        guard top < count else { throw fail("top object \(top) is not below the object count \(count)", at: t + 16) }
        objectCount = Int(count)
        offsetTableStart = Int(tableOffset)
        decoded = Array(repeating: nil, count: objectCount)
        expandedCount = Array(repeating: 0, count: objectCount)
        inProgress = Array(repeating: false, count: objectCount)
        return Int(top)
    }

    /// Clamped: an 8-byte offset can exceed `Int.max`, which trapped on conversion (found by
    /// FuzzSessionMessage, Fuzz/Regressions/binary-offset-beyond-int-max.bplist); clamped, it
    /// fails the caller's range check like any other offset past the object area.
    private func offset(of index: Int) -> Int {
        Int(clamping: uint(at: offsetTableStart + index * offsetSize, size: offsetSize))
    }

    /// The error for object `index`'s offset (the raw value from the file, not the clamped one).
    /// Apart from the recursive `object(_:depth:)`: built inline there, its text made each level's
    /// stack frame large enough that 512 levels overflowed a debug build's 8 MiB stack.
    @inline(never)
    private func offsetOutsideObjects(_ index: Int) -> PropertyListError {
        let entry = offsetTableStart + index * offsetSize
        return fail("object \(index) has offset \(uint(at: entry, size: offsetSize)), outside the object area 8..<\(offsetTableStart)", at: entry)
    }

    /// Reads an object reference at `at`, which the caller has bounds-checked.
    private func reference(at: Int) throws(PropertyListError) -> Int {
        let r = uint(at: at, size: refSize)
        guard r < UInt64(objectCount) else { throw fail("object reference \(r) is not below the object count \(objectCount)", at: at) }
        return Int(r)
    }

    /// The count of a collection, string or data object whose marker is at `start`, and where
    /// its payload begins.
    private func count(marker: UInt8, at start: Int) throws(PropertyListError) -> (count: Int, payload: Int) {
        let low = Int(marker & 0x0F)
        if low != 0x0F { return (low, start + 1) }
        guard start + 2 <= offsetTableStart else { throw fail("object count runs past the object area", at: start) }
        let intMarker = bytes[start + 1]
        guard intMarker >> 4 == 0x1, intMarker & 0x0F <= 3 else {
            throw fail("extended count has marker 0x\(hex2(intMarker)), not a 1-, 2-, 4- or 8-byte integer", at: start + 1)
        }
        let size = 1 << Int(intMarker & 0x0F)
        guard start + 2 + size <= offsetTableStart else { throw fail("object count runs past the object area", at: start + 1) }
        let value = uint(at: start + 2, size: size)
        guard value <= UInt64(Int.max / 2) else { throw fail("object count \(value) is impossibly large", at: start + 1) }
        return (Int(value), start + 2 + size)
    }

    /// Checks that `count` items of `size` bytes from `payload` fit inside the object area.
    private func checkFits(_ count: Int, size: Int, from payload: Int, object start: Int, _ what: String) throws(PropertyListError) {
        let (total, overflow) = count.multipliedReportingOverflow(by: size)
        guard !overflow, payload <= offsetTableStart, total <= offsetTableStart - payload else {
            throw fail("\(what) of \(count) items runs past the end of the object area", at: start)
        }
    }

    private mutating func object(_ index: Int, depth: Int) throws(PropertyListError) -> PropertyList {
        if let done = decoded[index] { return done }
        let start = offset(of: index)
        guard start >= 8, start < offsetTableStart else { throw offsetOutsideObjects(index) }
        guard !inProgress[index] else { throw fail("object \(index) contains itself (a reference cycle)", at: start) }
        guard depth < options.maximumDepth else { throw fail("nesting deeper than \(options.maximumDepth) levels", at: start) }
        inProgress[index] = true
        defer { inProgress[index] = false }
        let marker = bytes[start]
        var expanded = 1
        let value: PropertyList
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: value = .bool(false)
            case 0x09: value = .bool(true)
            default: throw fail("marker 0x\(hex2(marker)) (null or fill) is not a property-list value", at: start)
            }
        case 0x1: value = try integer(marker: marker, at: start)
        case 0x2:
            let size = 1 << Int(marker & 0x0F)
            guard size == 4 || size == 8 else { throw fail("a real must be 4 or 8 bytes, not \(size)", at: start) }
            try checkFits(size, size: 1, from: start + 1, object: start, "real")
            let raw = uint(at: start + 1, size: size)
            value = .real(size == 4 ? Double(Float(bitPattern: UInt32(raw))) : Double(bitPattern: raw))
        case 0x3:
            guard marker == 0x33 else { throw fail("date marker 0x\(hex2(marker)) is not 0x33", at: start) }
            try checkFits(8, size: 1, from: start + 1, object: start, "date")
            let seconds = Double(bitPattern: uint(at: start + 1, size: 8))
            guard !seconds.isNaN else { throw fail("date is NaN", at: start) }
            value = .date(PropertyListDate(secondsSinceReferenceDate: seconds))
        case 0x4:
            let (n, payload) = try count(marker: marker, at: start)
            try checkFits(n, size: 1, from: payload, object: start, "data")
            value = .data(Array(bytes[payload..<(payload + n)]))
        case 0x5:
            let (n, payload) = try count(marker: marker, at: start)
            try checkFits(n, size: 1, from: payload, object: start, "ASCII string")
            let slice = UnsafeRawBufferPointer(rebasing: bytes[payload..<(payload + n)])
            if let bad = slice.firstIndex(where: { $0 >= 0x80 }) {
                throw fail("ASCII string contains byte 0x\(hex2(slice[bad]))", at: payload + bad)
            }
            value = .string(String(decoding: slice, as: UTF8.self))
        case 0x6:
            let (n, payload) = try count(marker: marker, at: start)
            try checkFits(n, size: 2, from: payload, object: start, "UTF-16 string")
            value = .string(try utf16String(count: n, at: payload))
        case 0x8:
            let size = Int(marker & 0x0F) + 1
            guard size <= 8 else { throw fail("a UID must be 1 to 8 bytes, not \(size)", at: start) }
            try checkFits(size, size: 1, from: start + 1, object: start, "UID")
            value = .uid(uint(at: start + 1, size: size))
        case 0xA:
            let (n, payload) = try count(marker: marker, at: start)
            try checkFits(n, size: refSize, from: payload, object: start, "array")
            var elements: [PropertyList] = []
            elements.reserveCapacity(n)
            for i in 0..<n {
                do {
                    let child = try reference(at: payload + i * refSize)
                    elements.append(try object(child, depth: depth + 1))
                    expanded = saturatingAdd(expanded, expandedCount[child])
                } catch { throw error.prefixed(by: .index(i)) }
            }
            value = .array(elements)
        case 0xD:
            let (n, payload) = try count(marker: marker, at: start)
            try checkFits(n, size: 2 * refSize, from: payload, object: start, "dictionary")
            var entries = OrderedDictionary<String, PropertyList>(minimumCapacity: n)
            for i in 0..<n {
                let keyIndex = try reference(at: payload + i * refSize)
                let key: String
                switch try object(keyIndex, depth: depth + 1) {
                case .string(let s): key = s
                case let other:
                    throw fail("dictionary key \(i) is \(other.typeNameWithArticle), not a string", at: offset(of: keyIndex))
                }
                do {
                    let child = try reference(at: payload + (n + i) * refSize)
                    let childValue = try object(child, depth: depth + 1)
                    if entries.updateValue(childValue, forKey: key) != nil {
                        duplicates.append(.init(keyPath: PropertyListPath([.key(key)]), location: .byteOffset(offset(of: keyIndex))))
                    }
                    expanded = saturatingAdd(expanded, saturatingAdd(1, expandedCount[child]))
                } catch { throw error.prefixed(by: .key(key)) }
            }
            value = .dictionary(entries)
        default:
            let kind = marker >> 4 == 0xC ? " (a set, which property lists do not have)" : ""
            throw fail("unknown object marker 0x\(hex2(marker))" + kind, at: start)
        }
        decoded[index] = value
        expandedCount[index] = expanded
        return value
    }

    private func integer(marker: UInt8, at start: Int) throws(PropertyListError) -> PropertyList {
        let exponent = Int(marker & 0x0F)
        guard exponent <= 4 else { throw fail("an integer of \(1 << exponent) bytes is not supported", at: start) }
        let size = 1 << exponent
        try checkFits(size, size: 1, from: start + 1, object: start, "integer")
        switch size {
        case 1, 2, 4: return .integer(Int64(uint(at: start + 1, size: size)))
        case 8: return .integer(Int64(bitPattern: uint(at: start + 1, size: 8)))
        default:
            // CF writes 16 bytes for values above Int64.max; the high half is a sign extension.
            let high = uint(at: start + 1, size: 8)
            let low = uint(at: start + 9, size: 8)
            if high == 0 { return low <= UInt64(Int64.max) ? .integer(Int64(low)) : .unsignedInteger(low) }
            if high == UInt64.max, Int64(bitPattern: low) < 0 { return .integer(Int64(bitPattern: low)) }
            throw fail("a 128-bit integer does not fit in 64 bits", at: start)
        }
    }

    private func utf16String(count n: Int, at payload: Int) throws(PropertyListError) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(n)
        for i in 0..<n {
            units.append(UInt16(bytes[payload + 2 * i]) << 8 | UInt16(bytes[payload + 2 * i + 1]))
        }
        var i = 0
        while i < n {
            let u = units[i]
            if u & 0xFC00 == 0xD800 {
                guard i + 1 < n, units[i + 1] & 0xFC00 == 0xDC00 else {
                    throw fail("UTF-16 string has an unpaired surrogate", at: payload + 2 * i)
                }
                i += 2
            } else if u & 0xFC00 == 0xDC00 {
                throw fail("UTF-16 string has an unpaired surrogate", at: payload + 2 * i)
            } else {
                i += 1
            }
        }
        return String(decoding: units, as: UTF16.self)
    }
}

private func saturatingAdd(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? Int.max : sum
}

extension PropertyListError {
    /// The same error with `component` in front of its key path (errors gain their path on the way
    /// out of a recursive reader, so reading costs nothing for it when all is well).
    func prefixed(by component: PropertyListPath.Component) -> PropertyListError {
        var copy = self
        copy.keyPath = PropertyListPath([component] + (keyPath?.components ?? []))
        return copy
    }
}

/// A byte as two lowercase hexadecimal digits.
func hex2(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16)
    return digits.count == 1 ? "0" + digits : digits
}
