/// One `mimeapps.list` file (or a desktop-specific `DESKTOP-mimeapps.list`, or GLib's
/// `defaults.list`): the user's or the system's default applications and associations per MIME type.
///
/// ```
/// [Default Applications]
/// application/pdf=org.gnome.Evince.desktop;okularApplication_pdf.desktop;
/// [Added Associations]
/// text/plain=org.gnome.TextEditor.desktop;
/// [Removed Associations]
/// text/plain=libreoffice-writer.desktop;
/// ```
public struct MimeAppsList: Sendable {
    /// The three groups.
    public enum Section: String, Sendable, Hashable, CaseIterable {
        /// `[Default Applications]`: the preferred apps, first installed one wins.
        case defaults = "Default Applications"
        /// `[Added Associations]`: apps that open the type although their `MimeType=` does not say so.
        case added = "Added Associations"
        /// `[Removed Associations]`: apps that must not be offered for the type.
        case removed = "Removed Associations"
    }

    /// One `type=ids` line.
    public struct Line: Sendable, Hashable {
        /// The MIME type, as written.
        public var mimeType: String
        /// The desktop-file IDs, in order.
        public var desktopIDs: [String]
        /// The 1-based line number.
        public var line: Int
    }

    /// The file.
    public var path: String
    /// The lines of each section, in file order; a type given twice keeps its last line (as GIO).
    public var sections: [Section: [Line]]

    /// Parses a file already read as a key file. Lines whose value cannot be read are skipped.
    public init(_ file: KeyFile, path: String) {
        self.path = path
        var sections: [Section: [Line]] = [:]
        for section in Section.allCases {
            guard let group = file.group(section.rawValue) else { continue }
            for key in group.keys {
                guard let entry = group.entry(key), let ids = try? entry.list(in: path) else { continue }
                sections[section, default: []].append(Line(mimeType: key, desktopIDs: ids, line: entry.line))
            }
        }
        self.sections = sections
    }

    /// The lines of `section`.
    public func lines(_ section: Section) -> [Line] { sections[section] ?? [] }
}
