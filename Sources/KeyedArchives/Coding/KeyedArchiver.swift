import Hashing
import OrderedCollections
import PropertyLists
import SystemCalls

/// Writes objects into a keyed archive that NSKeyedUnarchiver on macOS and iOS reads: the Swift
/// counterpart of `NSKeyedArchiver`, without Foundation.
///
/// ```swift
/// let archiver = KeyedArchiver()
/// try archiver.encode(package, forKey: "kENHPackageDataKey")
/// let bytes = try archiver.encodedData(format: .binary)
/// ```
///
/// The archiver is also the coder an object's ``KeyedArchivable/encode(with:)`` writes its
/// fields to: each `encode…(forKey:)` call goes to the object being encoded, or to `$top`.
/// Objects are laid out as NSKeyedArchiver lays them out: `$null` first; each object numbered
/// when first met, before its fields; its class dictionary added after its fields; equal strings
/// and numbers stored once; a class instance met again referred to, not copied.
public final class KeyedArchiver {
    /// The limits applied while encoding (only ``KeyedArchiveLimits/maximumDepth`` applies).
    public let limits: KeyedArchiveLimits

    private var objects: [PropertyList] = [.string(KeyedArchive.nullMarker)]
    /// The fields of `$top` and of each object being encoded, innermost last.
    private var containers: [OrderedDictionary<String, PropertyList>] = [[:]]
    private var strings: [ExactString: Int] = [:]
    private var integers: [Int64: Int] = [:]
    private var unsignedIntegers: [UInt64: Int] = [:]
    private var reals: [UInt64: Int] = [:]
    private var bools: [Bool: Int] = [:]
    private var classes: [ArchiveClass: Int] = [:]
    private var instances: [ObjectIdentifier: Int] = [:]
    /// Instances already encoded, kept alive so that no other object takes their identity.
    private var retained: [AnyObject] = []
    private var stack = StackGuard()

    /// Creates an archiver with an empty `$top`.
    public init(limits: KeyedArchiveLimits = .init()) {
        self.limits = limits
    }

    // MARK: Objects

    /// Encodes `object` (or `$null` for `nil`) as an object of its ``KeyedArchivable/archiveClass``
    /// and stores a reference to it under `key`.
    /// - Throws: ``KeyedArchiveError`` from the object's own encoding, or nesting too deep.
    public func encode<T: KeyedArchivable>(_ object: T?, forKey key: String) throws(KeyedArchiveError) {
        guard let object else { return set(.uid(0), forKey: key) }
        set(.uid(UInt64(try reference(to: object))), forKey: key)
    }

    /// Encodes a Foundation value graph (strings, numbers, data, dates, collections, URLs, UUIDs,
    /// `NSValue`s, other objects) and stores a reference to it under `key`.
    /// - Throws: ``KeyedArchiveError/Reason/encodingFailed(_:)`` for nesting deeper than the limit.
    public func encode(_ value: ArchivedValue, forKey key: String) throws(KeyedArchiveError) {
        set(.uid(UInt64(try reference(to: value))), forKey: key)
    }

    /// Encodes `string` as an `NSString` object (or `$null` for `nil`).
    public func encode(_ string: String?, forKey key: String) {
        set(.uid(UInt64(string.map(uniqueString) ?? 0)), forKey: key)
    }

    /// Encodes `data` as an `NSData` object (or `$null` for `nil`).
    public func encode(data: [UInt8]?, forKey key: String) {
        guard let data else { return set(.uid(0), forKey: key) }
        set(.uid(UInt64(append(.data(data)))), forKey: key)
    }

    /// Encodes `objects` as an `NSArray` of objects of their class.
    /// - Throws: ``KeyedArchiveError`` from an element's own encoding.
    public func encodeArray<T: KeyedArchivable>(_ objects: [T], forKey key: String) throws(KeyedArchiveError) {
        let index = try encodeObject(of: .array, identity: nil) { archiver throws(KeyedArchiveError) in
            var references: [PropertyList] = []
            references.reserveCapacity(objects.count)
            for object in objects { references.append(.uid(UInt64(try archiver.reference(to: object)))) }
            archiver.set(.array(references), forKey: "NS.objects")
        }
        set(.uid(UInt64(index)), forKey: key)
    }

    /// Encodes an `Encodable` value as Apple's `encodeEncodable(_:forKey:)` does: as the property
    /// list `PropertyListEncoder` makes of it (dictionaries, arrays, strings, numbers, data,
    /// dates, `"$null"` for nil), archived as Foundation objects.
    /// - Throws: ``KeyedArchiveError/Reason/encodingFailed(_:)`` with the value's own error.
    public func encodeEncodable<T: Encodable>(_ value: T, forKey key: String) throws(KeyedArchiveError) {
        let graph: ArchivedValue
        do { graph = try ArchivedValueEncoder().encode(value) } catch {
            throw KeyedArchiveError(.encodingFailed("\(error)"), keyPath: PropertyListPath([.key(key)]))
        }
        try encode(graph, forKey: key)
    }

    // MARK: Values stored in the object itself

    /// Stores an integer in the object itself (`encodeInt64:forKey:`).
    public func encode(_ value: Int64, forKey key: String) { set(.integer(value), forKey: key) }

    /// Stores an integer in the object itself (`encodeInteger:forKey:`).
    public func encode(_ value: Int, forKey key: String) { set(.integer(Int64(value)), forKey: key) }

    /// Stores a double in the object itself (`encodeDouble:forKey:`).
    public func encode(_ value: Double, forKey key: String) { set(.real(value), forKey: key) }

    /// Stores a boolean in the object itself (`encodeBool:forKey:`).
    public func encode(_ value: Bool, forKey key: String) { set(.bool(value), forKey: key) }

    /// Stores bytes in the object itself (`encodeBytes:length:forKey:`).
    public func encodeBytes(_ bytes: [UInt8], forKey key: String) { set(.data(bytes), forKey: key) }

    // MARK: Finishing

    /// The archive as encoded so far (`finishEncoding`). The archiver can go on encoding.
    public func finishEncoding() -> KeyedArchive {
        KeyedArchive(objects: objects, top: containers[0])
    }

    /// The archive's bytes in `format`.
    /// - Throws: ``KeyedArchiveError/Reason/encodingFailed(_:)`` when XML cannot carry a value.
    public func encodedData(format: ArchiveFormat = .binary) throws(KeyedArchiveError) -> [UInt8] {
        try finishEncoding().encoded(as: format)
    }

    /// An archive holding `object` under `key` (`archivedData(withRootObject:)` uses "root").
    /// - Throws: ``KeyedArchiveError`` from the object's encoding or the writer.
    public static func archivedData<T: KeyedArchivable>(withRootObject object: T, forKey key: String = "root",
                                                        format: ArchiveFormat = .binary) throws(KeyedArchiveError) -> [UInt8] {
        let archiver = KeyedArchiver()
        try archiver.encode(object, forKey: key)
        return try archiver.encodedData(format: format)
    }

    /// An archive holding the Foundation value graph `value` under `key`.
    /// - Throws: ``KeyedArchiveError`` for nesting too deep or a value XML cannot carry.
    public static func archivedData(withRootValue value: ArchivedValue, forKey key: String = "root",
                                    format: ArchiveFormat = .binary) throws(KeyedArchiveError) -> [UInt8] {
        let archiver = KeyedArchiver()
        try archiver.encode(value, forKey: key)
        return try archiver.encodedData(format: format)
    }

    // MARK: Building the object table

    /// Stores `value` under `key` in the innermost container.
    func set(_ value: PropertyList, forKey key: String) {
        containers[containers.count - 1][key] = value
    }

    /// The index of a new object holding `value`.
    func append(_ value: PropertyList) -> Int {
        objects.append(value)
        return objects.count - 1
    }

    /// The index of the `NSString` object for `string`, stored once however often it is used.
    func uniqueString(_ string: String) -> Int {
        let key = ExactString(string)
        if let index = strings[key] { return index }
        let index = append(.string(string))
        strings[key] = index
        return index
    }

    /// The index of the `NSNumber` object for a number, stored once per value.
    func uniqueNumber(_ value: PropertyList) -> Int {
        switch value {
        case .integer(let i):
            if let index = integers[i] { return index }
            let index = append(value); integers[i] = index; return index
        case .unsignedInteger(let u):
            if let index = unsignedIntegers[u] { return index }
            let index = append(value); unsignedIntegers[u] = index; return index
        case .real(let r):
            if let index = reals[r.bitPattern] { return index }
            let index = append(value); reals[r.bitPattern] = index; return index
        case .bool(let b):
            if let index = bools[b] { return index }
            let index = append(value); bools[b] = index; return index
        default:
            return append(value)
        }
    }

    /// Encodes an object of `archiveClass` whose fields `body` writes: numbered before its fields
    /// (so a field can refer back to it), its class dictionary referred to after them.
    func encodeObject(of archiveClass: ArchiveClass, identity: ObjectIdentifier?,
                      _ body: (KeyedArchiver) throws(KeyedArchiveError) -> Void) throws(KeyedArchiveError) -> Int {
        guard containers.count <= limits.maximumDepth else {
            throw KeyedArchiveError(.encodingFailed("objects nested deeper than \(limits.maximumDepth) levels"))
        }
        guard containers.count < StackGuard.uncheckedDepth || stack.hasRoom() else {
            throw KeyedArchiveError(.encodingFailed("objects nested \(containers.count) levels deep, more than this thread's stack allows"))
        }
        let index = append(.string(KeyedArchive.nullMarker))
        if let identity { instances[identity] = index }
        containers.append([:])
        do { try body(self) } catch {
            containers.removeLast()
            throw error
        }
        var fields = containers.removeLast()
        fields["$class"] = .uid(UInt64(classReference(archiveClass)))
        objects[index] = .dictionary(fields)
        return index
    }

    /// The index of the class dictionary for `archiveClass`, added the first time it is used.
    private func classReference(_ archiveClass: ArchiveClass) -> Int {
        if let index = classes[archiveClass] { return index }
        let index = append(.dictionary([
            "$classname": .string(archiveClass.name),
            "$classes": .array(archiveClass.chain.map(PropertyList.string)),
        ]))
        classes[archiveClass] = index
        return index
    }

    /// The index of `object`'s object: encoded now, or the earlier one if it is a class
    /// instance already encoded.
    func reference<T: KeyedArchivable>(to object: T) throws(KeyedArchiveError) -> Int {
        var identity: ObjectIdentifier?
        if T.self is AnyClass {
            let instance = object as AnyObject
            let id = ObjectIdentifier(instance)
            if let index = instances[id] { return index }
            retained.append(instance)
            identity = id
        }
        return try encodeObject(of: type(of: object).archiveClass, identity: identity) { archiver throws(KeyedArchiveError) in
            try object.encode(with: archiver)
        }
    }
}
