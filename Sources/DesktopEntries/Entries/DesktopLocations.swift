import SystemCalls

/// Where desktop entries and `mimeapps.list` files are, from the XDG base-directory variables, in
/// GIO's order of precedence (most important first):
///
/// 1. `$XDG_CONFIG_HOME` (default `~/.config`): `mimeapps.list` only;
/// 2. each `$XDG_CONFIG_DIRS` folder (default `/etc/xdg`): `mimeapps.list` only;
/// 3. `$XDG_DATA_HOME/applications` (default `~/.local/share/applications`): desktop entries and
///    (deprecated) `mimeapps.list`;
/// 4. each `$XDG_DATA_DIRS/applications` (default `/usr/local/share:/usr/share`): the same.
///
/// A relative path in a variable is ignored, as the base-directory specification says.
public struct DesktopLocations: Sendable, Hashable {
    /// One folder of the list.
    public struct Folder: Sendable, Hashable {
        /// The folder.
        public var path: String
        /// Whether it is a configuration folder (`mimeapps.list` only, no desktop entries).
        public var isConfiguration: Bool
        /// The variable it came from, for explanations (`XDG_DATA_DIRS`).
        public var origin: String
    }

    /// The folders, most important first.
    public var folders: [Folder]
    /// `XDG_CURRENT_DESKTOP`, split at `:` (`["ubuntu", "GNOME"]`); empty when unset.
    public var currentDesktops: [String]
    /// The locale names localized keys are looked up under (``LocaleNames``).
    public var locales: [String]
    /// The folders the shared MIME database (`mime/aliases`, `mime/subclasses`) is read from:
    /// `$XDG_DATA_HOME/mime`, then each `$XDG_DATA_DIRS/mime`.
    public var mimeFolders: [String]

    /// Creates locations from explicit values (tests, benchmarks).
    public init(configHome: String, configDirs: [String], dataHome: String, dataDirs: [String],
                currentDesktops: [String] = [], locales: [String] = []) {
        folders = [Folder(path: configHome, isConfiguration: true, origin: "XDG_CONFIG_HOME")]
            + configDirs.map { Folder(path: $0, isConfiguration: true, origin: "XDG_CONFIG_DIRS") }
            + [Folder(path: dataHome + "/applications", isConfiguration: false, origin: "XDG_DATA_HOME")]
            + dataDirs.map { Folder(path: $0 + "/applications", isConfiguration: false, origin: "XDG_DATA_DIRS") }
        self.currentDesktops = currentDesktops
        self.locales = locales
        mimeFolders = ([dataHome] + dataDirs).map { $0 + "/mime" }
    }

    /// The locations this process's environment names.
    public static func current() -> DesktopLocations { current { Environment.value($0) } }

    /// The locations an environment names (`value` looks a variable up).
    public static func current(_ value: (String) -> String?) -> DesktopLocations {
        let home = value("HOME").flatMap { $0.isEmpty ? nil : $0 } ?? "/"
        func single(_ name: String, _ fallback: String) -> String {
            value(name).flatMap { $0.hasPrefix("/") ? $0 : nil } ?? fallback
        }
        func list(_ name: String, _ fallback: [String]) -> [String] {
            let entries = (value(name) ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
            return entries.isEmpty ? fallback : entries
        }
        let desktops = (value("XDG_CURRENT_DESKTOP") ?? "").split(separator: ":").map(String.init)
        return DesktopLocations(configHome: single("XDG_CONFIG_HOME", home + "/.config"),
                                configDirs: list("XDG_CONFIG_DIRS", ["/etc/xdg"]),
                                dataHome: single("XDG_DATA_HOME", home + "/.local/share"),
                                dataDirs: list("XDG_DATA_DIRS", ["/usr/local/share", "/usr/share"]),
                                currentDesktops: desktops, locales: LocaleNames.current(value))
    }

    /// The `mimeapps.list`-style files of `folder`, in the order GIO reads them: for each current
    /// desktop `DESKTOP-mimeapps.list` (lower-cased), then `mimeapps.list`; in data folders also
    /// `defaults.list` (GLib's own, deprecated). Desktop-specific files and `defaults.list` may only
    /// set defaults: their `[Added Associations]` and `[Removed Associations]` are ignored.
    public func associationFiles(in folder: Folder) -> [(path: String, tweaksAllowed: Bool)] {
        var files = currentDesktops.map { (folder.path + "/" + $0.lowercased() + "-mimeapps.list", false) }
        files.append((folder.path + "/mimeapps.list", true))
        if !folder.isConfiguration { files.append((folder.path + "/defaults.list", false)) }
        return files
    }

    /// Whether every folder is an absolute path. The XDG variables' relative entries are ignored,
    /// but a relative `HOME` makes the defaults relative: read from the working folder, so the
    /// same strings name other folders in another process (see ``IndexWatch``).
    public var isAbsolute: Bool { folders.allSatisfy { $0.path.hasPrefix("/") } && mimeFolders.allSatisfy { $0.hasPrefix("/") } }

    /// A string that changes whenever anything the index depends on in the environment does.
    public var key: String { sourcesKey + "\nlocales:" + Self.joined(locales, ":") }

    /// A string that changes whenever the files the index is read from can change: the folders
    /// and the current desktops (which name `DESKTOP-mimeapps.list`), not the locales (they change
    /// what is read from the files, not which). The watcher's name comes from it, so one watcher
    /// serves shells with different `LANG`.
    public var sourcesKey: String {
        var lines = folders.map { ($0.isConfiguration ? "c:" : "d:") + $0.path }
        lines.append("desktops:" + Self.joined(currentDesktops, ":"))
        for folder in mimeFolders { lines.append("m:" + folder) }
        return Self.joined(lines, "\n")
    }

    /// `parts.joined(separator: separator)`, written out: every query computes the keys, and a
    /// process's first generic `joined` costs about 130,000 instructions of run-time type
    /// lookups (callgrind, `openin --list` at 400 desktop files).
    private static func joined(_ parts: [String], _ separator: String) -> String {
        var text = ""
        for (i, part) in parts.enumerated() { text += i == 0 ? part : separator + part }
        return text
    }
}
