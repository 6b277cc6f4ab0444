import SystemCalls
import PropertyLists

/// MIME type aliases from the freedesktop.org shared MIME database (`mime/aliases` in each of its
/// folders, as `update-mime-database` writes it): one `alias canonical` pair a line. The package
/// files' own `<alias>` elements are read with the rest of the database (``SharedMIMEImport``);
/// this file still covers a machine whose packages were removed after compiling.
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

    /// The alias files present: `aliases` in each of the shared MIME database's `mime` folders
    /// (``SharedMIMEDatabase/mimeDirectories()`` unless given), most important first.
    public static func files(in mimeDirectories: [String]? = nil) -> [String] {
        (mimeDirectories ?? SharedMIMEDatabase.mimeDirectories()).map { $0 + "/aliases" }.filter { FileSystem.status($0) != nil }
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
