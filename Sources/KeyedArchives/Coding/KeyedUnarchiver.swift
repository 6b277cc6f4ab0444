import OrderedCollections
import PropertyLists

/// Reads objects out of a keyed archive written by NSKeyedArchiver (macOS, iOS, Foundation on
/// Linux) or by ``KeyedArchiver``: the Swift counterpart of `NSKeyedUnarchiver` with secure
/// decoding always on.
///
/// ```swift
/// let unarchiver = try KeyedUnarchiver(bytes)
/// let package = try unarchiver.decodeObject(of: AppDataPackage.self, forKey: "kENHPackageDataKey")
/// ```
///
/// Secure decoding: every object is decoded as a class the caller names (an app type, or a set
/// of class names for Foundation values); an archive naming any other class is refused with the
/// class, the object and the key path. A hostile archive (references out of range, inline values
/// where references belong, reference cycles, nesting or expansion beyond ``limits``, malformed
/// class dictionaries) gets a ``KeyedArchiveError``, never a crash.
///
/// Shared objects decode once per type and are handed out again (a class instance referred to
/// twice is one instance, as with Apple's unarchiver). A reference cycle is an error: Apple's
/// unarchiver hands a half-initialized object to the cycle, which value types cannot be; a type
/// that needs a back reference decodes it later with ``decodeReference(forKey:)``.
public final class KeyedUnarchiver {
    /// The archive being read.
    public let archive: KeyedArchive
    /// The limits applied while decoding.
    public let limits: KeyedArchiveLimits
    /// Archived class names read as other names, like `NSKeyedUnarchiver.setClass(_:forClassName:)`:
    /// `["MyApp.DataPackage": "ENHAppDataPackage"]` reads the module-qualified names Foundation
    /// on Linux writes. Set it before decoding: each class dictionary is read once.
    public var classNameSubstitutions: [String: String] = [:]

    /// The container being read: `$top`, or the fields of the object being decoded.
    struct Frame {
        var objectIndex: Int?
        var fields: OrderedDictionary<String, PropertyList>
        var path: PropertyListPath
    }

    /// A class dictionary, read once.
    struct ResolvedClass {
        var name: String
        var chain: [String]
    }

    private(set) var frames: [Frame]
    private var inProgress: [Bool]
    private var decodedObjects = 0
    private var classCache: [Int: ResolvedClass] = [:]
    private var instanceCache: [InstanceKey: Any] = [:]
    private var stack = StackGuard()

    private struct InstanceKey: Hashable {
        var index: Int
        var type: ObjectIdentifier
    }

    /// Opens the archive in `bytes` (binary or XML).
    /// - Throws: ``KeyedArchiveError`` when the bytes are not a keyed archive or exceed `limits`.
    public convenience init(_ bytes: [UInt8], limits: KeyedArchiveLimits = .init()) throws(KeyedArchiveError) {
        self.init(archive: try KeyedArchive(parsing: bytes, limits: limits), limits: limits)
    }

    /// Opens an archive already read.
    public init(archive: KeyedArchive, limits: KeyedArchiveLimits = .init()) {
        self.archive = archive
        self.limits = limits
        self.frames = [Frame(objectIndex: nil, fields: archive.top, path: .root)]
        self.inProgress = Array(repeating: false, count: archive.objects.count)
    }

    // MARK: The current container

    /// The keys of the container being read (`$top`, or the current object's fields but `$class`).
    public var allKeys: [String] { frames[frames.count - 1].fields.keys.filter { $0 != "$class" } }

    /// Whether the container being read has `key`.
    public func containsValue(forKey key: String) -> Bool { frames[frames.count - 1].fields[key] != nil }

    /// The index in `$objects` of the object being decoded; `nil` at `$top`.
    public var currentObjectIndex: Int? { frames[frames.count - 1].objectIndex }

    /// The key path from the `$top` key to the object being decoded.
    public var currentKeyPath: PropertyListPath { frames[frames.count - 1].path }

    /// An error at the object being decoded (and `key`, if given), for a type's own checks.
    public func failure(_ reason: KeyedArchiveError.Reason, forKey key: String? = nil) -> KeyedArchiveError {
        KeyedArchiveError(reason, objectIndex: currentObjectIndex, keyPath: key.map { currentKeyPath.appending($0) } ?? currentKeyPath)
    }

    // MARK: App objects

    /// Decodes the object `key` refers to as `T`; `nil` when the key is absent or holds `$null`.
    /// - Throws: ``KeyedArchiveError``: the object's class is not `T`'s, the field is not a
    ///   reference or is out of range, the object is part of a cycle, or `T` refuses it.
    public func decodeObject<T: KeyedUnarchivable>(of type: T.Type, forKey key: String) throws(KeyedArchiveError) -> T? {
        guard let target = try reference(forKey: key) else { return nil }
        return try decodeObject(of: type, at: target, path: currentKeyPath.appending(key))
    }

    /// Decodes the object `reference` names as `T` (for references read with
    /// ``decodeReference(forKey:)``); `nil` for `$null`.
    /// - Throws: ``KeyedArchiveError`` as ``decodeObject(of:forKey:)`` does.
    public func decodeObject<T: KeyedUnarchivable>(of type: T.Type, at reference: ArchiveReference) throws(KeyedArchiveError) -> T? {
        guard reference.index < archive.objects.count, reference.index >= 0 else {
            throw failure(.referenceOutOfRange(UInt64(max(0, reference.index)), objectCount: archive.objects.count))
        }
        guard !reference.isNull else { return nil }
        return try decodeObject(of: type, at: reference.index, path: PropertyListPath([.key("$objects"), .index(reference.index)]))
    }

    /// Decodes the `NSArray` `key` refers to as an array of `T`; `nil` when absent or `$null`.
    /// - Throws: ``KeyedArchiveError`` when the object is not an array or an element is not a `T`.
    public func decodeArray<T: KeyedUnarchivable>(of type: T.Type, forKey key: String) throws(KeyedArchiveError) -> [T]? {
        guard let target = try reference(forKey: key) else { return nil }
        let path = currentKeyPath.appending(key)
        let cls = try objectClass(at: target, path: path)
        guard let resolved = resolve(cls, known: { ArchiveClass.foundationByName[$0] != nil }),
              resolved == "NSArray" || resolved == "NSMutableArray" else {
            throw KeyedArchiveError(.typeMismatch(expected: "an NSArray", found: Self.article(cls.name)), objectIndex: target, keyPath: path)
        }
        return try within(target, path: path) { () throws(KeyedArchiveError) -> [T] in
            let members = try self.memberReferences(forKey: "NS.objects")
            var out: [T] = []
            out.reserveCapacity(members.count)
            for (i, member) in members.enumerated() {
                let memberPath = path.appending("NS.objects").appending(i)
                guard member != 0 else {
                    throw KeyedArchiveError(.typeMismatch(expected: Self.article(T.archiveClass.name), found: "$null"), objectIndex: target, keyPath: memberPath)
                }
                out.append(try self.decodeObject(of: type, at: member, path: memberPath))
            }
            return out
        }
    }

    /// The reference `key` holds, without decoding the object: for a back reference in a graph
    /// with a cycle, decoded later with ``decodeObject(of:at:)``; `nil` when the key is absent.
    /// - Throws: ``KeyedArchiveError`` when the field is not a reference or is out of range.
    public func decodeReference(forKey key: String) throws(KeyedArchiveError) -> ArchiveReference? {
        try reference(forKey: key).map { ArchiveReference(index: $0) }
    }

    // MARK: Values stored in the object itself

    /// The integer stored in the object (`decodeInt64ForKey:`); 0 when absent, as Apple's.
    /// - Throws: ``KeyedArchiveError/Reason/typeMismatch(expected:found:)`` for a non-number.
    public func decodeInteger(forKey key: String) throws(KeyedArchiveError) -> Int64 {
        switch frames[frames.count - 1].fields[key] {
        case nil: return 0
        case .integer(let i)?: return i
        case .bool(let b)?: return b ? 1 : 0
        case .real(let r)? where Int64(exactly: r) != nil: return Int64(exactly: r)!
        case let other?: throw failure(.typeMismatch(expected: "an integer", found: Self.inlineDescription(other)), forKey: key)
        }
    }

    /// The double stored in the object (`decodeDoubleForKey:`); 0 when absent.
    /// - Throws: ``KeyedArchiveError/Reason/typeMismatch(expected:found:)`` for a non-number.
    public func decodeDouble(forKey key: String) throws(KeyedArchiveError) -> Double {
        switch frames[frames.count - 1].fields[key] {
        case nil: return 0
        case .real(let r)?: return r
        case .integer(let i)?: return Double(i)
        case .unsignedInteger(let u)?: return Double(u)
        case let other?: throw failure(.typeMismatch(expected: "a number", found: Self.inlineDescription(other)), forKey: key)
        }
    }

    /// The boolean stored in the object (`decodeBoolForKey:`); false when absent.
    /// - Throws: ``KeyedArchiveError/Reason/typeMismatch(expected:found:)`` for a non-boolean.
    public func decodeBool(forKey key: String) throws(KeyedArchiveError) -> Bool {
        switch frames[frames.count - 1].fields[key] {
        case nil: return false
        case .bool(let b)?: return b
        case .integer(let i)?: return i != 0
        case let other?: throw failure(.typeMismatch(expected: "a boolean", found: Self.inlineDescription(other)), forKey: key)
        }
    }

    /// The bytes stored in the object (`decodeBytesForKey:returnedLength:`); `nil` when absent.
    /// - Throws: ``KeyedArchiveError/Reason/typeMismatch(expected:found:)`` for non-data.
    public func decodeBytes(forKey key: String) throws(KeyedArchiveError) -> [UInt8]? {
        switch frames[frames.count - 1].fields[key] {
        case nil: return nil
        case .data(let d)?: return d
        case let other?: throw failure(.typeMismatch(expected: "data", found: Self.inlineDescription(other)), forKey: key)
        }
    }

    // MARK: Entry points

    /// Decodes the `T` an archive holds under `key` ("root" for `archivedData(withRootObject:)`).
    /// - Throws: ``KeyedArchiveError``; an absent key is ``KeyedArchiveError/Reason/missingTopLevelKey(_:available:)``.
    public static func unarchivedObject<T: KeyedUnarchivable>(of type: T.Type, from bytes: [UInt8], forKey key: String = "root",
                                                              classNameSubstitutions: [String: String] = [:],
                                                              limits: KeyedArchiveLimits = .init()) throws(KeyedArchiveError) -> T {
        let unarchiver = try KeyedUnarchiver(bytes, limits: limits)
        unarchiver.classNameSubstitutions = classNameSubstitutions
        try unarchiver.requireTopLevelKey(key)
        guard let object = try unarchiver.decodeObject(of: type, forKey: key) else {
            throw KeyedArchiveError(.typeMismatch(expected: article(T.archiveClass.name), found: "$null"), keyPath: [.key(key)])
        }
        return object
    }

    /// Decodes the Foundation value graph an archive holds under `key`, accepting the classes
    /// named in `classNames` (and their Foundation subclasses, such as `NSMutableArray` for `NSArray`).
    /// - Throws: ``KeyedArchiveError``; an absent key is ``KeyedArchiveError/Reason/missingTopLevelKey(_:available:)``.
    public static func unarchivedValue(from bytes: [UInt8], forKey key: String = "root", allowing classNames: Set<String>,
                                       limits: KeyedArchiveLimits = .init()) throws(KeyedArchiveError) -> ArchivedValue {
        let unarchiver = try KeyedUnarchiver(bytes, limits: limits)
        try unarchiver.requireTopLevelKey(key)
        return try unarchiver.decodeValue(forKey: key, allowing: classNames) ?? .null
    }

    /// Throws ``KeyedArchiveError/Reason/missingTopLevelKey(_:available:)`` unless `$top` has `key`.
    func requireTopLevelKey(_ key: String) throws(KeyedArchiveError) {
        guard archive.top[key] != nil else {
            throw KeyedArchiveError(.missingTopLevelKey(key, available: Array(archive.top.keys)), keyPath: [.key("$top")])
        }
    }

    // MARK: Walking the object table

    /// The object index the field `key` of the current container refers to; `nil` when absent.
    func reference(forKey key: String) throws(KeyedArchiveError) -> Int? {
        guard let field = frames[frames.count - 1].fields[key] else { return nil }
        guard case .uid(let uid) = field else {
            throw failure(.notAReference(found: Self.inlineDescription(field)), forKey: key)
        }
        guard uid < UInt64(archive.objects.count) else {
            throw failure(.referenceOutOfRange(uid, objectCount: archive.objects.count), forKey: key)
        }
        return uid == 0 ? nil : Int(uid)
    }

    /// The references in the inline array `key` of the current object (`NS.objects`, `NS.keys`).
    func memberReferences(forKey key: String) throws(KeyedArchiveError) -> [Int] {
        guard let field = frames[frames.count - 1].fields[key] else {
            throw failure(.malformedObject("an \(archiveClassName()) without \(key)"), forKey: key)
        }
        guard case .array(let elements) = field else {
            throw failure(.typeMismatch(expected: "an array of references", found: Self.inlineDescription(field)), forKey: key)
        }
        var out: [Int] = []
        out.reserveCapacity(elements.count)
        for (i, element) in elements.enumerated() {
            guard case .uid(let uid) = element else {
                throw KeyedArchiveError(.notAReference(found: Self.inlineDescription(element)), objectIndex: currentObjectIndex,
                                        keyPath: currentKeyPath.appending(key).appending(i))
            }
            guard uid < UInt64(archive.objects.count) else {
                throw KeyedArchiveError(.referenceOutOfRange(uid, objectCount: archive.objects.count), objectIndex: currentObjectIndex,
                                        keyPath: currentKeyPath.appending(key).appending(i))
            }
            out.append(Int(uid))
        }
        return out
    }

    private func archiveClassName() -> String {
        guard let index = currentObjectIndex, case .dictionary(let fields) = archive.objects[index],
              case .uid(let c)? = fields["$class"], let cls = classCache[Int(c)] else { return "object" }
        return cls.name
    }

    /// Runs `body` with object `index` as the current container, after checking for a cycle,
    /// the depth limit and the expansion limit.
    func within<R>(_ index: Int, path: PropertyListPath, _ body: () throws(KeyedArchiveError) -> R) throws(KeyedArchiveError) -> R {
        guard !inProgress[index] else { throw KeyedArchiveError(.cycle(objectIndex: index), objectIndex: index, keyPath: path) }
        guard frames.count <= limits.maximumDepth else {
            throw KeyedArchiveError(.tooDeep(limit: limits.maximumDepth), objectIndex: index, keyPath: path)
        }
        guard frames.count < StackGuard.uncheckedDepth || stack.hasRoom() else {
            throw KeyedArchiveError(.stackExhausted(depth: frames.count), objectIndex: index, keyPath: path)
        }
        decodedObjects += 1
        guard decodedObjects <= limits.maximumDecodedObjects else {
            throw KeyedArchiveError(.expansionLimit(limit: limits.maximumDecodedObjects), objectIndex: index, keyPath: path)
        }
        let fields: OrderedDictionary<String, PropertyList>
        if case .dictionary(let d) = archive.objects[index] { fields = d } else { fields = [:] }
        inProgress[index] = true
        frames.append(Frame(objectIndex: index, fields: fields, path: path))
        defer {
            frames.removeLast()
            inProgress[index] = false
        }
        return try body()
    }

    /// Whether object `index` is being decoded (a reference to it now is a cycle).
    func isInProgress(_ index: Int) -> Bool { inProgress[index] }

    /// How many objects this unarchiver has decoded, shared ones counted once per use.
    var decodedCount: Int { decodedObjects }

    /// Counts `count` decoded objects against the expansion limit.
    func countDecoded(_ count: Int, at index: Int, path: PropertyListPath) throws(KeyedArchiveError) {
        decodedObjects += count
        guard decodedObjects <= limits.maximumDecodedObjects else {
            throw KeyedArchiveError(.expansionLimit(limit: limits.maximumDecodedObjects), objectIndex: index, keyPath: path)
        }
    }

    /// The class of object `index`: `NSString`, `NSNumber`, `NSData` or `NSDate` for plain
    /// values, the class dictionary's names for an object.
    func objectClass(at index: Int, path: PropertyListPath) throws(KeyedArchiveError) -> ResolvedClass {
        switch archive.objects[index] {
        case .string: return ResolvedClass(name: "NSString", chain: ["NSString", "NSObject"])
        case .integer, .unsignedInteger, .real, .bool: return ResolvedClass(name: "NSNumber", chain: ["NSNumber", "NSValue", "NSObject"])
        case .data: return ResolvedClass(name: "NSData", chain: ["NSData", "NSObject"])
        case .date: return ResolvedClass(name: "NSDate", chain: ["NSDate", "NSObject"])
        case .array, .uid:
            throw KeyedArchiveError(.malformedObject("object \(index) is \(archive.objects[index].typeNameWithArticle), which is not an object"),
                                    objectIndex: index, keyPath: path)
        case .dictionary(let fields):
            guard let classField = fields["$class"] else {
                throw KeyedArchiveError(.malformedObject("object \(index) is a dictionary without $class"), objectIndex: index, keyPath: path)
            }
            guard case .uid(let uid) = classField else {
                throw KeyedArchiveError(.malformedClass("$class is \(classField.typeNameWithArticle), not a reference"),
                                        objectIndex: index, keyPath: path.appending("$class"))
            }
            guard uid < UInt64(archive.objects.count) else {
                throw KeyedArchiveError(.referenceOutOfRange(uid, objectCount: archive.objects.count), objectIndex: index, keyPath: path.appending("$class"))
            }
            let classIndex = Int(uid)
            if let cached = classCache[classIndex] { return cached }
            let resolved = try readClass(at: classIndex, from: index, path: path)
            classCache[classIndex] = resolved
            return resolved
        }
    }

    private func readClass(at classIndex: Int, from index: Int, path: PropertyListPath) throws(KeyedArchiveError) -> ResolvedClass {
        func malformed(_ what: String) -> KeyedArchiveError {
            KeyedArchiveError(.malformedClass("$class refers to object \(classIndex), \(what)"), objectIndex: index, keyPath: path.appending("$class"))
        }
        guard case .dictionary(let entries) = archive.objects[classIndex] else {
            throw malformed("which is \(archive.objects[classIndex].typeNameWithArticle), not a {$classname, $classes} dictionary")
        }
        guard case .string(let rawName)? = entries["$classname"] else { throw malformed("which has no $classname string") }
        var chain: [String] = []
        switch entries["$classes"] {
        case nil: chain = [rawName]
        case .array(let names)?:
            for name in names {
                guard case .string(let s) = name else { throw malformed("whose $classes holds \(name.typeNameWithArticle), not a string") }
                chain.append(s)
            }
        case let other?: throw malformed("whose $classes is \(other.typeNameWithArticle), not an array")
        }
        if chain.first != rawName { chain.insert(rawName, at: 0) }
        return ResolvedClass(name: rawName, chain: chain.map { classNameSubstitutions[$0] ?? $0 })
    }

    /// The first class of `cls`'s chain that `known` accepts, as Apple's unarchiver falls back
    /// along `$classes` to a class it has; `nil` when none.
    func resolve(_ cls: ResolvedClass, known: (String) -> Bool) -> String? {
        cls.chain.first(where: known)
    }

    /// Decodes object `index` as `T`, or returns the `T` already decoded from it.
    private func decodeObject<T: KeyedUnarchivable>(of type: T.Type, at index: Int, path: PropertyListPath) throws(KeyedArchiveError) -> T {
        let key = InstanceKey(index: index, type: ObjectIdentifier(T.self))
        if let cached = instanceCache[key] as? T { return cached }
        guard !inProgress[index] else { throw KeyedArchiveError(.cycle(objectIndex: index), objectIndex: index, keyPath: path) }
        let cls = try objectClass(at: index, path: path)
        let wanted = T.archiveClass.name
        let resolved = resolve(cls) { $0 == wanted || (ArchiveClass.foundationByName[$0] != nil && $0 != "NSObject") }
        guard resolved == wanted else {
            throw KeyedArchiveError(.classNotAllowed(className: resolved ?? cls.name, allowed: [wanted]), objectIndex: index, keyPath: path)
        }
        guard case .dictionary = archive.objects[index] else {
            throw KeyedArchiveError(.typeMismatch(expected: Self.article(wanted), found: Self.article(cls.name)), objectIndex: index, keyPath: path)
        }
        let object = try within(index, path: path) { () throws(KeyedArchiveError) -> T in try T(from: self) }
        instanceCache[key] = object
        return object
    }

    /// "an NSString", "a DataPackage".
    static func article(_ name: String) -> String {
        (name.first.map { "AEIOUN".contains($0) } ?? false ? "an " : "a ") + name
    }

    /// How an inline field is described in messages: "an integer (7)", "a string".
    static func inlineDescription(_ value: PropertyList) -> String {
        switch value {
        case .integer(let i): return "an integer (\(i))"
        case .uid(let u): return "a reference (CF$UID \(u))"
        default: return value.typeNameWithArticle
        }
    }
}
