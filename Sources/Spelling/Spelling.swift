/// Near misses, for "did you mean": the lint's unknown keys, the tools' unknown verbs, options and
/// types. By hand because it is a dozen lines, and no package on this machine offers it alone.
package enum Spelling {
    /// Levenshtein distance over UTF-8 bytes, capped: 3 for anything further than 2 (every caller
    /// only asks whether a word is within 2 edits).
    package static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8), b = Array(b.utf8)
        if abs(a.count - b.count) > 2 { return 3 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return min(previous[b.count], 3)
    }

    /// The candidate nearest to `word` within 2 edits (the first of equals), if any.
    package static func nearest<Candidates: Sequence<String>>(to word: String, among candidates: Candidates) -> String? {
        var best: (name: String, distance: Int)?
        for name in candidates {
            let d = distance(word, name)
            if d <= 2, d < (best?.distance ?? 3) { best = (name, d) }
        }
        return best?.name
    }
}
