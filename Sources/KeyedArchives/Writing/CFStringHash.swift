/// CoreFoundation's string hash (`CFHash` of a `CFString`), which decides the order in which
/// CF enumerates a dictionary and so the order of keys in a binary plist it writes.
///
/// Written by hand from CF's published description (CFString.c, APSL): the hash runs over UTF-16
/// code units, starting from the length; `h = h * 257 + unit`, taken four units at a time; strings
/// longer than 96 units hash only their first, middle and last 32; the result is folded as
/// `h + (h << (length & 31))`, all in 64-bit arithmetic that wraps.
enum CFStringHash {
    /// The hash of `string`, as 64-bit CF computes it.
    static func hash(_ string: String) -> UInt64 {
        var units: [UInt16] = []
        units.reserveCapacity(string.utf8.count)
        units.append(contentsOf: string.utf16)
        let length = units.count
        var result = UInt64(length)
        func four(_ i: Int) {
            // 257^4 - 256^4, 257^3, 257^2, 257: four steps of `h * 257 + unit` with CF's constants.
            result = result &* 67_503_105 &+ UInt64(units[i]) &* 16_974_593 &+ UInt64(units[i + 1]) &* 66_049
                &+ UInt64(units[i + 2]) &* 257 &+ UInt64(units[i + 3])
        }
        if length <= 96 {
            var i = 0
            while i + 4 <= length { four(i); i += 4 }
            while i < length { result = result &* 257 &+ UInt64(units[i]); i += 1 }
        } else {
            for start in [0, length / 2 - 16, length - 32] {
                for i in stride(from: start, to: start + 32, by: 4) { four(i) }
            }
        }
        return result &+ (result << UInt64(length & 31))
    }
}
