/// The order in which a CoreFoundation mutable dictionary enumerates its keys, which is the order
/// CF writes them into a binary plist.
///
/// CF keeps keys in an open-addressing table (CFBasicHash): a prime number of buckets chosen
/// from a fixed ladder by how many keys it holds, a key placed at `hash % buckets` or the next
/// free bucket after it (linear probing), the table rebuilt at the next size when a key would
/// exceed its capacity, re-inserting the old keys in bucket order. Enumeration walks the buckets.
/// So the order depends on the keys' hashes (``CFStringHash``) and the order they were inserted.
///
/// Fitted to, and checked against, the 9 dictionaries of the macOS-written binary fixture
/// `NSKeyedUnarchiver-ComplexTest.plist` (2 to 4 keys: 3- and 7-bucket tables). Larger tables
/// follow the same published rules but have no macOS fixture here (docs/keyed-archives.md).
enum CFDictionaryOrder {
    /// CFBasicHash's bucket counts and the most keys each holds (CFBasicHash.c, APSL).
    private static let sizes: [Int] = [0, 3, 7, 13, 23, 41, 71, 127, 191, 251, 383, 631, 1087, 1723, 2803, 4523,
                                       7351, 11959, 19447, 31231, 50683, 81919, 132607, 214519, 346607, 561109,
                                       907759, 1468927, 2376191, 3845119, 6221311]
    private static let capacities: [Int] = [0, 3, 6, 11, 19, 32, 52, 85, 118, 155, 237, 390, 672, 1065, 1732, 2795,
                                            4543, 7391, 12019, 19302, 31324, 50629, 81956, 132580, 214215, 346784,
                                            561026, 907847, 1468567, 2376414, 3844982]

    /// The positions of `keys` (given in insertion order) in enumeration order.
    static func order(_ keys: [String]) -> [Int] {
        let n = keys.count
        if n <= 1 { return Array(0..<n) }
        // Beyond the ladder's end (millions of keys in one object) order stays insertion order.
        guard n <= capacities[capacities.count - 1] else { return Array(0..<n) }
        let hashes = keys.map(CFStringHash.hash)
        var level = 0
        var table: [Int] = []
        func insert(_ key: Int, into table: inout [Int]) {
            let buckets = UInt64(table.count)
            var probe = Int(hashes[key] % buckets)
            while table[probe] >= 0 { probe = probe + 1 == table.count ? 0 : probe + 1 }
            table[probe] = key
        }
        for key in 0..<n {
            if key + 1 > capacities[level] {
                var next = level
                while capacities[next] < key + 1 { next += 1 }
                var grown = [Int](repeating: -1, count: sizes[next])
                for old in table where old >= 0 { insert(old, into: &grown) }
                table = grown
                level = next
            }
            insert(key, into: &table)
        }
        return table.filter { $0 >= 0 }
    }
}
