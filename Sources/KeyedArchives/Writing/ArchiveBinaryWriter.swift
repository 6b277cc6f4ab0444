import Hashing
import OrderedCollections
import PropertyLists
import SystemCalls

/// Writes a keyed archive as a `bplist00` file laid out as CoreFoundation lays out the archives
/// NSKeyedArchiver writes on macOS, so that the bytes match where the archive does.
///
/// Not the generic ``BinaryPropertyListWriter``, because three of CF's object-table rules only
/// show in archives, and this writer must also be fast on large payloads:
/// - **Dictionary order.** CF writes a dictionary's keys in its hash-table order, not sorted and
///   not in insertion order (``CFDictionaryOrder``); the archiver inserts an object's fields in
///   the order they were encoded, `$class` last.
/// - **Uniquing.** CF stores equal strings, numbers (integers and reals kept apart), dates and
///   data once. Booleans and UIDs are not uniqued by value but by instance: NSKeyedArchiver
///   reuses one UID instance per object, so each further reference to an object makes CF append
///   another copy that nothing refers to, and every reference points at the first copy. Those
///   orphan copies are in every macOS archive (`NSKeyedUnarchiver-ComplexTest.plist` has three).
/// - **Data.** Uniquing data by hashing all of it would cost a megabyte's hash per megabyte of
///   payload; CF hashes the first 1,280 bytes and compares in full only on a match.
///
/// Objects are written with ``BinaryPropertyListWriter``'s encoders, so each one is byte-exact.
struct ArchiveBinaryWriter {
    /// A node of the object table: a scalar to encode, or a container's references.
    private typealias Node = BinaryPropertyListWriter.Flat

    /// Data keyed by its length and its first 1,280 bytes, as CF's uniquing set hashes it.
    private struct DataKey: Hashable {
        let count: Int
        let prefixHash: Int
        init(_ bytes: [UInt8]) {
            count = bytes.count
            var hasher = Hasher()
            bytes.withUnsafeBytes { hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: $0.prefix(1280))) }
            prefixHash = hasher.finalize()
        }
    }

    private var nodes: [Node] = []
    private var strings: [ExactString: Int] = [:]
    private var integers: [Int64: Int] = [:]
    private var unsignedIntegers: [UInt64: Int] = [:]
    private var reals: [UInt64: Int] = [:]
    private var dates: [UInt64: Int] = [:]
    private var data: [DataKey: [Int]] = [:]
    /// The first copy of each UID and boolean: later references point here.
    private var uids: [UInt64: Int] = [:]
    private var bools: [Bool: Int] = [:]
    private var payloadBytes = 0

    /// The complete file.
    func write(_ archive: KeyedArchive) -> [UInt8] {
        var writer = self
        // The archiver's insertion order; all 24 orders give the same 7-bucket layout.
        let top: OrderedDictionary<String, PropertyList> = [
            "$archiver": .string(KeyedArchive.archiverName),
            "$version": .integer(KeyedArchive.version),
            "$objects": .array(archive.objects),
            "$top": .dictionary(archive.top),
        ]
        let root = writer.flatten(.dictionary(top))
        return writer.encode(root: root)
    }

    /// Adds `value` and what it contains to the table; returns the index a reference to it names.
    private mutating func flatten(_ value: PropertyList) -> Int {
        switch value {
        case .array(let elements):
            let index = nodes.count
            nodes.append(.array([]))
            var references: [Int] = []
            references.reserveCapacity(elements.count)
            for element in elements { references.append(flatten(element)) }
            nodes[index] = .array(references)
            return index
        case .dictionary(let entries):
            let index = nodes.count
            nodes.append(.dictionary(keys: [], values: []))
            let keys = Array(entries.keys)
            let order = CFDictionaryOrder.order(keys)
            var keyReferences: [Int] = []
            var valueReferences: [Int] = []
            keyReferences.reserveCapacity(order.count)
            valueReferences.reserveCapacity(order.count)
            for i in order { keyReferences.append(flatten(.string(keys[i]))) }
            for i in order { valueReferences.append(flatten(entries.values[i])) }
            nodes[index] = .dictionary(keys: keyReferences, values: valueReferences)
            return index
        case .uid(let u):
            let index = append(value)
            if let first = uids[u] { return first }
            uids[u] = index
            return index
        case .bool(let b):
            let index = append(value)
            if let first = bools[b] { return first }
            bools[b] = index
            return index
        case .string(let s):
            let key = ExactString(s)
            if let existing = strings[key] { return existing }
            let index = append(value)
            strings[key] = index
            return index
        case .integer(let i):
            if let existing = integers[i] { return existing }
            let index = append(value)
            integers[i] = index
            return index
        case .unsignedInteger(let u):
            if let existing = unsignedIntegers[u] { return existing }
            let index = append(value)
            unsignedIntegers[u] = index
            return index
        case .real(let r):
            if let existing = reals[r.bitPattern] { return existing }
            let index = append(value)
            reals[r.bitPattern] = index
            return index
        case .date(let d):
            let bits = d.secondsSinceReferenceDate.bitPattern
            if let existing = dates[bits] { return existing }
            let index = append(value)
            dates[bits] = index
            return index
        case .data(let bytes):
            let key = DataKey(bytes)
            for candidate in data[key] ?? [] {
                if case .scalar(.data(let other)) = nodes[candidate], other == bytes { return candidate }
            }
            let index = append(value)
            data[key, default: []].append(index)
            payloadBytes += bytes.count
            return index
        }
    }

    private mutating func append(_ scalar: PropertyList) -> Int {
        nodes.append(.scalar(scalar))
        return nodes.count - 1
    }

    private func encode(root: Int) -> [UInt8] {
        BinaryPropertyListWriter.encode(nodes, root: root, capacity: payloadBytes + 64 * nodes.count + 64)
    }
}
