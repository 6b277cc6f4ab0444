import OrderedCollections
import PropertyLists

/// An NSKeyedArchiver archive as stored: the flat `$objects` table (index 0 is `$null`, objects
/// refer to each other by `CF$UID`) and the `$top` fields that name the root objects.
///
/// Two archives are equal when their objects and `$top` are, key order aside (as with
/// ``PropertyList``): a binary archive keeps keys in CF's hash order, an XML one sorted.
///
/// This is the lossless form, reference cycles and shared objects included; ``KeyedUnarchiver``
/// decodes objects out of it, ``KeyedArchiver`` builds one, and ``resolvedTopLevel(limits:)``
/// turns it into an ordinary property list for scripts (`plutil -unarchive`).
///
/// ```swift
/// let archive = try KeyedArchive(parsing: bytes)         // binary or XML
/// print(archive.top.keys, archive.objects.count)
/// let again = try archive.encoded(as: .binary)
/// ```
public struct KeyedArchive: Sendable, Hashable {
    /// The `$archiver` value every archive carries.
    public static let archiverName = "NSKeyedArchiver"
    /// The `$version` value every archive carries.
    public static let version: Int64 = 100_000
    /// The string at `$objects[0]`, which reference 0 names.
    public static let nullMarker = "$null"

    /// `$objects`: index 0 is `$null`; objects are plain values (strings, numbers, data) or
    /// dictionaries with a `$class` reference.
    public var objects: [PropertyList]
    /// `$top`: the root fields, in the order they were encoded (usually references).
    public var top: OrderedDictionary<String, PropertyList>

    /// Creates an archive from its parts.
    public init(objects: [PropertyList] = [.string(KeyedArchive.nullMarker)], top: OrderedDictionary<String, PropertyList> = [:]) {
        self.objects = objects
        self.top = top
    }

    /// Reads an archive from binary or XML property-list bytes.
    /// - Throws: ``KeyedArchiveError`` when the bytes are not a property list, or not a keyed
    ///   archive (with the part that is wrong), or exceed `limits`.
    public init(parsing bytes: [UInt8], limits: KeyedArchiveLimits = .init()) throws(KeyedArchiveError) {
        guard bytes.count <= limits.maximumBytes else {
            throw KeyedArchiveError(.tooLarge(bytes: bytes.count, limit: limits.maximumBytes))
        }
        var options = PropertyListReadOptions()
        // An archive's plist is flat (objects refer to each other by UID), but a large one has
        // many shared strings: allow the table to expand by the same factor the reader allows.
        options.maximumExpandedNodes = max(options.maximumExpandedNodes, min(limits.maximumObjects, bytes.count) * 8)
        let value: PropertyList
        do { value = try PropertyListReader.read(bytes, options: options).value } catch {
            throw KeyedArchiveError(.propertyList(error))
        }
        try self.init(propertyList: value, limits: limits)
    }

    /// Reads an archive from a property list already parsed.
    /// - Throws: ``KeyedArchiveError`` naming the part of the container that is missing or wrong.
    public init(propertyList: PropertyList, limits: KeyedArchiveLimits = .init()) throws(KeyedArchiveError) {
        guard case .dictionary(let root) = propertyList else {
            throw KeyedArchiveError(.notAnArchive("the top level is \(propertyList.typeNameWithArticle), not a dictionary"))
        }
        guard let archiver = root["$archiver"] else { throw KeyedArchiveError(.notAnArchive("there is no $archiver key")) }
        guard case .string(let name) = archiver else {
            throw KeyedArchiveError(.notAnArchive("$archiver is \(archiver.typeNameWithArticle), not a string"), keyPath: [.key("$archiver")])
        }
        guard name == Self.archiverName else { throw KeyedArchiveError(.unsupportedArchiver(name), keyPath: [.key("$archiver")]) }
        switch root["$version"] {
        case .integer(Self.version)?: break
        case .integer(let other)?: throw KeyedArchiveError(.unsupportedVersion(String(other)), keyPath: [.key("$version")])
        case let other?: throw KeyedArchiveError(.unsupportedVersion(other.typeNameWithArticle), keyPath: [.key("$version")])
        case nil: throw KeyedArchiveError(.notAnArchive("there is no $version key"))
        }
        guard case .array(let objects)? = root["$objects"] else {
            throw KeyedArchiveError(.notAnArchive(root["$objects"] == nil ? "there is no $objects array"
                : "$objects is \(root["$objects"]!.typeNameWithArticle), not an array"), keyPath: [.key("$objects")])
        }
        guard objects.count <= limits.maximumObjects else {
            throw KeyedArchiveError(.tooManyObjects(count: objects.count, limit: limits.maximumObjects), keyPath: [.key("$objects")])
        }
        guard objects.first == .string(Self.nullMarker) else {
            throw KeyedArchiveError(.notAnArchive("$objects[0] is not the string $null"), objectIndex: 0, keyPath: [.key("$objects")])
        }
        guard case .dictionary(let top)? = root["$top"] else {
            throw KeyedArchiveError(.notAnArchive(root["$top"] == nil ? "there is no $top dictionary"
                : "$top is \(root["$top"]!.typeNameWithArticle), not a dictionary"), keyPath: [.key("$top")])
        }
        self.objects = objects
        self.top = top
    }

    /// The archive as the property list it is stored as.
    public var propertyList: PropertyList {
        .dictionary([
            "$archiver": .string(Self.archiverName),
            "$objects": .array(objects),
            "$top": .dictionary(top),
            "$version": .integer(Self.version),
        ])
    }

    /// The archive's bytes: binary with CoreFoundation's object-table layout for keyed archives
    /// (see ``ArchiveBinaryWriter``), or XML as CoreFoundation writes it (sorted keys, tabs).
    /// - Throws: ``KeyedArchiveError/Reason/encodingFailed(_:)`` when XML cannot carry a value
    ///   (a control character in a string, a date outside the years 0000–9999).
    public func encoded(as format: ArchiveFormat) throws(KeyedArchiveError) -> [UInt8] {
        switch format {
        case .binary: return ArchiveBinaryWriter().write(self)
        case .xml:
            do { return try XMLPropertyListWriter().write(propertyList) } catch {
                throw KeyedArchiveError(.encodingFailed("cannot write XML: \(error.message)"), keyPath: error.keyPath)
            }
        }
    }
}

extension KeyedArchive {
    /// Equal objects and equal `$top` entries, in any key order.
    public static func == (a: KeyedArchive, b: KeyedArchive) -> Bool {
        a.objects == b.objects && PropertyList.dictionary(a.top) == PropertyList.dictionary(b.top)
    }

    /// Hashes consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(objects)
        hasher.combine(PropertyList.dictionary(top))
    }
}
