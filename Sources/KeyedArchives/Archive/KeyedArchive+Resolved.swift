import OrderedCollections
import PropertyLists

extension KeyedArchive {
    /// `$top` as an ordinary property list, every reference replaced by the object it names and
    /// each object's `$class` by its class name: what `plutil -unarchive` prints, so that a script
    /// can read an archive without knowing the format.
    ///
    /// ```
    /// {"root": {"$class": "NSArray", "NS.objects": ["baa", "baa", "black", "sheep"]}}
    /// ```
    ///
    /// A shared object appears at each place that refers to it; a `$null` reference becomes the
    /// string `"$null"`. Every class is accepted: the result is data, no type is instantiated.
    /// - Throws: ``KeyedArchiveError`` for a reference out of range, a malformed `$class`, a
    ///   reference cycle (a tree cannot hold one), or nesting or expansion beyond `limits`.
    public func resolvedTopLevel(limits: KeyedArchiveLimits = .init()) throws(KeyedArchiveError) -> PropertyList {
        var resolver = GraphResolver(archive: self, limits: limits)
        var out = OrderedDictionary<String, PropertyList>()
        for (key, value) in top {
            out[key] = try resolver.resolve(value, path: PropertyListPath([.key(key)]), owner: nil)
        }
        return .dictionary(out)
    }
}

/// Replaces references by the objects they name, depth first, with a cycle check, a depth
/// limit and an expansion limit (a shared object is resolved once, but counted at every use).
private struct GraphResolver {
    let archive: KeyedArchive
    let limits: KeyedArchiveLimits
    var inProgress: [Bool]
    var memo: [Int: (value: PropertyList, size: Int)] = [:]
    var depth = 0
    var total = 0
    var stack = StackGuard()

    init(archive: KeyedArchive, limits: KeyedArchiveLimits) {
        self.archive = archive
        self.limits = limits
        self.inProgress = Array(repeating: false, count: archive.objects.count)
    }

    mutating func count(_ n: Int, index: Int?, path: PropertyListPath) throws(KeyedArchiveError) {
        total += n
        guard total <= limits.maximumDecodedObjects else {
            throw KeyedArchiveError(.expansionLimit(limit: limits.maximumDecodedObjects), objectIndex: index, keyPath: path)
        }
    }

    /// A value found inside object `owner` (or `$top`), with the references in it resolved.
    mutating func resolve(_ value: PropertyList, path: PropertyListPath, owner: Int?) throws(KeyedArchiveError) -> PropertyList {
        switch value {
        case .uid(let uid):
            guard uid < UInt64(archive.objects.count) else {
                throw KeyedArchiveError(.referenceOutOfRange(uid, objectCount: archive.objects.count), objectIndex: owner, keyPath: path)
            }
            return try object(Int(uid), path: path)
        case .array(let elements):
            var out: [PropertyList] = []
            out.reserveCapacity(elements.count)
            for (i, element) in elements.enumerated() { out.append(try resolve(element, path: path.appending(i), owner: owner)) }
            return .array(out)
        case .dictionary(let entries):
            var out = OrderedDictionary<String, PropertyList>(minimumCapacity: entries.count)
            for (key, element) in entries { out[key] = try resolve(element, path: path.appending(key), owner: owner) }
            return .dictionary(out)
        default:
            return value
        }
    }

    mutating func object(_ index: Int, path: PropertyListPath) throws(KeyedArchiveError) -> PropertyList {
        if index == 0 { return .string(KeyedArchive.nullMarker) }
        if let done = memo[index] {
            try count(done.size, index: index, path: path)
            return done.value
        }
        guard !inProgress[index] else { throw KeyedArchiveError(.cycle(objectIndex: index), objectIndex: index, keyPath: path) }
        guard depth < limits.maximumDepth else { throw KeyedArchiveError(.tooDeep(limit: limits.maximumDepth), objectIndex: index, keyPath: path) }
        guard depth < StackGuard.uncheckedDepth || stack.hasRoom() else {
            throw KeyedArchiveError(.stackExhausted(depth: depth), objectIndex: index, keyPath: path)
        }
        let before = total
        try count(1, index: index, path: path)
        inProgress[index] = true
        depth += 1
        defer {
            inProgress[index] = false
            depth -= 1
        }
        let value: PropertyList
        switch archive.objects[index] {
        case .dictionary(let fields):
            var out = OrderedDictionary<String, PropertyList>(minimumCapacity: fields.count)
            for (key, field) in fields {
                if key == "$class", case .uid(let classIndex) = field {
                    out[key] = .string(try className(Int(clamping: classIndex), of: index, path: path))
                } else {
                    out[key] = try resolve(field, path: path.appending(key), owner: index)
                }
            }
            value = .dictionary(out)
        case let other:
            value = try resolve(other, path: path, owner: index)
        }
        memo[index] = (value, total - before)
        return value
    }

    func className(_ classIndex: Int, of index: Int, path: PropertyListPath) throws(KeyedArchiveError) -> String {
        guard classIndex < archive.objects.count else {
            throw KeyedArchiveError(.referenceOutOfRange(UInt64(classIndex), objectCount: archive.objects.count), objectIndex: index,
                                    keyPath: path.appending("$class"))
        }
        guard case .dictionary(let entries) = archive.objects[classIndex], case .string(let name)? = entries["$classname"] else {
            throw KeyedArchiveError(.malformedClass("$class refers to object \(classIndex), which is \(archive.objects[classIndex].typeNameWithArticle),"
                                                    + " not a {$classname, $classes} dictionary"), objectIndex: index, keyPath: path.appending("$class"))
        }
        return name
    }
}
