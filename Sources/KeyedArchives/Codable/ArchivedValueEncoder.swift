import OrderedCollections
import PropertyLists

/// Turns an `Encodable` value into the Foundation property-list graph `PropertyListEncoder`
/// would make of it (keyed containers as dictionaries, unkeyed as arrays, nil as the string
/// `"$null"`, `Data` as data, `Date` as a date), for ``KeyedArchiver/encodeEncodable(_:forKey:)``.
struct ArchivedValueEncoder {
    func encode<T: Encodable>(_ value: T) throws -> ArchivedValue {
        let node = Node()
        try Self.box(value, into: node, path: [])
        return node.resolved
    }

    /// What an encoder wrote: a single value, a keyed or an unkeyed container.
    final class Node {
        var single: ArchivedValue?
        var keyed: OrderedDictionary<String, Node>?
        var unkeyed: [Node]?

        var resolved: ArchivedValue {
            if let single { return single }
            if let keyed { return .dictionary(keyed.map { ArchivedValue.DictionaryEntry(key: .string($0.key), value: $0.value.resolved) }) }
            if let unkeyed { return .array(unkeyed.map(\.resolved)) }
            return .dictionary([])
        }
    }

    /// Encodes `value` into `node`, treating Foundation's `Data` and `Date` as their own types.
    static func box<T: Encodable>(_ value: T, into node: Node, path: [CodingKey]) throws {
        switch FoundationTypeNames.kind(of: T.self) {
        case .data?:
            let scratch = Node()
            try value.encode(to: Encoder(node: scratch, codingPath: path))
            var bytes: [UInt8] = []
            for element in scratch.unkeyed ?? [] {
                guard case .integer(let b)? = element.single, let byte = UInt8(exactly: b) else {
                    throw EncodingError.invalidValue(value, .init(codingPath: path, debugDescription: "Data did not encode as bytes"))
                }
                bytes.append(byte)
            }
            node.single = .data(bytes)
        case .date?:
            let scratch = Node()
            try value.encode(to: Encoder(node: scratch, codingPath: path))
            guard case .real(let seconds)? = scratch.single else {
                throw EncodingError.invalidValue(value, .init(codingPath: path, debugDescription: "Date did not encode as a number"))
            }
            node.single = .date(PropertyListDate(secondsSinceReferenceDate: seconds))
        case nil:
            try value.encode(to: Encoder(node: node, codingPath: path))
        }
    }

    static func integer<I: BinaryInteger>(_ value: I) -> ArchivedValue {
        if let i = Int64(exactly: value) { return .integer(i) }
        return .unsignedInteger(UInt64(value))
    }

    struct Encoder: Swift.Encoder {
        let node: Node
        let codingPath: [CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if node.keyed == nil { node.keyed = [:] }
            return KeyedEncodingContainer(Keyed<Key>(node: node, codingPath: codingPath))
        }

        func unkeyedContainer() -> UnkeyedEncodingContainer {
            if node.unkeyed == nil { node.unkeyed = [] }
            return Unkeyed(node: node, codingPath: codingPath)
        }

        func singleValueContainer() -> SingleValueEncodingContainer { Single(node: node, codingPath: codingPath) }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        let codingPath: [CodingKey]

        private func child(_ key: Key) -> Node {
            let child = Node()
            node.keyed![key.stringValue] = child
            return child
        }
        mutating func encodeNil(forKey key: Key) throws { child(key).single = .string(KeyedArchive.nullMarker) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { child(key).single = .bool(value) }
        mutating func encode(_ value: String, forKey key: Key) throws { child(key).single = .string(value) }
        mutating func encode(_ value: Double, forKey key: Key) throws { child(key).single = .real(value) }
        mutating func encode(_ value: Float, forKey key: Key) throws { child(key).single = .real(Double(value)) }
        mutating func encode(_ value: Int, forKey key: Key) throws { child(key).single = integer(value) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { child(key).single = integer(value) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { child(key).single = integer(value) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { child(key).single = integer(value) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { child(key).single = integer(value) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { child(key).single = integer(value) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { child(key).single = integer(value) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { child(key).single = integer(value) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { child(key).single = integer(value) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { child(key).single = integer(value) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try box(value, into: child(key), path: codingPath + [key])
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            let child = child(key)
            child.keyed = [:]
            return KeyedEncodingContainer(Keyed<NestedKey>(node: child, codingPath: codingPath + [key]))
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
            let child = child(key)
            child.unkeyed = []
            return Unkeyed(node: child, codingPath: codingPath + [key])
        }
        mutating func superEncoder() -> Swift.Encoder {
            let child = Node()
            node.keyed!["super"] = child
            return Encoder(node: child, codingPath: codingPath)
        }
        mutating func superEncoder(forKey key: Key) -> Swift.Encoder { Encoder(node: child(key), codingPath: codingPath + [key]) }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let node: Node
        let codingPath: [CodingKey]
        var count: Int { node.unkeyed!.count }

        private func next() -> Node {
            let child = Node()
            node.unkeyed!.append(child)
            return child
        }
        mutating func encodeNil() throws { next().single = .string(KeyedArchive.nullMarker) }
        mutating func encode(_ value: Bool) throws { next().single = .bool(value) }
        mutating func encode(_ value: String) throws { next().single = .string(value) }
        mutating func encode(_ value: Double) throws { next().single = .real(value) }
        mutating func encode(_ value: Float) throws { next().single = .real(Double(value)) }
        mutating func encode(_ value: Int) throws { next().single = integer(value) }
        mutating func encode(_ value: Int8) throws { next().single = integer(value) }
        mutating func encode(_ value: Int16) throws { next().single = integer(value) }
        mutating func encode(_ value: Int32) throws { next().single = integer(value) }
        mutating func encode(_ value: Int64) throws { next().single = integer(value) }
        mutating func encode(_ value: UInt) throws { next().single = integer(value) }
        mutating func encode(_ value: UInt8) throws { next().single = integer(value) }
        mutating func encode(_ value: UInt16) throws { next().single = integer(value) }
        mutating func encode(_ value: UInt32) throws { next().single = integer(value) }
        mutating func encode(_ value: UInt64) throws { next().single = integer(value) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            try box(value, into: next(), path: codingPath + [IndexKey(count - 1)])
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let child = next()
            child.keyed = [:]
            return KeyedEncodingContainer(Keyed<NestedKey>(node: child, codingPath: codingPath + [IndexKey(count - 1)]))
        }
        mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
            let child = next()
            child.unkeyed = []
            return Unkeyed(node: child, codingPath: codingPath + [IndexKey(count - 1)])
        }
        mutating func superEncoder() -> Swift.Encoder { Encoder(node: next(), codingPath: codingPath + [IndexKey(count - 1)]) }
    }

    struct Single: SingleValueEncodingContainer {
        let node: Node
        let codingPath: [CodingKey]

        mutating func encodeNil() throws { node.single = .string(KeyedArchive.nullMarker) }
        mutating func encode(_ value: Bool) throws { node.single = .bool(value) }
        mutating func encode(_ value: String) throws { node.single = .string(value) }
        mutating func encode(_ value: Double) throws { node.single = .real(value) }
        mutating func encode(_ value: Float) throws { node.single = .real(Double(value)) }
        mutating func encode(_ value: Int) throws { node.single = integer(value) }
        mutating func encode(_ value: Int8) throws { node.single = integer(value) }
        mutating func encode(_ value: Int16) throws { node.single = integer(value) }
        mutating func encode(_ value: Int32) throws { node.single = integer(value) }
        mutating func encode(_ value: Int64) throws { node.single = integer(value) }
        mutating func encode(_ value: UInt) throws { node.single = integer(value) }
        mutating func encode(_ value: UInt8) throws { node.single = integer(value) }
        mutating func encode(_ value: UInt16) throws { node.single = integer(value) }
        mutating func encode(_ value: UInt32) throws { node.single = integer(value) }
        mutating func encode(_ value: UInt64) throws { node.single = integer(value) }
        mutating func encode<T: Encodable>(_ value: T) throws { try box(value, into: node, path: codingPath) }
    }
}

/// An array index as a coding key.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { String(intValue!) }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.intValue = intValue }
}
