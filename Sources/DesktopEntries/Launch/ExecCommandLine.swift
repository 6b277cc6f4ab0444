import SystemCalls

/// The command lines that start a desktop entry's `Exec=` for some documents, built as GIO builds
/// them (`expand_application_parameters`), so an app receives the same argument bytes from us as
/// from `gio open`:
///
/// - each field code is replaced inside the `Exec=` text by its value, shell-quoted; then the text
///   is split into words (``ShellWords``). So a code inside double quotes receives the quotes too,
///   exactly as with GIO;
/// - `%f` one document's path, `%F` all of them; `%u` / `%U` the same paths for local files
///   (GIO passes paths unless `X-GIO-NoFuse=true`, then `file://` URIs); `%d %D %n %N` the
///   folder or the name (deprecated); `%i` `--icon ICON` when `Icon=` is set (a trailing `.png`,
///   `.svg` or `.xpm` dropped); `%c` the localized name; `%k` the desktop file; `%%` a percent
///   sign; other codes vanish;
/// - a command line that takes no document code gets ` %f` appended when there are documents;
/// - documents that do not fit in one command line (`%f`, `%u`) start one process each, in order;
/// - `Terminal=true` puts the first terminal emulator GIO knows in front (`gnome-terminal --`,
///   `mate-terminal -x`, `xfce4-terminal -x`, else `tilix`, `konsole`, `nxterm`, `color-xterm`,
///   `rxvt`, `dtterm`, `xterm` with `-e`).
public struct ExecCommandLine: Sendable, Hashable {
    /// Why no command line can be built.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The entry has no `Exec=`.
        case noExec
        /// The expanded text cannot be split into words.
        case unsplittable(ShellWords.SplitError)
        /// `Terminal=true` but no known terminal emulator is installed.
        case noTerminal

        /// One sentence.
        public var description: String {
            switch self {
            case .noExec: "the desktop entry has no Exec="
            case .unsplittable(let error): "its Exec= line: \(error)"
            case .noTerminal: "it needs a terminal (Terminal=true) and none of gnome-terminal, mate-terminal, xfce4-terminal, tilix, konsole, nxterm, color-xterm, rxvt, dtterm, xterm is installed"
            }
        }
    }

    /// The program and arguments of each process, in order.
    public var processes: [[[UInt8]]]

    /// The command lines for `entry` and the absolute paths `documents`.
    /// - Parameter findProgram: finds a program on `PATH` (for the terminal; default: this process's `PATH`).
    public init(entry: DesktopEntry, documents: [[UInt8]], findProgram: ((String) -> String?)? = nil) throws(Failure) {
        let findProgram = findProgram ?? { Environment.findExecutable($0) }
        guard let exec = entry.exec else { throw .noExec }
        let text = Array(exec.utf8)
        var remaining = documents[...]
        var processes: [[[UInt8]]] = []
        repeat {
            let before = remaining.count
            var expanded: [UInt8] = []
            var i = 0
            while i < text.count {
                if text[i] == 0x25 && i + 1 < text.count {
                    Self.expand(text[i + 1], into: &expanded, entry: entry, documents: &remaining)
                    i += 2
                } else {
                    expanded.append(text[i])
                    i += 1
                }
            }
            if remaining.count == before && !remaining.isEmpty {
                expanded.append(0x20)
                Self.expand(0x66, into: &expanded, entry: entry, documents: &remaining)
            }
            var words: [[UInt8]]
            do { words = try ShellWords.split(expanded) } catch { throw .unsplittable(error) }
            if entry.terminal { words = try Self.terminal(findProgram) + words }
            processes.append(words)
        } while !remaining.isEmpty
        self.processes = processes
    }

    static func terminal(_ find: (String) -> String?) throws(Failure) -> [[UInt8]] {
        if let found = find("gnome-terminal") { return [Array(found.utf8), Array("--".utf8)] }
        for name in ["mate-terminal", "xfce4-terminal"] {
            if let found = find(name) { return [Array(found.utf8), Array("-x".utf8)] }
        }
        for name in ["tilix", "konsole", "nxterm", "color-xterm", "rxvt", "dtterm", "xterm"] {
            if let found = find(name) { return [Array(found.utf8), Array("-e".utf8)] }
        }
        throw .noTerminal
    }

    static func expand(_ code: UInt8, into out: inout [UInt8], entry: DesktopEntry, documents: inout ArraySlice<[UInt8]>) {
        func value(_ path: [UInt8], _ code: UInt8) -> [UInt8] {
            switch code {
            case 0x75, 0x55: // u U
                return entry.noFuse ? Array(FileURI.from(path: path).utf8) : path
            case 0x64, 0x44: // d D
                return dirname(path)
            case 0x6E, 0x4E: // n N
                return basename(path)
            default:
                return path
            }
        }
        switch code {
        case 0x66, 0x75, 0x64, 0x6E: // f u d n: one document
            if let path = documents.popFirst() { out += ShellWords.quote(value(path, code)) }
        case 0x46, 0x55, 0x44, 0x4E: // F U D N: all of them
            while let path = documents.popFirst() {
                out += ShellWords.quote(value(path, code))
                if !documents.isEmpty { out.append(0x20) }
            }
        case 0x69: // i
            if let icon = entry.icon {
                out += Array("--icon ".utf8) + ShellWords.quote(Array(Self.iconName(icon).utf8))
            }
        case 0x63: // c
            if let name = entry.name { out += ShellWords.quote(Array(name.utf8)) }
        case 0x6B: // k
            out += ShellWords.quote(Array(entry.path.utf8))
        case 0x25:
            out.append(0x25)
        default:
            break
        }
    }

    /// GIO drops a `.png`, `.xpm` or `.svg` from a themed icon name (a common mistake in desktop files).
    static func iconName(_ icon: String) -> String {
        guard !icon.hasPrefix("/") else { return icon }
        for suffix in [".png", ".xpm", ".svg"] {
            if let dot = icon.lastIndex(of: "."), icon[dot...] == suffix { return String(icon[..<dot]) }
        }
        return icon
    }

    static func dirname(_ path: [UInt8]) -> [UInt8] {
        guard let slash = path.lastIndex(of: 0x2F) else { return [0x2E] }
        return slash == 0 ? [0x2F] : Array(path[..<slash])
    }

    static func basename(_ path: [UInt8]) -> [UInt8] {
        guard let slash = path.lastIndex(of: 0x2F) else { return path }
        return Array(path[(slash + 1)...])
    }
}
