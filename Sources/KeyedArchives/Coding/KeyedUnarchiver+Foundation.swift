import OrderedCollections
import PropertyLists

/// Decoding Foundation object graphs into ``ArchivedValue``s, with the allowed classes checked
/// at every object as `decodeObject(ofClasses:forKey:)` checks them.
extension KeyedUnarchiver {
    /// Decodes the object graph `key` refers to; `nil` when the key is absent or holds `$null`.
    ///
    /// Every object must be of a class named in `classNames` or a Foundation subclass of one
    /// (`NSMutableArray` for `NSArray`); members of arrays, sets and dictionaries are checked
    /// against the same names. Objects of classes ``ArchivedValue`` has no case for become
    /// ``ArchivedValue/object(_:)``, their fields read with property-list classes also allowed.
    /// - Throws: ``KeyedArchiveError`` for a class not allowed, a malformed object, a cycle, or
    ///   nesting or expansion beyond the limits.
    public func decodeValue(forKey key: String, allowing classNames: Set<String>) throws(KeyedArchiveError) -> ArchivedValue? {
        guard let target = try reference(forKey: key) else { return nil }
        var context = ValueContext()
        return try value(at: target, path: currentKeyPath.appending(key), allowed: context.register(classNames), &context)
    }

    /// The `NSString` `key` refers to; `nil` when absent or `$null`.
    /// - Throws: ``KeyedArchiveError/Reason/typeMismatch(expected:found:)`` for another class.
    public func decodeString(forKey key: String) throws(KeyedArchiveError) -> String? {
        try typedValue(forKey: key, className: "NSString")?.stringValue
    }

    /// The `NSData` `key` refers to; `nil` when absent or `$null`.
    /// - Throws: ``KeyedArchiveError/Reason/typeMismatch(expected:found:)`` for another class.
    public func decodeData(forKey key: String) throws(KeyedArchiveError) -> [UInt8]? {
        try typedValue(forKey: key, className: "NSData")?.dataValue
    }

    /// The `NSDate` `key` refers to; `nil` when absent or `$null`.
    /// - Throws: ``KeyedArchiveError/Reason/typeMismatch(expected:found:)`` for another class.
    public func decodeDate(forKey key: String) throws(KeyedArchiveError) -> PropertyListDate? {
        guard case .date(let d)? = try typedValue(forKey: key, className: "NSDate") else { return nil }
        return d
    }

    /// The `NSURL` `key` refers to; `nil` when absent or `$null`.
    /// - Throws: ``KeyedArchiveError/Reason/typeMismatch(expected:found:)`` for another class.
    public func decodeURL(forKey key: String) throws(KeyedArchiveError) -> ArchivedURL? {
        guard case .url(let u)? = try typedValue(forKey: key, className: "NSURL") else { return nil }
        return u
    }

    /// The `NSUUID` `key` refers to; `nil` when absent or `$null`.
    /// - Throws: ``KeyedArchiveError/Reason/typeMismatch(expected:found:)`` for another class.
    public func decodeUUID(forKey key: String) throws(KeyedArchiveError) -> ArchivedUUID? {
        guard case .uuid(let u)? = try typedValue(forKey: key, className: "NSUUID") else { return nil }
        return u
    }

    /// Decodes a `Decodable` value as Apple's `decodeDecodable(_:forKey:)` does: the property
    /// list under `key` (dictionaries, arrays, strings, numbers, data, dates) read by
    /// `PropertyListDecoder`'s rules; `nil` when the key is absent or holds `$null`.
    /// - Throws: ``KeyedArchiveError``: a class outside the property-list classes, or the type's
    ///   own `DecodingError` with its coding path appended to the key path.
    public func decodeDecodable<T: Decodable>(_ type: T.Type, forKey key: String) throws(KeyedArchiveError) -> T? {
        guard let graph = try decodeValue(forKey: key, allowing: ArchiveClass.propertyListClassNames) else { return nil }
        do { return try ArchivedValueDecoder(graph).decode(T.self) } catch {
            throw KeyedArchiveError(.decodingFailed(error.message), objectIndex: currentObjectIndex,
                                    keyPath: PropertyListPath(currentKeyPath.appending(key).components + error.path))
        }
    }

    // MARK: -

    /// The allowed-class sets in use during one decode, numbered so that a decoded object is
    /// reused only under the set it was checked against.
    struct ValueContext {
        var sets: [Set<String>] = []
        var expectations: [String?] = []
        var memo: [MemoKey: (value: ArchivedValue, size: Int)] = [:]

        struct MemoKey: Hashable {
            var index: Int
            var allowed: Int
        }

        mutating func register(_ names: Set<String>, expecting: String? = nil) -> Int {
            if let i = sets.firstIndex(of: names), expectations[i] == expecting { return i }
            sets.append(names)
            expectations.append(expecting)
            return sets.count - 1
        }
    }

    private func typedValue(forKey key: String, className: String) throws(KeyedArchiveError) -> ArchivedValue? {
        guard let target = try reference(forKey: key) else { return nil }
        var context = ValueContext()
        let allowed = context.register([className], expecting: Self.article(className))
        return try value(at: target, path: currentKeyPath.appending(key), allowed: allowed, &context)
    }

    /// Whether `name` is allowed by `names`: named, or a Foundation class whose superclass is.
    private static func permits(_ names: Set<String>, _ name: String) -> Bool {
        if names.contains(name) || names.contains("NSObject") { return true }
        return ArchiveClass.foundationByName[name]?.superclasses.contains(where: names.contains) ?? false
    }

    /// Decodes object `index` under the allowed set numbered `allowed`.
    func value(at index: Int, path: PropertyListPath, allowed: Int, _ context: inout ValueContext) throws(KeyedArchiveError) -> ArchivedValue {
        if index == 0 { return .null }
        // A reference back to an object being decoded is reported as the cycle it is, before
        // its class is looked at.
        if isInProgress(index) { throw KeyedArchiveError(.cycle(objectIndex: index), objectIndex: index, keyPath: path) }
        let names = context.sets[allowed]
        let cls = try objectClass(at: index, path: path)
        let known = cls.chain.first { names.contains($0) || ArchiveClass.foundationByName[$0] != nil }
        guard let resolved = known, Self.permits(names, resolved) else {
            let shown = known ?? cls.name
            if let expected = context.expectations[allowed] {
                throw KeyedArchiveError(.typeMismatch(expected: expected, found: Self.article(shown)), objectIndex: index, keyPath: path)
            }
            throw KeyedArchiveError(.classNotAllowed(className: shown, allowed: names.sorted()), objectIndex: index, keyPath: path)
        }
        let key = ValueContext.MemoKey(index: index, allowed: allowed)
        if let done = context.memo[key] {
            try countDecoded(done.size, at: index, path: path)
            return done.value
        }
        let before = decodedCount
        let result: ArchivedValue
        switch archive.objects[index] {
        case .string(let s): try countDecoded(1, at: index, path: path); result = .string(s)
        case .integer(let i): try countDecoded(1, at: index, path: path); result = .integer(i)
        case .unsignedInteger(let u): try countDecoded(1, at: index, path: path); result = .unsignedInteger(u)
        case .real(let r): try countDecoded(1, at: index, path: path); result = .real(r)
        case .bool(let b): try countDecoded(1, at: index, path: path); result = .bool(b)
        case .data(let d): try countDecoded(1, at: index, path: path); result = .data(d)
        case .date(let d): try countDecoded(1, at: index, path: path); result = .date(d)
        default:
            result = try within(index, path: path) { () throws(KeyedArchiveError) -> ArchivedValue in
                try self.decodeFields(as: resolved, cls, path: path, allowed: allowed, &context)
            }
        }
        context.memo[key] = (result, decodedCount - before)
        return result
    }

    /// The value of the object being decoded, an instance of `className` (a Foundation class,
    /// or any class the caller allowed).
    private func decodeFields(as className: String, _ cls: ResolvedClass, path: PropertyListPath, allowed: Int,
                              _ context: inout ValueContext) throws(KeyedArchiveError) -> ArchivedValue {
        let fields = frames[frames.count - 1].fields
        func inlineField(_ key: String) -> PropertyList? { fields[key] }
        func member(_ index: Int, _ memberPath: PropertyListPath, _ set: Int, _ context: inout ValueContext) throws(KeyedArchiveError) -> ArchivedValue {
            try value(at: index, path: memberPath, allowed: set, &context)
        }
        func members(_ key: String, _ context: inout ValueContext) throws(KeyedArchiveError) -> [ArchivedValue] {
            let refs = try memberReferences(forKey: key)
            var out: [ArchivedValue] = []
            out.reserveCapacity(refs.count)
            for (i, r) in refs.enumerated() { out.append(try member(r, path.appending(key).appending(i), allowed, &context)) }
            return out
        }
        func malformed(_ what: String, _ key: String? = nil) -> KeyedArchiveError {
            failure(.malformedObject("an \(className) \(what)"), forKey: key)
        }
        /// A referenced object that the class itself decodes with a fixed class (an `NSURL`'s
        /// string): the caller's set does not apply.
        func own(_ key: String, _ name: String, _ context: inout ValueContext) throws(KeyedArchiveError) -> ArchivedValue? {
            guard let r = try reference(forKey: key) else { return nil }
            let set = context.register([name], expecting: Self.article(name))
            return try member(r, path.appending(key), set, &context)
        }
        let mutable = className.hasPrefix("NSMutable")
        switch className {
        case "NSString", "NSMutableString":
            let text: String
            if case .string(let s)? = inlineField("NS.string") { text = s }
            else if case .data(let bytes)? = inlineField("NS.bytes") { text = String(decoding: bytes, as: UTF8.self) }
            else if let s = try own("NS.string", "NSString", &context)?.stringValue { text = s }
            else { throw malformed("without an NS.string string", "NS.string") }
            return mutable ? .mutableString(text) : .string(text)
        case "NSData", "NSMutableData":
            let bytes: [UInt8]
            if case .data(let d)? = inlineField("NS.data") { bytes = d }
            else if case .data(let d)? = inlineField("NS.bytes") { bytes = d }
            else if let d = try own("NS.data", "NSData", &context)?.dataValue { bytes = d }
            else { throw malformed("without NS.data bytes", "NS.data") }
            return mutable ? .mutableData(bytes) : .data(bytes)
        case "NSDate":
            switch inlineField("NS.time") {
            case .real(let t)?: return .date(PropertyListDate(secondsSinceReferenceDate: t))
            case .integer(let t)?: return .date(PropertyListDate(secondsSinceReferenceDate: Double(t)))
            default: throw malformed("without an NS.time number", "NS.time")
            }
        case "NSArray", "NSMutableArray":
            return .array(try members("NS.objects", &context), mutable: mutable)
        case "NSSet", "NSMutableSet":
            return .set(try members("NS.objects", &context), mutable: mutable)
        case "NSOrderedSet", "NSMutableOrderedSet":
            var items: [ArchivedValue] = []
            var i = 0
            while fields["NS.object.\(i)"] != nil {
                let key = "NS.object.\(i)"
                guard let r = try reference(forKey: key) else { items.append(.null); i += 1; continue }
                items.append(try member(r, path.appending(key), allowed, &context))
                i += 1
            }
            return .orderedSet(items, mutable: mutable)
        case "NSDictionary", "NSMutableDictionary":
            let keys = try members("NS.keys", &context)
            let values = try members("NS.objects", &context)
            guard keys.count == values.count else {
                throw malformed("with \(keys.count) NS.keys but \(values.count) NS.objects", "NS.objects")
            }
            return .dictionary(zip(keys, values).map { ArchivedValue.DictionaryEntry(key: $0, value: $1) }, mutable: mutable)
        case "NSURL":
            var base: ArchivedURL?
            if let b = try own("NS.base", "NSURL", &context) {
                guard case .url(let u) = b else { throw malformed("whose NS.base is not an NSURL", "NS.base") }
                base = u
            }
            let relative: String
            if case .string(let s)? = inlineField("NS.relative") { relative = s }
            else if let s = try own("NS.relative", "NSString", &context)?.stringValue { relative = s }
            else { throw malformed("without an NS.relative string", "NS.relative") }
            return .url(ArchivedURL(relative, base: base))
        case "NSUUID":
            guard case .data(let bytes)? = inlineField("NS.uuidbytes"), let uuid = ArchivedUUID(bytes: bytes) else {
                throw malformed("without 16 NS.uuidbytes", "NS.uuidbytes")
            }
            return .uuid(uuid)
        case "NSNull":
            return .nsNull
        case "NSValue":
            if let special = try specialValue(fields, &context, path: path) { return .value(special) }
            return .object(try genericObject(cls, fields, path: path, allowed: allowed, &context))
        default:
            return .object(try genericObject(cls, fields, path: path, allowed: allowed, &context))
        }
    }

    /// The structure an `NSValue` holds when `NS.special` names one this library knows.
    private func specialValue(_ fields: OrderedDictionary<String, PropertyList>, _ context: inout ValueContext,
                              path: PropertyListPath) throws(KeyedArchiveError) -> ArchivedNSValue? {
        guard case .integer(let special)? = fields["NS.special"] else { return nil }
        func double(_ key: String) throws(KeyedArchiveError) -> Double {
            switch fields[key] {
            case .real(let r)?: return r
            case .integer(let i)?: return Double(i)
            default: throw failure(.malformedObject("an NSValue (NS.special \(special)) without a \(key) number"), forKey: key)
            }
        }
        func text(_ key: String, _ count: Int) throws(KeyedArchiveError) -> [Double] {
            let string: String?
            if case .string(let s)? = fields[key] { string = s } else {
                guard let r = try reference(forKey: key) else { throw failure(.malformedObject("an NSValue without \(key)"), forKey: key) }
                let set = context.register(["NSString"], expecting: "an NSString")
                string = try value(at: r, path: path.appending(key), allowed: set, &context).stringValue
            }
            guard let string, let numbers = GeometryText.numbers(in: string, count: count) else {
                throw failure(.malformedObject("an NSValue whose \(key) is not \(count) numbers in braces"), forKey: key)
            }
            return numbers
        }
        func count(_ key: String) throws(KeyedArchiveError) -> UInt64 {
            let number: ArchivedValue
            switch fields[key] {
            case .integer(let i)?: number = .integer(i)
            default:
                guard let r = try reference(forKey: key) else { throw failure(.malformedObject("an NSRange without \(key)"), forKey: key) }
                let set = context.register(["NSNumber"], expecting: "an NSNumber")
                number = try value(at: r, path: path.appending(key), allowed: set, &context)
            }
            switch number {
            case .integer(let i) where i >= 0: return UInt64(i)
            case .unsignedInteger(let u): return u
            default: throw failure(.malformedObject("an NSRange whose \(key) is not a count"), forKey: key)
            }
        }
        switch special {
        case 1: let p = try text("NS.pointval", 2); return .point(x: p[0], y: p[1])
        case 2: let s = try text("NS.sizeval", 2); return .size(width: s[0], height: s[1])
        case 3: let r = try text("NS.rectval", 4); return .rect(x: r[0], y: r[1], width: r[2], height: r[3])
        case 4: return .range(location: try count("NS.rangeval.location"), length: try count("NS.rangeval.length"))
        case 10:
            return .affineTransform(a: try double("NS.atval.a"), b: try double("NS.atval.b"), c: try double("NS.atval.c"),
                                    d: try double("NS.atval.d"), tx: try double("NS.atval.tx"), ty: try double("NS.atval.ty"))
        case 11, 12:
            return .edgeInsets(top: try double("NS.edgeval.top"), left: try double("NS.edgeval.left"),
                               bottom: try double("NS.edgeval.bottom"), right: try double("NS.edgeval.right"), uiKit: special == 11)
        case 13: return .offset(horizontal: try double("NS.offset.h"), vertical: try double("NS.offset.v"))
        case 14:
            return .directionalEdgeInsets(top: try double("NS.dirEdgeVal.top"), leading: try double("NS.dirEdgeVal.leading"),
                                          bottom: try double("NS.dirEdgeVal.bottom"), trailing: try double("NS.dirEdgeVal.trailing"))
        default: return nil
        }
    }

    /// An object of a class without an ``ArchivedValue`` case: its fields, references decoded
    /// with the caller's classes and the property-list classes allowed.
    private func genericObject(_ cls: ResolvedClass, _ fields: OrderedDictionary<String, PropertyList>, path: PropertyListPath,
                               allowed: Int, _ context: inout ValueContext) throws(KeyedArchiveError) -> ArchivedObject {
        let names = context.sets[allowed].union(ArchiveClass.propertyListClassNames)
        let set = context.register(names)
        var out = OrderedDictionary<String, ArchivedObject.Field>()
        for (key, field) in fields where key != "$class" {
            out[key] = try objectField(field, path: path.appending(key), allowed: set, &context)
        }
        return ArchivedObject(archiveClass: ArchiveClass(cls.chain[0], superclasses: Array(cls.chain.dropFirst())), fields: out)
    }

    /// A field of an object without an ``ArchivedValue`` case: inline when it holds no
    /// reference, else with every reference in it (at any depth) decoded.
    private func objectField(_ field: PropertyList, path: PropertyListPath, allowed: Int,
                             _ context: inout ValueContext) throws(KeyedArchiveError) -> ArchivedObject.Field {
        guard Self.containsReference(field) else { return .inline(field) }
        switch field {
        case .uid(let uid):
            guard uid < UInt64(archive.objects.count) else {
                throw KeyedArchiveError(.referenceOutOfRange(uid, objectCount: archive.objects.count), objectIndex: currentObjectIndex, keyPath: path)
            }
            return .object(try value(at: Int(uid), path: path, allowed: allowed, &context))
        case .array(let elements):
            if elements.allSatisfy({ if case .uid = $0 { true } else { false } }) {
                var items: [ArchivedValue] = []
                items.reserveCapacity(elements.count)
                for (i, element) in elements.enumerated() {
                    guard case .object(let item) = try objectField(element, path: path.appending(i), allowed: allowed, &context) else { continue }
                    items.append(item)
                }
                return .objects(items)
            }
            var out: [ArchivedObject.Field] = []
            out.reserveCapacity(elements.count)
            for (i, element) in elements.enumerated() { out.append(try objectField(element, path: path.appending(i), allowed: allowed, &context)) }
            return .array(out)
        case .dictionary(let entries):
            var out = OrderedDictionary<String, ArchivedObject.Field>(minimumCapacity: entries.count)
            for (key, element) in entries { out[key] = try objectField(element, path: path.appending(key), allowed: allowed, &context) }
            return .dictionary(out)
        default:
            return .inline(field)
        }
    }

    /// Whether `value` is or holds a `CF$UID` reference.
    static func containsReference(_ value: PropertyList) -> Bool {
        switch value {
        case .uid: return true
        case .array(let elements): return elements.contains(where: containsReference)
        case .dictionary(let entries): return entries.values.contains(where: containsReference)
        default: return false
        }
    }
}
