import Hashing
import SystemCalls

/// An item's canonical path and the hashes of its prefixes ("/a", "/a/b", "/a/b/c"): two items
/// are related (one contains the other, or they are the same) when the shorter one's hash is the
/// longer one's prefix hash at that depth. 64-bit FNV-1a. Items deeper than ``maximumDepth``
/// components are told apart by their first 32 only: two such items in one folder at that depth
/// coordinate as one (a wait that was not needed, never a conflict missed).
struct ItemPath: Sendable, Hashable {
    static let maximumDepth = 32

    /// The canonical path.
    var path: String
    /// The prefix hashes, one per component (none for `/`).
    var hashes: [UInt64]

    init(canonical path: String) {
        self.path = path
        var hashes: [UInt64] = []
        // The hash of each ancestor's path is a prefix of the running hash.
        var hasher = FNV1a64()
        var components = 0
        for byte in path.utf8 {
            if byte == 0x2F {
                if components > 0 && hashes.count < Self.maximumDepth { hashes.append(hasher.value) }
                components += 1
            }
            hasher.combine(byte)
        }
        if path != "/" {
            if hashes.count < Self.maximumDepth { hashes.append(hasher.value) }
        }
        self.hashes = hashes
    }

    /// `path` made canonical (``CanonicalPath``).
    init(_ path: String) throws(CoordinationError) {
        do { self.init(canonical: try CanonicalPath.resolve(path)) } catch { throw .system(error) }
    }

    /// Whether this item is `other` or contains it.
    func contains(_ other: ItemPath) -> Bool { Self.contains(hashes, other.hashes) }

    static func contains(_ outer: [UInt64], _ inner: [UInt64]) -> Bool {
        if outer.isEmpty { return true }
        guard outer.count <= inner.count else { return false }
        return inner[outer.count - 1] == outer[outer.count - 1]
    }

    static func related(_ a: [UInt64], _ b: [UInt64]) -> Bool { contains(a, b) || contains(b, a) }
}
