/// How a size is shown to a person, in every front end (the accept prompt, the desktop
/// notification, the sender's progress line, the desktop's progress window): decimal units with
/// one decimal, as the file managers show them.
package enum SizeText {
    /// "12 B", "4.2 kB", "10.5 MB", "1.1 GB"; "size not known" for `nil` (an AirDrop ask names
    /// its files but not their sizes: they come with the archive).
    package static func of(_ bytes: Int64?) -> String {
        guard let bytes else { return "size not known" }
        return of(Double(bytes))
    }

    /// `bytes` (a rate, a count) in the same units.
    package static func of(_ bytes: Double) -> String {
        bytes >= 1e9 ? tenths(bytes / 1e9) + " GB" : bytes >= 1e6 ? tenths(bytes / 1e6) + " MB"
            : bytes >= 1e3 ? tenths(bytes / 1e3) + " kB" : "\(Int(bytes)) B"
    }

    static func tenths(_ x: Double) -> String {
        let t = Int((x * 10).rounded())
        return "\(t / 10).\(t % 10)"
    }
}
