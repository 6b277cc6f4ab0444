import SystemCalls
import PropertyLists

/// MIME type aliases from the freedesktop.org shared MIME database (`mime/aliases` under each
/// `XDG_DATA_DIRS` folder, as `update-mime-database` writes it): one `alias canonical` pair a line.
///
/// The registry uses them so that a MIME type resolves to the same type as its alias when the
/// catalog or an app lists only one of the two (`application/x-java-archive` finds the Java archive
/// type Apple declares with `application/java-archive`). A pair whose two names are both declared,
/// by different types, is left as declared: Apple's declarations win.
public struct MIMEAliases: Sendable {
    /// The pairs, in file order.
    public var pairs: [(alias: String, canonical: String)]

    /// Creates a set of pairs.
    public init(pairs: [(alias: String, canonical: String)] = []) { self.pairs = pairs }

    /// The alias files present: `mime/aliases` under each folder of `XDG_DATA_DIRS`
    /// (default `/usr/local/share:/usr/share`), most important first.
    public static func files() -> [String] {
        let dirs = Environment.value("XDG_DATA_DIRS").flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        // Split by hand: every query runs this, and `split` would create an array of substrings,
        // one more type to instantiate at run time.
        var files: [String] = []
        var start = dirs.startIndex
        while start <= dirs.endIndex {
            let end = dirs[start...].firstIndex(of: ":") ?? dirs.endIndex
            if start < end {
                let file = String(dirs[start..<end]) + "/mime/aliases"
                if FileSystem.status(file) != nil { files.append(file) }
            }
            if end == dirs.endIndex { break }
            start = dirs.index(after: end)
        }
        return files
    }

    /// Reads alias files; unreadable files and malformed lines are skipped (the database is an
    /// optional refinement, never a reason for a query to fail).
    public static func load(from files: [String]) -> MIMEAliases {
        var pairs: [(String, String)] = []
        for file in files {
            guard let bytes = try? FileContents.read(.init(file)) else { continue }
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
                let fields = line.split(separator: " ")
                if fields.count == 2 { pairs.append((fields[0].lowercased(), fields[1].lowercased())) }
            }
        }
        return MIMEAliases(pairs: pairs)
    }

}
