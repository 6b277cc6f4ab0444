/// A type that writes itself into a keyed archive as an object of a named class: the Swift
/// form of `NSCoding`'s `encodeWithCoder:`.
///
/// ```swift
/// struct Person: KeyedCoding {
///     static let archiveClass = ArchiveClass("ENHPerson")
///     var name: String
///     func encode(with archiver: KeyedArchiver) throws(KeyedArchiveError) {
///         archiver.encode(name, forKey: "name")
///     }
///     init(from unarchiver: KeyedUnarchiver) throws(KeyedArchiveError) {
///         guard let name = try unarchiver.decodeString(forKey: "name") else {
///             throw unarchiver.failure(.missingValue(key: "name"))
///         }
///         self.name = name
///     }
/// }
/// ```
///
/// A class instance encoded twice is written once and referred to twice, as NSKeyedArchiver
/// does; so is a class instance that refers back to itself (a reference cycle).
public protocol KeyedArchivable {
    /// The class the archive names (`$classname`, `$classes`), exactly as a reader expects it.
    static var archiveClass: ArchiveClass { get }

    /// Writes the object's fields with the `encode…(forKey:)` methods of `archiver`.
    /// - Throws: ``KeyedArchiveError`` from a field that cannot be encoded.
    func encode(with archiver: KeyedArchiver) throws(KeyedArchiveError)
}

/// A type that reads itself from a keyed archive: the Swift form of `NSSecureCoding`'s
/// `initWithCoder:`. Decoding asks for the type by name, so an archive naming another class
/// is refused (secure decoding).
public protocol KeyedUnarchivable {
    /// The class the archive must name (`$classname`, or an entry of `$classes`).
    static var archiveClass: ArchiveClass { get }

    /// Reads the object's fields with the `decode…(forKey:)` methods of `unarchiver`.
    /// - Throws: ``KeyedArchiveError`` when a field is missing, of the wrong type, or hostile.
    init(from unarchiver: KeyedUnarchiver) throws(KeyedArchiveError)
}

/// A type that both writes itself into and reads itself from a keyed archive.
public typealias KeyedCoding = KeyedArchivable & KeyedUnarchivable
