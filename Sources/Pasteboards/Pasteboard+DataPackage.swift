import KeyedArchives

// The pasteboard half of seed 000's channel: the source app archives its data package
// (NSKeyedArchiver, `AppDataPackage`), writes it to a named pasteboard under its own type, and
// opens the target through its URL scheme (another module); the target finds the pasteboard by
// name, reads the archive and unarchives it.
extension Pasteboard {
    /// Replaces the items with `package`, archived, under `type` (the source app's own type,
    /// `com.example.editor.datapackage`); the new change count.
    @discardableResult
    public func setDataPackage(_ package: AppDataPackage, type: String, options: PasteboardWriteOptions = PasteboardWriteOptions()) throws(PasteboardDataPackageError) -> Int {
        let archive: [UInt8]
        do { archive = try package.dataRepresentation() } catch { throw .archive(error) }
        do { return try setData(archive, forPasteboardType: type, options: options) } catch { throw .pasteboard(error) }
    }

    /// The data package stored under `type` (or a type conforming to it), unarchived; `nil` when
    /// no representation answers `type`.
    public func dataPackage(type: String) throws(PasteboardDataPackageError) -> AppDataPackage? {
        let bytes: [UInt8]?
        do { bytes = try data(forPasteboardType: type) } catch { throw .pasteboard(error) }
        guard let bytes else { return nil }
        do { return try AppDataPackage(unarchiving: bytes) } catch { throw .archive(error) }
    }
}

/// Why a data package could not be put on or taken from a pasteboard.
public enum PasteboardDataPackageError: Error, Sendable, CustomStringConvertible {
    /// The pasteboard failed.
    case pasteboard(PasteboardError)
    /// The archive could not be written or read.
    case archive(KeyedArchiveError)

    /// One sentence.
    public var description: String {
        switch self {
        case .pasteboard(let error): error.description
        case .archive(let error): "data package: \(error)"
        }
    }
}
