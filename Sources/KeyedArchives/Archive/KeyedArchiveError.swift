import PropertyLists

/// Why an archive could not be read, decoded or written, and where: the object in `$objects`
/// and the key path from the `$top` key through the fields that led to it.
///
/// ```
/// object 2 at kENHPackageDataKey.payload: an NSString where NSData is expected
/// ```
public struct KeyedArchiveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Hashable {
        /// The bytes are not a property list this library reads.
        case propertyList(PropertyListError)
        /// The property list lacks the keyed-archive container (`$archiver`, `$version`,
        /// `$objects` starting with `$null`, `$top`); the text says which part.
        case notAnArchive(String)
        /// `$archiver` names another archiver.
        case unsupportedArchiver(String)
        /// `$version` is not 100000, the only version NSKeyedUnarchiver reads.
        case unsupportedVersion(String)
        /// `$top` has no such key; the keys it has are listed.
        case missingTopLevelKey(String, available: [String])
        /// A `CF$UID` reference beyond the end of `$objects`.
        case referenceOutOfRange(UInt64, objectCount: Int)
        /// A field expected to hold an object reference holds an inline value instead (the
        /// value's type is given).
        case notAReference(found: String)
        /// The object refers back to itself through the objects being decoded.
        case cycle(objectIndex: Int)
        /// Objects nested through references deeper than the limit.
        case tooDeep(limit: Int)
        /// Objects nested so deeply that the thread's stack would run out (at the given depth).
        case stackExhausted(depth: Int)
        /// More objects in `$objects` than the limit.
        case tooManyObjects(count: Int, limit: Int)
        /// An input larger than the limit.
        case tooLarge(bytes: Int, limit: Int)
        /// Shared objects expand to more decoded objects than the limit (a reference bomb).
        case expansionLimit(limit: Int)
        /// A `$class` reference that does not lead to a `{$classname, $classes}` dictionary.
        case malformedClass(String)
        /// The object's class is not among those the caller accepts.
        case classNotAllowed(className: String, allowed: [String])
        /// The object or field has another type than the one asked for.
        case typeMismatch(expected: String, found: String)
        /// An object of a known class lacks a field or holds a field of the wrong shape.
        case malformedObject(String)
        /// A required value is absent.
        case missingValue(key: String)
        /// A type's own decoding failed (an app type's check, or a `Decodable` type).
        case decodingFailed(String)
        /// A value could not be encoded (an `Encodable` type's failure, or nesting too deep).
        case encodingFailed(String)
    }

    /// What went wrong.
    public var reason: Reason
    /// The index in `$objects` of the object the problem is in, when known.
    public var objectIndex: Int?
    /// The path from the `$top` key through field names and array indices.
    public var keyPath: PropertyListPath

    /// Creates an error.
    public init(_ reason: Reason, objectIndex: Int? = nil, keyPath: PropertyListPath = .root) {
        self.reason = reason
        self.objectIndex = objectIndex
        self.keyPath = keyPath
    }

    /// The problem in one sentence, without the location.
    public var message: String {
        switch reason {
        case .propertyList(let error): return "not a readable property list: \(error)"
        case .notAnArchive(let what): return "not a keyed archive: \(what)"
        case .unsupportedArchiver(let name): return "$archiver is '\(name)', not NSKeyedArchiver"
        case .unsupportedVersion(let version): return "$version is \(version), not 100000"
        case .missingTopLevelKey(let key, let available):
            let have = available.isEmpty ? "no keys" : available.map { "'\($0)'" }.joined(separator: ", ")
            return "$top has no key '\(key)' (it has \(have))"
        case .referenceOutOfRange(let uid, let count):
            return "reference \(uid) is beyond the \(count) objects of the archive"
        case .notAReference(let found): return "\(found) where an object reference (CF$UID) is expected"
        case .cycle(let index): return "object \(index) contains itself (a reference cycle)"
        case .tooDeep(let limit): return "objects nested deeper than \(limit) levels"
        case .stackExhausted(let depth): return "objects nested \(depth) levels deep, more than this thread's stack allows"
        case .tooManyObjects(let count, let limit): return "\(count) objects, more than the limit of \(limit)"
        case .tooLarge(let bytes, let limit): return "\(bytes) bytes, more than the limit of \(limit)"
        case .expansionLimit(let limit): return "shared objects expand to more than \(limit) decoded objects"
        case .malformedClass(let what): return "malformed class: \(what)"
        case .classNotAllowed(let name, let allowed):
            var text = "class '\(name)' is not allowed here (allowed: \(allowed.joined(separator: ", ")))"
            if let dot = name.firstIndex(of: "."), dot != name.startIndex, !name.hasPrefix("NS") {
                text += "; '\(name)' is a module-qualified Swift class name, which macOS cannot read:"
                    + " the writer did not set a class name (map it with classNameSubstitutions)"
            }
            return text
        case .typeMismatch(let expected, let found): return "\(found) where \(expected) is expected"
        case .malformedObject(let what): return what
        case .missingValue(let key): return "no value for key '\(key)'"
        case .decodingFailed(let what): return what
        case .encodingFailed(let what): return what
        }
    }

    /// `object N at KEY.PATH: MESSAGE`, leaving out what is unknown.
    public var description: String {
        var location: [String] = []
        if let objectIndex { location.append("object \(objectIndex)") }
        if !keyPath.components.isEmpty { location.append("at \(keyPath)") }
        return location.isEmpty ? message : location.joined(separator: " ") + ": " + message
    }
}
