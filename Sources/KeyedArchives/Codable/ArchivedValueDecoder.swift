import PropertyLists

/// Reads a `Decodable` value from a Foundation property-list graph by `PropertyListDecoder`'s
/// rules, for ``KeyedUnarchiver/decodeDecodable(_:forKey:)``: dictionaries with string keys for
/// keyed containers, arrays (or data, byte by byte, which is how `Data` decodes) for unkeyed ones,
/// the string `"$null"` for nil, dates as seconds since 2001 (how `Date` decodes).
struct ArchivedValueDecoder {
    /// A decoding failure with the coding path where it happened.
    struct Failure: Error {
        var message: String
        var path: [PropertyListPath.Component]
    }

    let value: ArchivedValue

    init(_ value: ArchivedValue) { self.value = value }

    func decode<T: Decodable>(_ type: T.Type) throws(Failure) -> T {
        do { return try T(from: Decoder(value: value, codingPath: [], stack: StackGuardBox())) } catch let error as DecodingError {
            throw Self.failure(error)
        } catch {
            throw Failure(message: "\(error)", path: [])
        }
    }

    static func components(_ path: [CodingKey]) -> [PropertyListPath.Component] {
        path.map { key in key.intValue.map(PropertyListPath.Component.index) ?? .key(key.stringValue) }
    }

    static func failure(_ error: DecodingError) -> Failure {
        switch error {
        case .typeMismatch(let type, let context):
            return Failure(message: "expected \(type): \(context.debugDescription)", path: components(context.codingPath))
        case .valueNotFound(let type, let context):
            return Failure(message: "no \(type) value: \(context.debugDescription)", path: components(context.codingPath))
        case .keyNotFound(let key, let context):
            return Failure(message: "no value for key '\(key.stringValue)'", path: components(context.codingPath))
        case .dataCorrupted(let context):
            return Failure(message: context.debugDescription, path: components(context.codingPath))
        @unknown default:
            return Failure(message: "\(error)", path: [])
        }
    }

    static func isNil(_ value: ArchivedValue) -> Bool {
        if case .null = value { return true }
        return value.stringValue == KeyedArchive.nullMarker
    }

    static func mismatch(_ type: Any.Type, _ value: ArchivedValue, _ path: [CodingKey]) -> DecodingError {
        .typeMismatch(type, .init(codingPath: path, debugDescription: "found \(value.kindDescription)"))
    }

    static func integer<I: FixedWidthInteger>(_ type: I.Type, _ value: ArchivedValue, _ path: [CodingKey]) throws -> I {
        let converted: I?
        switch value {
        case .integer(let i): converted = I(exactly: i)
        case .unsignedInteger(let u): converted = I(exactly: u)
        case .real(let r): converted = I(exactly: r)
        case .bool(let b): converted = b ? 1 : 0
        default: throw mismatch(type, value, path)
        }
        guard let converted else {
            throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "\(value) does not fit in \(type)"))
        }
        return converted
    }

    static func double(_ value: ArchivedValue, _ path: [CodingKey]) throws -> Double {
        switch value {
        case .real(let r): return r
        case .integer(let i): return Double(i)
        case .unsignedInteger(let u): return Double(u)
        case .date(let d): return d.secondsSinceReferenceDate
        default: throw mismatch(Double.self, value, path)
        }
    }

    static func bool(_ value: ArchivedValue, _ path: [CodingKey]) throws -> Bool {
        switch value {
        case .bool(let b): return b
        case .integer(let i) where i == 0 || i == 1: return i == 1
        default: throw mismatch(Bool.self, value, path)
        }
    }

    static func string(_ value: ArchivedValue, _ path: [CodingKey]) throws -> String {
        guard let s = value.stringValue else { throw mismatch(String.self, value, path) }
        return s
    }

    /// A nested value's decoder, after checking that the stack has room for it.
    static func nested(_ value: ArchivedValue, _ path: [CodingKey], _ stack: StackGuardBox) throws -> Decoder {
        guard path.count < StackGuard.uncheckedDepth || stack.stack.hasRoom() else {
            throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "nested \(path.count) levels deep, more than this thread's stack allows"))
        }
        return Decoder(value: value, codingPath: path, stack: stack)
    }

    struct Decoder: Swift.Decoder {
        let value: ArchivedValue
        let codingPath: [CodingKey]
        let stack: StackGuardBox
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            guard case .dictionary(let entries, _) = value else { throw mismatch([String: Any].self, value, codingPath) }
            var map: [String: ArchivedValue] = [:]
            for entry in entries {
                guard let key = entry.key.stringValue else {
                    throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "a dictionary key is \(entry.key.kindDescription), not a string"))
                }
                map[key] = entry.value
            }
            return KeyedDecodingContainer(Keyed<Key>(entries: map, codingPath: codingPath, stack: stack))
        }

        func unkeyedContainer() throws -> UnkeyedDecodingContainer {
            switch value {
            case .array(let items, _), .set(let items, _), .orderedSet(let items, _):
                return Unkeyed(items: items, codingPath: codingPath, stack: stack)
            case .data(let bytes), .mutableData(let bytes):
                return Unkeyed(items: bytes.map { .integer(Int64($0)) }, codingPath: codingPath, stack: stack)
            default:
                throw mismatch([Any].self, value, codingPath)
            }
        }

        func singleValueContainer() throws -> SingleValueDecodingContainer { Single(value: value, codingPath: codingPath, stack: stack) }
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let entries: [String: ArchivedValue]
        let codingPath: [CodingKey]
        let stack: StackGuardBox
        var allKeys: [Key] { entries.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { entries[key.stringValue] != nil }

        private func entry(_ key: Key) throws -> ArchivedValue {
            guard let value = entries[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no value for key '\(key.stringValue)'"))
            }
            return value
        }
        func decodeNil(forKey key: Key) throws -> Bool { isNil(try entry(key)) }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try bool(entry(key), codingPath + [key]) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try string(entry(key), codingPath + [key]) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try double(entry(key), codingPath + [key]) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try double(entry(key), codingPath + [key])) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, entry(key), codingPath + [key]) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, entry(key), codingPath + [key]) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, entry(key), codingPath + [key]) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, entry(key), codingPath + [key]) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, entry(key), codingPath + [key]) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, entry(key), codingPath + [key]) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, entry(key), codingPath + [key]) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, entry(key), codingPath + [key]) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, entry(key), codingPath + [key]) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, entry(key), codingPath + [key]) }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try T(from: nested(entry(key), codingPath + [key], stack))
        }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try nested(entry(key), codingPath + [key], stack).container(keyedBy: type)
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer {
            try nested(entry(key), codingPath + [key], stack).unkeyedContainer()
        }
        func superDecoder() throws -> Swift.Decoder {
            Decoder(value: entries["super"] ?? .dictionary([]), codingPath: codingPath, stack: stack)
        }
        func superDecoder(forKey key: Key) throws -> Swift.Decoder { try nested(entry(key), codingPath + [key], stack) }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let items: [ArchivedValue]
        let codingPath: [CodingKey]
        let stack: StackGuardBox
        var currentIndex = 0
        var count: Int? { items.count }
        var isAtEnd: Bool { currentIndex >= items.count }

        init(items: [ArchivedValue], codingPath: [CodingKey], stack: StackGuardBox) {
            self.items = items
            self.codingPath = codingPath
            self.stack = stack
        }

        private mutating func next<T>(_ type: T.Type) throws -> (ArchivedValue, [CodingKey]) {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(type, .init(codingPath: codingPath + [IndexKey(currentIndex)], debugDescription: "the array has only \(items.count) elements"))
            }
            defer { currentIndex += 1 }
            return (items[currentIndex], codingPath + [IndexKey(currentIndex)])
        }
        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, isNil(items[currentIndex]) else { return false }
            currentIndex += 1
            return true
        }
        mutating func decode(_ type: Bool.Type) throws -> Bool { let (v, p) = try next(type); return try bool(v, p) }
        mutating func decode(_ type: String.Type) throws -> String { let (v, p) = try next(type); return try string(v, p) }
        mutating func decode(_ type: Double.Type) throws -> Double { let (v, p) = try next(type); return try double(v, p) }
        mutating func decode(_ type: Float.Type) throws -> Float { let (v, p) = try next(type); return Float(try double(v, p)) }
        mutating func decode(_ type: Int.Type) throws -> Int { let (v, p) = try next(type); return try integer(type, v, p) }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { let (v, p) = try next(type); return try integer(type, v, p) }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { let (v, p) = try next(type); return try integer(type, v, p) }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { let (v, p) = try next(type); return try integer(type, v, p) }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { let (v, p) = try next(type); return try integer(type, v, p) }
        mutating func decode(_ type: UInt.Type) throws -> UInt { let (v, p) = try next(type); return try integer(type, v, p) }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { let (v, p) = try next(type); return try integer(type, v, p) }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { let (v, p) = try next(type); return try integer(type, v, p) }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { let (v, p) = try next(type); return try integer(type, v, p) }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { let (v, p) = try next(type); return try integer(type, v, p) }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let (v, p) = try next(type)
            return try T(from: nested(v, p, stack))
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            let (v, p) = try next([String: Any].self)
            return try nested(v, p, stack).container(keyedBy: type)
        }
        mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer {
            let (v, p) = try next([Any].self)
            return try nested(v, p, stack).unkeyedContainer()
        }
        mutating func superDecoder() throws -> Swift.Decoder {
            let (v, p) = try next(Any.self)
            return try nested(v, p, stack)
        }
    }

    struct Single: SingleValueDecodingContainer {
        let value: ArchivedValue
        let codingPath: [CodingKey]
        let stack: StackGuardBox

        func decodeNil() -> Bool { isNil(value) }
        func decode(_ type: Bool.Type) throws -> Bool { try bool(value, codingPath) }
        func decode(_ type: String.Type) throws -> String { try string(value, codingPath) }
        func decode(_ type: Double.Type) throws -> Double { try double(value, codingPath) }
        func decode(_ type: Float.Type) throws -> Float { Float(try double(value, codingPath)) }
        func decode(_ type: Int.Type) throws -> Int { try integer(type, value, codingPath) }
        func decode(_ type: Int8.Type) throws -> Int8 { try integer(type, value, codingPath) }
        func decode(_ type: Int16.Type) throws -> Int16 { try integer(type, value, codingPath) }
        func decode(_ type: Int32.Type) throws -> Int32 { try integer(type, value, codingPath) }
        func decode(_ type: Int64.Type) throws -> Int64 { try integer(type, value, codingPath) }
        func decode(_ type: UInt.Type) throws -> UInt { try integer(type, value, codingPath) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type, value, codingPath) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type, value, codingPath) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type, value, codingPath) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type, value, codingPath) }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: Decoder(value: value, codingPath: codingPath, stack: stack)) }
    }
}
