import OrderedCollections
import PropertyLists

/// An object of a class that ``ArchivedValue`` has no case for (an app's own class, or a
/// Foundation class such as `NSNotification`): its class and its fields, with object
/// references decoded.
///
/// Fields keep the order the archive has them in (which decides how a re-encoded archive numbers
/// its objects); two objects are equal when their classes and fields are, in any order, since a
/// binary archive stores fields in hash order and an XML one sorted.
public struct ArchivedObject: Sendable, Hashable {
    /// One field of the object.
    public indirect enum Field: Sendable, Hashable {
        /// A value stored in the object itself, holding no references (`encodeInteger:forKey:`,
        /// `encodeBool:forKey:`, `encodeBytes:length:forKey:`).
        case inline(PropertyList)
        /// A reference to another object (`encodeObject:forKey:`), decoded.
        case object(ArchivedValue)
        /// An inline array of references (how collection classes store their members), decoded.
        case objects([ArchivedValue])
        /// An inline array holding references among other values, each element decoded.
        case array([Field])
        /// An inline dictionary holding references somewhere in it, each value decoded.
        case dictionary(OrderedDictionary<String, Field>)
    }

    /// The class, as `$classname` and `$classes` name it.
    public var archiveClass: ArchiveClass
    /// The fields other than `$class`, in archive order.
    public var fields: OrderedDictionary<String, Field>

    /// Creates an object.
    public init(archiveClass: ArchiveClass, fields: OrderedDictionary<String, Field> = [:]) {
        self.archiveClass = archiveClass
        self.fields = fields
    }
}

extension ArchivedObject {
    /// Equal classes and equal fields, whatever their order.
    public static func == (a: ArchivedObject, b: ArchivedObject) -> Bool {
        guard a.archiveClass == b.archiveClass, a.fields.count == b.fields.count else { return false }
        return a.fields.allSatisfy { b.fields[$0.key] == $0.value }
    }

    /// Hashes the class and the fields in key order, consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(archiveClass)
        hasher.combine(fields.count)
        for key in fields.keys.sorted() {
            hasher.combine(key)
            hasher.combine(fields[key])
        }
    }
}
