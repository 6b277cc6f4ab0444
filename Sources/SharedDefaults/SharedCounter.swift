import SystemCalls

/// The layout of a suite's `.shm` file, mapped shared by every process using the suite. A reader
/// compares one word with the value it saw last: equal means nothing changed, with no system
/// call. Its descriptor also carries the suite's lock (`flock`): appends to the journal hold it
/// shared, merging the journal into the property list holds it exclusive.
enum SharedCounter {
    /// `DFS1`: the layout. A file of zeros is new and is claimed with a compare-and-swap.
    static let magic: UInt32 = 0x3153_4644
    static let magicOffset = 0
    /// Bumped after every append and every merge; the futex word observers sleep on.
    static let sequenceOffset = 8
    /// How many observers are asleep on the sequence word (writers wake them only when some are).
    static let waitersOffset = 12
    /// Bumped by every merge (the journal was emptied): a reader reloads the property list.
    static let generationOffset = 16
    /// The mapping's size.
    static let size = 64

    /// Claims a new file's layout, or checks an existing one's.
    static func check(_ mapping: SharedMapping, path: String) throws(SharedDefaultsError) {
        if mapping.compareExchange32(at: magicOffset, expected: 0, magic) { return }
        let found = mapping.load32(at: magicOffset)
        guard found == magic else { throw .incompatibleSharedFile(path: path, version: found) }
    }
}
