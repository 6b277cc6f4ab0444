/// A class as an archive names it: `$classname` and the `$classes` chain (the class, then each
/// superclass up to `NSObject`).
///
/// The name is written exactly as given: an archive for an Objective-C decoder must name
/// `ENHAppDataPackage`, not the module-qualified `MyApp.DataPackage` that Swift's Foundation
/// writes on Linux.
public struct ArchiveClass: Sendable, Hashable, CustomStringConvertible {
    /// `$classname`.
    public var name: String
    /// The superclasses after `name`, nearest first, ending with `NSObject` by convention.
    public var superclasses: [String]

    /// Creates a class; the default chain is `[name, "NSObject"]`.
    public init(_ name: String, superclasses: [String] = ["NSObject"]) {
        self.name = name
        self.superclasses = superclasses
    }

    /// `$classes`: the class followed by its superclasses.
    public var chain: [String] { [name] + superclasses }

    /// The class name.
    public var description: String { name }
}

extension ArchiveClass {
    /// `NSString`.
    public static let string = ArchiveClass("NSString")
    /// `NSMutableString`.
    public static let mutableString = ArchiveClass("NSMutableString", superclasses: ["NSString", "NSObject"])
    /// `NSData`.
    public static let data = ArchiveClass("NSData")
    /// `NSMutableData`.
    public static let mutableData = ArchiveClass("NSMutableData", superclasses: ["NSData", "NSObject"])
    /// `NSNumber` (a plain number or boolean in `$objects`).
    public static let number = ArchiveClass("NSNumber", superclasses: ["NSValue", "NSObject"])
    /// `NSDate`.
    public static let date = ArchiveClass("NSDate")
    /// `NSArray`.
    public static let array = ArchiveClass("NSArray")
    /// `NSMutableArray`.
    public static let mutableArray = ArchiveClass("NSMutableArray", superclasses: ["NSArray", "NSObject"])
    /// `NSDictionary`.
    public static let dictionary = ArchiveClass("NSDictionary")
    /// `NSMutableDictionary`.
    public static let mutableDictionary = ArchiveClass("NSMutableDictionary", superclasses: ["NSDictionary", "NSObject"])
    /// `NSSet`.
    public static let set = ArchiveClass("NSSet")
    /// `NSMutableSet`.
    public static let mutableSet = ArchiveClass("NSMutableSet", superclasses: ["NSSet", "NSObject"])
    /// `NSOrderedSet`.
    public static let orderedSet = ArchiveClass("NSOrderedSet")
    /// `NSMutableOrderedSet`.
    public static let mutableOrderedSet = ArchiveClass("NSMutableOrderedSet", superclasses: ["NSOrderedSet", "NSObject"])
    /// `NSURL`.
    public static let url = ArchiveClass("NSURL")
    /// `NSUUID`.
    public static let uuid = ArchiveClass("NSUUID")
    /// `NSValue` (points, sizes, rectangles, ranges, insets and other C structures).
    public static let value = ArchiveClass("NSValue")
    /// `NSNull`.
    public static let null = ArchiveClass("NSNull")

    /// Every Foundation class this library decodes into ``ArchivedValue`` cases.
    public static let foundationClasses: [ArchiveClass] = [
        .string, .mutableString, .data, .mutableData, .number, .date, .array, .mutableArray,
        .dictionary, .mutableDictionary, .set, .mutableSet, .orderedSet, .mutableOrderedSet,
        .url, .uuid, .value, .null,
    ]

    /// The Foundation classes a property list is made of (what `decodeDecodable` accepts, as
    /// Apple's `PropertyListDecoder` path does): strings, numbers, data, dates, arrays, dictionaries.
    public static let propertyListClassNames: Set<String> = [
        "NSString", "NSNumber", "NSData", "NSDate", "NSArray", "NSDictionary",
    ]

    /// The names of ``foundationClasses``.
    public static let foundationClassNames: Set<String> = Set(foundationClasses.map(\.name))

    /// The Foundation class a built-in name resolves to, by name.
    static let foundationByName: [String: ArchiveClass] = Dictionary(uniqueKeysWithValues: foundationClasses.map { ($0.name, $0) })
}
