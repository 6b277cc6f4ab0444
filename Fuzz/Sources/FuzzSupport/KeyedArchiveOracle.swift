import KeyedArchives
import PropertyLists

/// The keyed-archive fuzz check: read the input as an archive (binary or XML); when it reads,
/// resolve it as `plutil -unarchive` does, decode each `$top` entry as the seed's package and as a
/// Foundation value graph, and check the writers: the raw archive survives a binary round trip,
/// and a decoded graph, encoded and decoded again, is the same graph (compared resolved, as
/// property lists, where NaN equals NaN and fields are unordered: a binary archive keeps an
/// object's fields in CF's hash order, so their order, and the object numbering that follows
/// from it, is not a fixed point). Errors are fine; a crash, hang or mismatch traps.
public func checkKeyedArchive(_ start: UnsafePointer<UInt8>, _ count: Int) {
    var limits = KeyedArchiveLimits()
    limits.maximumDepth = 64             // keeps each run fast; the default limit has its own tests
    limits.maximumObjects = 4096
    limits.maximumDecodedObjects = 4096
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    guard let archive = try? KeyedArchive(parsing: bytes, limits: limits) else { return }

    _ = try? archive.resolvedTopLevel(limits: limits)

    guard let raw = try? KeyedArchive(parsing: ArchiveBinaryCheck.encode(archive), limits: limits) else {
        fatalError("our own binary archive did not read back")
    }
    precondition(raw == archive, "binary round trip changed the archive")

    let everything = ArchiveClass.foundationClassNames.union(["NSObject"])
    for key in archive.top.keys {
        let unarchiver = KeyedUnarchiver(archive: archive, limits: limits)
        _ = try? unarchiver.decodeObject(of: AppDataPackage.self, forKey: key)
        guard let value = try? KeyedUnarchiver(archive: archive, limits: limits).decodeValue(forKey: key, allowing: everything) else { continue }
        guard let first = try? KeyedArchiver.archivedData(withRootValue: value) else { continue }
        guard let again = try? KeyedUnarchiver.unarchivedValue(from: first, allowing: everything, limits: limits) else {
            fatalError("a decoded graph, encoded, did not decode")
        }
        guard let second = try? KeyedArchiver.archivedData(withRootValue: again) else { fatalError("a decoded graph did not encode") }
        let resolvedFirst = try? KeyedArchive(parsing: first, limits: limits).resolvedTopLevel(limits: limits)
        let resolvedSecond = try? KeyedArchive(parsing: second, limits: limits).resolvedTopLevel(limits: limits)
        precondition(resolvedFirst != nil && resolvedFirst == resolvedSecond, "decode(encode(value)) is not value")
    }
}

/// The archive's binary bytes (the writer cannot fail for binary).
enum ArchiveBinaryCheck {
    static func encode(_ archive: KeyedArchive) -> [UInt8] {
        (try? archive.encoded(as: .binary)) ?? []
    }
}
