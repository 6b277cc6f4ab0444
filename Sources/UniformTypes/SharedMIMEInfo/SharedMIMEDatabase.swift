import SystemCalls
import PropertyLists

/// The freedesktop.org shared MIME database of a machine, read from its sources: the
/// `mime/packages/*.xml` files of every data folder GIO reads, merged as `update-mime-database`
/// and the XDG base-directory rules merge them.
///
/// Folders, most important first (as GIO's `g_content_type_get_mime_dirs`): `$XDG_DATA_HOME/mime`
/// (default `~/.local/share/mime`), then `DIR/mime` for each `DIR` of `$XDG_DATA_DIRS` (default
/// `/usr/local/share:/usr/share`). Folders are merged from the least important up; within a folder,
/// package files in name order with `Override.xml` last. A later `<mime-type>` of the same type
/// adds globs, magic, parents and aliases to what came before (after `<glob-deleteall/>` or
/// `<magic-deleteall/>` it replaces them) and replaces its comment and icons.
public struct SharedMIMEDatabase: Sendable {
    /// Every type, in the order the packages first declare them.
    public private(set) var types: [MIMETypeDefinition] = []
    /// Problems in package files (unreadable or malformed files, skipped elements).
    public private(set) var diagnostics: [MIMEPackageDiagnostic] = []
    /// Alias (lower-cased) → canonical MIME type.
    public private(set) var aliases: [String: String] = [:]
    /// Lower-cased MIME type → index in ``types``.
    private var index: [String: Int] = [:]

    /// An empty database.
    public init() {}

    /// The database from package files, least important first.
    public init(packages: [(path: String, package: MIMEPackageReader.Package)]) {
        var merged: [String: MIMETypeDefinition] = [:]
        var order: [String] = []
        for (_, package) in packages {
            diagnostics += package.diagnostics
            for entry in package.types {
                let key = entry.definition.mimeType.lowercased()
                guard var existing = merged[key] else { merged[key] = entry.definition; order.append(key); continue }
                let new = entry.definition
                if entry.deletesGlobs { existing.globs = [] }
                if entry.deletesMagic { existing.magic = [] }
                existing.globs += new.globs.filter { !existing.globs.contains($0) }
                existing.magic += new.magic
                for p in new.parents where !existing.parents.contains(p) { existing.parents.append(p) }
                for a in new.aliases where !existing.aliases.contains(a) { existing.aliases.append(a) }
                existing.rootXML += new.rootXML.filter { !existing.rootXML.contains($0) }
                existing.comment = new.comment ?? existing.comment
                existing.localizedComments.merge(new.localizedComments) { $1 }
                existing.acronym = new.acronym ?? existing.acronym
                existing.expandedAcronym = new.expandedAcronym ?? existing.expandedAcronym
                existing.icon = new.icon ?? existing.icon
                existing.genericIcon = new.genericIcon ?? existing.genericIcon
                existing.source = new.source
                merged[key] = existing
            }
        }
        // First-appearance order: between globs of equal weight, GIO answers the type declared first.
        types = order.map { merged[$0]! }
        for (i, t) in types.enumerated() { index[t.mimeType.lowercased()] = i }
        for t in types {
            for alias in t.aliases where index[alias.lowercased()] == nil { aliases[alias.lowercased()] = t.mimeType }
        }
    }

    /// Reads and merges the package files of `mimeDirectories` (most important first). Unreadable
    /// or malformed files are reported in ``diagnostics`` and skipped: the database refines types,
    /// it is never a reason for a query to fail.
    public static func load(mimeDirectories: [String]) -> SharedMIMEDatabase {
        var packages: [(String, MIMEPackageReader.Package)] = []
        var failures: [MIMEPackageDiagnostic] = []
        for directory in mimeDirectories.reversed() {
            for file in packageFiles(in: directory) {
                do {
                    let bytes = try FileContents.read(.init(file))
                    packages.append((file, try MIMEPackageReader.read(bytes, path: file)))
                } catch let error as MIMEPackageDiagnostic {
                    failures.append(error)
                } catch {
                    failures.append(MIMEPackageDiagnostic(file: file, line: 0, message: "cannot read: \(error)"))
                }
            }
        }
        var database = SharedMIMEDatabase(packages: packages)
        database.diagnostics = failures + database.diagnostics
        return database
    }

    /// The `mime` folders GIO reads, most important first: `$XDG_DATA_HOME/mime`, then
    /// `DIR/mime` for each folder of `$XDG_DATA_DIRS` (defaults as the XDG base-directory
    /// specification gives them). Folders that do not exist are included; they add nothing.
    public static func mimeDirectories() -> [String] {
        var result: [String] = []
        if let home = Environment.value("XDG_DATA_HOME"), home.hasPrefix("/") {
            result.append(home + "/mime")
        } else if let home = Environment.value("HOME"), !home.isEmpty {
            result.append(home + "/.local/share/mime")
        }
        let dirs = Environment.value("XDG_DATA_DIRS").flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        // Split by hand: every query process runs this (for the registry's freshness check), and
        // `split` would instantiate one more generic array type at run time.
        var start = dirs.startIndex
        while start <= dirs.endIndex {
            let end = dirs[start...].firstIndex(of: ":") ?? dirs.endIndex
            if start < end, dirs[start] == "/" {
                let dir = String(dirs[start..<end]) + "/mime"
                if !result.contains(dir) { result.append(dir) }
            }
            if end == dirs.endIndex { break }
            start = dirs.index(after: end)
        }
        return result
    }

    /// The package files of one `mime` folder, in the order they are merged: by name, with
    /// `Override.xml` (the administrator's own) last.
    public static func packageFiles(in mimeDirectory: String) -> [String] {
        let names = FileSystem.entries(of: mimeDirectory + "/packages").filter { $0.hasSuffix(".xml") && !$0.hasPrefix(".") }
        let ordered = names.filter { $0 != "Override.xml" }.sorted() + names.filter { $0 == "Override.xml" }
        return ordered.map { mimeDirectory + "/packages/" + $0 }
    }

    /// The definition of a MIME type or of an alias of it (compared ignoring case).
    public func definition(of mimeType: String) -> MIMETypeDefinition? {
        let key = mimeType.lowercased()
        if let i = index[key] { return types[i] }
        if let canonical = aliases[key], let i = index[canonical.lowercased()] { return types[i] }
        return nil
    }

    /// The canonical name of a MIME type (itself when it is no alias).
    public func canonical(_ mimeType: String) -> String {
        aliases[mimeType.lowercased()] ?? definition(of: mimeType)?.mimeType ?? mimeType
    }
}
