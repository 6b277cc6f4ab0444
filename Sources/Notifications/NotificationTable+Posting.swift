import Atomics

// Counting a post without the table lock: an atomic increment of the name's counter, which also
// checks the slot's generation (a name released and reused meanwhile makes it fail and look
// again).
extension NotificationTable {
    /// Counts one post of `name`; the slot and its holder words to wake, or `nil` when nobody
    /// registered the name.
    func countPost(_ name: [UInt8], hash: UInt64) -> Int? {
        while true {
            guard let (slot, word) = find(name, hash: hash) else { return nil }
            let next = (word & ~Self.countMask) | ((word &+ 1) & Self.countMask)
            if counter(slot).compareExchange(expected: word, desired: next, ordering: .sequentiallyConsistent).exchanged {
                return slot
            }
            // Another post counted first, or the slot was released and reused: look again.
        }
    }
}
