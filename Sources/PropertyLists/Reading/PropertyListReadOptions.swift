/// Settings shared by every property-list reader.
public struct PropertyListReadOptions: Sendable, Hashable {
    /// How deeply arrays and dictionaries may nest before the input is rejected.
    /// Deeper input is refused with an error rather than risking the stack.
    public var maximumDepth: Int = 512

    /// Whether to record where each key path starts in the source (text formats only),
    /// for tools such as a linter that report `FILE:LINE:COLUMN`.
    public var recordsLocations: Bool = false

    /// The most nodes a binary plist may expand to when shared objects are counted once
    /// per reference, unless the file holds so many objects that 32 per object is more.
    /// Shared objects are decoded once, but a writer or a walk visits each reference, so a
    /// reference "bomb" (a few hundred bytes that expand to 2^48 nodes) is refused here
    /// instead of exhausting whoever consumes the tree. Ordinary uniquing (repeated keys and
    /// strings) expands a file by a small factor.
    public var maximumExpandedNodes: Int = 1 << 20

    /// Whether JSON input is read (as Apple's `plutil` reads it for `-convert`, `-p`, `-extract`
    /// and the edits) instead of refused. Off by default, as in CoreFoundation, whose property-list
    /// readers do not read JSON; `plutil -lint` leaves it off, as Apple's does.
    public var readsJSON: Bool = false

    /// Creates the default options.
    public init() {}
}
