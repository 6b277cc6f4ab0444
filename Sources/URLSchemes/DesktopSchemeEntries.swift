import AppRegistry
import Hashing
import SystemCalls
import UniformTypes

/// The freedesktop side of registration: for each registered app with URL schemes, a desktop
/// entry claiming `x-scheme-handler/SCHEME` whose `Exec` runs `openurl --root ROOT %u`, so that
/// `gio open myscheme://…` and `xdg-open` reach the app through openurl (which then applies the
/// order of ``SchemeResolution``, the user's default first). Entries of apps no longer
/// registered are removed. GIO reads `MimeType=` claims only from `mimeinfo.cache`, so
/// `update-desktop-database` is run on the folder when anything changed and it is installed.
///
/// Files: `$XDG_DATA_HOME/applications/document-interchange-HASH-BUNDLE.desktop` (HASH names the
/// device root, so two roots never touch each other's entries), hidden from menus (`NoDisplay`).
/// (The desktop-entry format is written by hand: it is a few lines, and no package here writes it.)
public enum DesktopSchemeEntries {
    /// `$XDG_DATA_HOME/applications`, else `~/.local/share/applications`.
    public static var applicationsDirectory: String {
        if let xdg = Environment.value("XDG_DATA_HOME"), xdg.hasPrefix("/") { return xdg + "/applications" }
        return Environment.home + "/.local/share/applications"
    }

    /// The file-name prefix of `root`'s entries.
    public static func prefix(for root: DeviceRoot) -> String {
        "document-interchange-" + String(FNV1a32.hash(root.path), radix: 16) + "-"
    }

    /// What a sync changed.
    public struct Changes: Sendable, Hashable {
        /// Entries written (new or changed), by path.
        public var written: [String] = []
        /// Entries removed, by path.
        public var removed: [String] = []
        /// Whether `update-desktop-database` ran.
        public var cacheUpdated = false
    }

    /// Makes `root`'s entries in `directory` match `apps`: one per app with URL schemes, none for
    /// the others.
    /// - Parameter openurl: the `openurl` program the entries run.
    @discardableResult
    public static func sync(root: DeviceRoot, apps: [AppBundle], openurl: String,
                            directory: String = applicationsDirectory) throws(URLSchemeError) -> Changes {
        var changes = Changes()
        let prefix = prefix(for: root)
        var wanted: [String: [UInt8]] = [:]
        for app in apps where !app.urlSchemes.isEmpty && BundleIdentifier.canNameFolder(app.bundleIdentifier) {
            wanted[directory + "/" + prefix + app.bundleIdentifier + ".desktop"] = Array(entry(for: app, root: root, openurl: openurl).utf8)
        }
        for name in FileSystem.entries(of: directory) where name.hasPrefix(prefix) && name.hasSuffix(".desktop") {
            let path = directory + "/" + name
            if wanted[path] == nil {
                do { try FileSystem.remove(path) } catch { throw .system(error) }
                changes.removed.append(path)
            }
        }
        if !wanted.isEmpty { do { try FileSystem.makeDirectories(directory) } catch { throw .system(error) } }
        for (path, bytes) in wanted.sorted(by: { $0.key < $1.key }) where (try? FileSystem.read(path)) != bytes {
            do { try AtomicFile.write(bytes, to: path) } catch { throw .system(error) }
            changes.written.append(path)
        }
        if !(changes.written.isEmpty && changes.removed.isEmpty), Environment.findExecutable("update-desktop-database") != nil {
            if let finished = try? Spawn.run(["update-desktop-database", "-q", directory]) { changes.cacheUpdated = finished.status == 0 }
        }
        return changes
    }

    /// Removes every entry of `root`.
    @discardableResult
    public static func remove(root: DeviceRoot, directory: String = applicationsDirectory) throws(URLSchemeError) -> Changes {
        try sync(root: root, apps: [], openurl: "", directory: directory)
    }

    /// The desktop entry of `app`.
    public static func entry(for app: AppBundle, root: DeviceRoot, openurl: String) -> String {
        let exec = [openurl, "--root", root.path].map(execArgument).joined(separator: " ") + " %u"
        return """
        [Desktop Entry]
        Type=Application
        Name=\(value(app.name))
        Comment=\(value("Opens \(app.urlSchemes.joined(separator: ", ")) URLs through openurl (document-interchange)"))
        Exec=\(value(exec))
        NoDisplay=true
        MimeType=\(app.urlSchemes.map { "x-scheme-handler/" + $0 + ";" }.joined())
        X-DocumentInterchange-Root=\(value(root.path))
        X-DocumentInterchange-App=\(value(app.bundleIdentifier))

        """
    }

    /// One `Exec` argument: quoted when it holds a reserved character, with `"`, `` ` ``, `$`
    /// and `\` escaped inside the quotes; `%` doubled (desktop entry specification, "The Exec key").
    static func execArgument(_ word: String) -> String {
        let reserved = Set(" \t\n\"'\\><~|&;$*?#()`".unicodeScalars)
        let doubled = word.replacingPercent()
        guard doubled.unicodeScalars.contains(where: reserved.contains) || doubled.isEmpty else { return doubled }
        var out = "\""
        for c in doubled.unicodeScalars {
            if c == "\"" || c == "`" || c == "$" || c == "\\" { out.append("\\") }
            out.unicodeScalars.append(c)
        }
        return out + "\""
    }

    /// A value of a string key: `\` written `\\`, and no line breaks.
    static func value(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}

extension String {
    func replacingPercent() -> String {
        var out = ""
        for c in unicodeScalars { if c == "%" { out += "%%" } else { out.unicodeScalars.append(c) } }
        return out
    }
}
