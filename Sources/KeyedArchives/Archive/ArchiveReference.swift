/// A reference to an object in an archive's `$objects` (a `CF$UID`), for decoding an object
/// later instead of while its referrer is being decoded: how a type with a back reference (a
/// child naming its parent) reads an archive that has a reference cycle.
public struct ArchiveReference: Sendable, Hashable, CustomStringConvertible {
    /// The index in `$objects`; 0 is `$null`.
    public var index: Int

    /// Creates a reference.
    public init(index: Int) { self.index = index }

    /// The `$null` reference, written for an absent object.
    public static let null = ArchiveReference(index: 0)

    /// Whether this is the `$null` reference.
    public var isNull: Bool { index == 0 }

    /// `CF$UID N`.
    public var description: String { "CF$UID \(index)" }
}
