/// An `NSURL` as an archive stores it: the relative string and, optionally, the base URL it is
/// relative to (`NS.relative`, `NS.base`). The two are kept as written; resolving one against
/// the other is left to the caller.
public struct ArchivedURL: Sendable, Hashable, CustomStringConvertible {
    /// `NS.relative`: the URL string, absolute when there is no base.
    public var relative: String
    /// Stored as zero or one element because a struct cannot contain itself.
    private var baseStorage: [ArchivedURL]

    /// Creates a URL.
    public init(_ relative: String, base: ArchivedURL? = nil) {
        self.relative = relative
        self.baseStorage = base.map { [$0] } ?? []
    }

    /// `NS.base`: the URL `relative` is relative to, or `nil`.
    public var base: ArchivedURL? {
        get { baseStorage.first }
        set { baseStorage = newValue.map { [$0] } ?? [] }
    }

    /// `relative -- base`, as `NSURL` describes a relative URL, or just `relative`.
    public var description: String {
        guard let base else { return relative }
        return "\(relative) -- \(base)"
    }
}
