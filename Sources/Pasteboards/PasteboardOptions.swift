/// Options of a write (UIPasteboard's `setItems(_:options:)`).
public struct PasteboardWriteOptions: Sendable, Hashable {
    /// `UIPasteboard.OptionsKey.localOnly`: the items stay on this device. Here: the desktop
    /// bridge does not publish them to the desktop clipboard.
    public var localOnly: Bool
    /// `UIPasteboard.OptionsKey.expirationDate`, in seconds since 1970: from then on the
    /// pasteboard reads as empty.
    public var expirationDate: Double?

    /// Options for a write.
    public init(localOnly: Bool = false, expirationDate: Double? = nil) {
        self.localOnly = localOnly
        self.expirationDate = expirationDate
    }
}

/// How long a named pasteboard lives.
public enum PasteboardLifetime: String, Sendable, Hashable, CaseIterable {
    /// Until it is removed: it outlives its creator and a reboot (iOS 9 and earlier, and the
    /// system pasteboards).
    case persistent
    /// Until the last process of its creator that used it has ended (iOS 10 and later, and
    /// `withUniqueName()`): then it reads as absent and the next write or sweep removes it.
    case creatorProcesses = "creator"
}

/// Bounds on what one pasteboard holds; a write past them fails with ``PasteboardError``.
public struct PasteboardLimits: Sendable, Hashable {
    /// Bytes of all representations together (default 1 GiB).
    public var maximumBytes: Int64
    /// Items (default 10,000).
    public var maximumItems: Int
    /// Representations of one item (default 256).
    public var maximumRepresentations: Int
    /// Length of a type identifier in bytes (default 1,024).
    public var maximumTypeLength: Int

    /// Limits.
    public init(maximumBytes: Int64 = 1 << 30, maximumItems: Int = 10_000, maximumRepresentations: Int = 256,
                maximumTypeLength: Int = 1024) {
        self.maximumBytes = maximumBytes
        self.maximumItems = maximumItems
        self.maximumRepresentations = maximumRepresentations
        self.maximumTypeLength = maximumTypeLength
    }
}
