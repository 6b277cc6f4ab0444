/// One `.desktop` file's `[Desktop Entry]` group, as far as choosing and starting an application
/// needs it. Every value is read the way GIO reads it (GKeyFile's rules, ``KeyFile``); a key whose
/// value cannot be read counts as absent, and ``problems`` says why.
public struct DesktopEntry: Sendable, Hashable {
    /// The group every desktop entry starts with.
    public static let group = "Desktop Entry"

    /// The desktop-file ID (`org.gnome.Evince.desktop`, `kde4-okular.desktop` for `kde4/okular.desktop`).
    public var id: String
    /// The file.
    public var path: String
    /// `Type=` (only `Application` entries open documents).
    public var type: String?
    /// `Name=`, localized.
    public var name: String?
    /// `GenericName=`, localized.
    public var genericName: String?
    /// `Icon=`.
    public var icon: String?
    /// `Exec=` after the key file's own escapes (`\s`, `\\`, …); the field codes and quoting of the
    /// command line itself are ``ExecCommandLine``'s.
    public var exec: String? { didSet { execProgram = Self.program(of: exec) } }
    /// `TryExec=`: a program that must be installed for the entry to count.
    public var tryExec: String?
    /// `Path=`: the working folder to start it in.
    public var workingDirectory: String?
    /// `Terminal=true`: it runs in a terminal emulator.
    public var terminal: Bool
    /// `Hidden=true`: the entry is deleted (and hides same-ID entries of later folders).
    public var hidden: Bool
    /// `NoDisplay=true`: a helper, not shown in menus.
    public var noDisplay: Bool
    /// `OnlyShowIn=` (desktop names), `nil` when absent.
    public var onlyShowIn: [String]?
    /// `NotShowIn=`, `nil` when absent.
    public var notShowIn: [String]?
    /// `MimeType=`, in file order, as written.
    public var mimeTypes: [String]
    /// The line of `MimeType=` (0 when absent).
    public var mimeTypeLine: Int
    /// `DBusActivatable=true`: started through `org.freedesktop.Application` on the session bus.
    public var dbusActivatable: Bool
    /// `X-GIO-NoFuse=true`: `%u` receives URIs even for local files.
    public var noFuse: Bool
    /// `StartupNotify=true`.
    public var startupNotify: Bool
    /// `Categories=`.
    public var categories: [String]
    /// `X-Flatpak=`: the Flatpak application ID of an exported Flatpak app.
    public var flatpakID: String?
    /// `X-SnapInstanceName=`: the instance name of a Snap app.
    public var snapInstanceName: String?
    /// The line of `Exec=` (0 when absent).
    public var execLine: Int
    /// Values that could not be read, as messages with their line ("x.desktop:7: invalid escape
    /// sequence \$").
    public var problems: [String]
    /// Why GIO would not load the entry at all (the first group is not `[Desktop Entry]`, the
    /// type is not `Application`, `Exec=` cannot be split into words), independent of `PATH`.
    public var unusable: String?

    /// Reads the entry of `file` (already parsed) as desktop-file ID `id`.
    /// - Parameter locales: the locale names, best first (``LocaleNames/current(_:)``).
    public init(id: String, path: String, file: KeyFile, locales: [String]) {
        self.id = id
        self.path = path
        var problems: [String] = []
        let group = file.groups.first { $0.name == Self.group }
        // One pass over the group (a file with a hundred translations is common): the last
        // value of each untranslated key.
        var latest: [String: KeyFile.Entry] = [:]
        for entry in group?.entries ?? [] where entry.locale == nil { latest[entry.key] = entry }
        func entry(_ key: String) -> KeyFile.Entry? { latest[key] }
        func string(_ key: String) -> String? {
            guard let entry = entry(key) else { return nil }
            problems += entry.problems(in: path).map(\.description)
            do { return try entry.string(in: path) } catch { problems.append(error.description); return nil }
        }
        func boolean(_ key: String) -> Bool {
            guard let entry = entry(key) else { return false }
            do { return try entry.boolean(in: path) } catch { problems.append(error.description); return false }
        }
        func list(_ key: String) -> [String]? {
            guard let entry = entry(key) else { return nil }
            do {
                let values = try entry.list(in: path)
                // The index joins list values with U+001E (IndexLayout.listSeparator): a value
                // holding it would come back as two. No valid type, desktop or category holds
                // a control character, so such a value is dropped, the same in every build.
                guard values.contains(where: { $0.utf8.contains(IndexLayout.listSeparator) }) else { return values }
                problems.append(KeyFileError(path: path, line: entry.line, reason: .recordSeparatorInList(key)).description)
                return values.filter { !$0.utf8.contains(IndexLayout.listSeparator) }
            } catch { problems.append(error.description); return nil }
        }
        type = string("Type")
        name = group?.localizedString("Name", locales: locales, path: path)
        genericName = group?.localizedString("GenericName", locales: locales, path: path)
        icon = group?.localizedString("Icon", locales: locales, path: path)
        exec = string("Exec")
        execProgram = Self.program(of: exec)
        execLine = entry("Exec")?.line ?? 0
        tryExec = string("TryExec")
        workingDirectory = string("Path").flatMap { $0.isEmpty ? nil : $0 }
        terminal = boolean("Terminal")
        hidden = boolean("Hidden")
        noDisplay = boolean("NoDisplay")
        onlyShowIn = list("OnlyShowIn")
        notShowIn = list("NotShowIn")
        mimeTypes = list("MimeType") ?? []
        mimeTypeLine = entry("MimeType")?.line ?? 0
        dbusActivatable = boolean("DBusActivatable")
        noFuse = boolean("X-GIO-NoFuse")
        startupNotify = boolean("StartupNotify")
        categories = list("Categories") ?? []
        flatpakID = string("X-Flatpak").flatMap { $0.isEmpty ? nil : $0 }
        snapInstanceName = string("X-SnapInstanceName").flatMap { $0.isEmpty ? nil : $0 }
        if file.groups.first?.name != Self.group {
            unusable = group == nil ? "it has no [Desktop Entry] group" : "its first group is [\(file.groups.first!.name)], not [Desktop Entry]"
        } else if type != "Application" {
            unusable = type.map { "it is of Type=\($0), not Application" } ?? "it has no Type="
        } else if let exec, !exec.isEmpty, (try? ShellWords.split(Array(exec.utf8))) == nil {
            unusable = "its Exec= cannot be split into words"
        }
        self.problems = problems
    }

    /// The program `Exec=` starts (its first word), if it has one. Kept, not split again per
    /// query: the index stores it (a query checks each associated app's program is installed).
    public internal(set) var execProgram: String?

    /// The first word of `exec`, if it splits into words.
    static func program(of exec: String?) -> String? {
        guard let exec, !exec.isEmpty, let words = try? ShellWords.split(exec) else { return nil }
        return words.first
    }

    /// Whether the entry is shown on a desktop whose `XDG_CURRENT_DESKTOP` names `desktops`: the
    /// first desktop named in `OnlyShowIn` or `NotShowIn` decides; else shown unless `OnlyShowIn`
    /// is given.
    public func isShown(in desktops: [String]) -> Bool {
        for desktop in desktops {
            if onlyShowIn?.contains(desktop) == true { return true }
            if notShowIn?.contains(desktop) == true { return false }
        }
        return onlyShowIn == nil
    }

    /// Whether `update-desktop-database` would list the entry's MIME types (what GIO reads from
    /// `mimeinfo.cache`): every parseable entry with a `[Desktop Entry]` group that is not Hidden.
    public var isInMIMECache: Bool { unusableForCache == nil && !hidden }

    var unusableForCache: String? { unusable == "it has no [Desktop Entry] group" ? unusable : nil }

    /// Whether `mime` is a MIME type `update-desktop-database` accepts: a registered (or `x-`) media
    /// type and a non-empty token subtype. Others are left out of the cache, and so by us.
    public static func isValidMIMEType(_ mime: String) -> Bool {
        guard let slash = mime.firstIndex(of: "/") else { return false }
        let media = mime[..<slash], subtype = mime[mime.index(after: slash)...]
        guard Self.mediaTypes.contains(String(media)) || (media.hasPrefix("x-") && media.count > 2) else { return false }
        guard !subtype.isEmpty else { return false }
        return subtype.utf8.allSatisfy { byte in
            switch byte {
            case 0...0x20, 0x7F...: false
            case 0x28, 0x29, 0x3C, 0x3E, 0x40, 0x2C, 0x3B, 0x3A, 0x5C, 0x22, 0x2F, 0x5B, 0x5D, 0x3F, 0x3D: false  // ()<>@,;:\"/[]?=
            default: true
            }
        }
    }

    static let mediaTypes: Set<String> = ["application", "audio", "font", "image", "model", "text", "video", "message", "multipart",
                                          "chemical", "inode", "misc", "x-content", "x-epoc", "x-scheme-handler", "zz-application"]
}
