/// How a coordinated read treats the item (`NSFileCoordinator.ReadingOptions`).
public struct ReadingOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Read what is on disk now: presenters are not asked to save first.
    public static let withoutChanges = ReadingOptions(rawValue: 1 << 0)
    /// A symbolic link is read as its target (the target is coordinated, not the link).
    public static let resolvesSymbolicLink = ReadingOptions(rawValue: 1 << 1)
    /// Only metadata already available is read (accepted; the same as a read here).
    public static let immediatelyAvailableMetadataOnly = ReadingOptions(rawValue: 1 << 2)
    /// For uploading (accepted; the same as a read here: there is no archive step).
    public static let forUploading = ReadingOptions(rawValue: 1 << 3)
}

/// How a coordinated write treats the item (`NSFileCoordinator.WritingOptions`).
public struct WritingOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The item will be deleted: presenters are asked to accommodate the deletion instead of
    /// saving.
    public static let forDeleting = WritingOptions(rawValue: 1 << 0)
    /// The item will be moved: call ``FileCoordinator/item(at:didMoveTo:)`` after moving it.
    public static let forMoving = WritingOptions(rawValue: 1 << 1)
    /// The contents will be merged with what is there.
    public static let forMerging = WritingOptions(rawValue: 1 << 2)
    /// The item will be replaced by another.
    public static let forReplacing = WritingOptions(rawValue: 1 << 3)
    /// Only metadata that does not depend on the contents changes.
    public static let contentIndependentMetadataOnly = WritingOptions(rawValue: 1 << 4)
}

/// One item of a ``FileCoordinator/coordinate(with:byAccessor:)`` call
/// (`NSFileAccessIntent`).
public struct FileAccessIntent: Sendable, Hashable {
    /// What is done to the item.
    public enum Access: Sendable, Hashable {
        case reading(ReadingOptions)
        case writing(WritingOptions)
    }

    /// The item's path.
    public var path: String
    /// What is done to it.
    public var access: Access

    /// Reading the item at `path`. `NSFileAccessIntent.readingIntent(with:options:)`.
    public static func reading(_ path: String, options: ReadingOptions = []) -> FileAccessIntent {
        FileAccessIntent(path: path, access: .reading(options))
    }

    /// Writing the item at `path`. `NSFileAccessIntent.writingIntent(with:options:)`.
    public static func writing(_ path: String, options: WritingOptions = []) -> FileAccessIntent {
        FileAccessIntent(path: path, access: .writing(options))
    }

    var isWriting: Bool { if case .writing = access { true } else { false } }
}
