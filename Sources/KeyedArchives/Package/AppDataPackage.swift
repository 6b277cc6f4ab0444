/// The data package of the "Open In"/pasteboard channel in seed 000: the source application's
/// name, identifier, version and build, and a payload, archived as the Objective-C class
/// `ENHAppDataPackage` under the key `kENHPackageDataKey` (the seed's `dataRepresentation`).
///
/// ```swift
/// let package = AppDataPackage(sourceApplicationName: "Person Editor", sourceApplicationIdentifier: "com.EnharmonicHQ.Editor",
///                              sourceApplicationVersion: "1.0", sourceApplicationBuild: "42", payload: bytes)
/// let archive = try package.dataRepresentation()             // what the seed puts on its pasteboard
/// let back = try AppDataPackage(unarchiving: archive)
/// ```
public struct AppDataPackage: KeyedCoding, Sendable, Hashable {
    /// `ENHAppDataPackage`, a direct subclass of `NSObject`.
    public static let archiveClass = ArchiveClass("ENHAppDataPackage")
    /// The `$top` key the seed archives the package under.
    public static let archiveKey = "kENHPackageDataKey"

    /// The field names, as the seed's `encodeWithCoder:` writes them.
    public enum Key {
        /// `sourceApplicationName`.
        public static let sourceApplicationName = "sourceApplicationName"
        /// `sourceApplicationIdentifier`.
        public static let sourceApplicationIdentifier = "sourceApplicationIdentifier"
        /// `sourceApplicationVersion`.
        public static let sourceApplicationVersion = "sourceApplicationVersion"
        /// `sourceApplicationBuild`.
        public static let sourceApplicationBuild = "sourceApplicationBuild"
        /// `payload`.
        public static let payload = "payload"
    }

    /// The source app's display name (`CFBundleDisplayName`).
    public var sourceApplicationName: String
    /// The source app's bundle identifier (`CFBundleIdentifier`).
    public var sourceApplicationIdentifier: String
    /// The source app's version (`CFBundleShortVersionString`).
    public var sourceApplicationVersion: String
    /// The source app's build (`CFBundleVersion`).
    public var sourceApplicationBuild: String
    /// The data carried.
    public var payload: [UInt8]

    /// Creates a package.
    public init(sourceApplicationName: String, sourceApplicationIdentifier: String, sourceApplicationVersion: String,
                sourceApplicationBuild: String, payload: [UInt8]) {
        self.sourceApplicationName = sourceApplicationName
        self.sourceApplicationIdentifier = sourceApplicationIdentifier
        self.sourceApplicationVersion = sourceApplicationVersion
        self.sourceApplicationBuild = sourceApplicationBuild
        self.payload = payload
    }

    /// Writes the five fields in the seed's order: four `NSString`s, then the `NSData` payload.
    public func encode(with archiver: KeyedArchiver) throws(KeyedArchiveError) {
        archiver.encode(sourceApplicationName, forKey: Key.sourceApplicationName)
        archiver.encode(sourceApplicationIdentifier, forKey: Key.sourceApplicationIdentifier)
        archiver.encode(sourceApplicationVersion, forKey: Key.sourceApplicationVersion)
        archiver.encode(sourceApplicationBuild, forKey: Key.sourceApplicationBuild)
        archiver.encode(data: payload, forKey: Key.payload)
    }

    /// Reads the five fields, each required and of its class.
    /// - Throws: ``KeyedArchiveError`` naming the missing or mistyped field.
    public init(from unarchiver: KeyedUnarchiver) throws(KeyedArchiveError) {
        func string(_ key: String) throws(KeyedArchiveError) -> String {
            guard let value = try unarchiver.decodeString(forKey: key) else { throw unarchiver.failure(.missingValue(key: key), forKey: key) }
            return value
        }
        sourceApplicationName = try string(Key.sourceApplicationName)
        sourceApplicationIdentifier = try string(Key.sourceApplicationIdentifier)
        sourceApplicationVersion = try string(Key.sourceApplicationVersion)
        sourceApplicationBuild = try string(Key.sourceApplicationBuild)
        guard let payload = try unarchiver.decodeData(forKey: Key.payload) else {
            throw unarchiver.failure(.missingValue(key: Key.payload), forKey: Key.payload)
        }
        self.payload = payload
    }

    /// The package archived under ``archiveKey``, as the seed's `dataRepresentation` does.
    /// - Throws: ``KeyedArchiveError`` only for XML that cannot carry a string.
    public func dataRepresentation(format: ArchiveFormat = .binary) throws(KeyedArchiveError) -> [UInt8] {
        let archiver = KeyedArchiver()
        try archiver.encode(self, forKey: Self.archiveKey)
        return try archiver.encodedData(format: format)
    }

    /// Reads a package archived under `key` (``archiveKey`` unless the writer used "root").
    /// - Parameter classNameSubstitutions: other names to accept for the class, such as the
    ///   module-qualified name Foundation on Linux writes: `["MyApp.DataPackage": "ENHAppDataPackage"]`.
    /// - Throws: ``KeyedArchiveError`` with the object and key path of the first problem.
    public init(unarchiving bytes: [UInt8], forKey key: String = AppDataPackage.archiveKey,
                classNameSubstitutions: [String: String] = [:], limits: KeyedArchiveLimits = .init()) throws(KeyedArchiveError) {
        self = try KeyedUnarchiver.unarchivedObject(of: AppDataPackage.self, from: bytes, forKey: key,
                                                    classNameSubstitutions: classNameSubstitutions, limits: limits)
    }
}
