import Handlers
import SystemCalls
import ToolSupport

/// The sheet as a dialog of the desktop's own dialog program, for a user who starts from the file
/// manager with no terminal: the same rows in the same order with the same reasons, and the
/// choice performed as on the terminal (docs/desktop-dialog.md).
///
/// We drive zenity or kdialog rather than link a toolkit: each is the dialog program its desktop
/// ships for exactly this (scripts and file-manager actions), looks native there, and keeps GTK
/// and Qt out of a static command-line tool.
struct DesktopDialog {
    /// The dialog programs, in the order tried (KDE prefers kdialog).
    enum Program: String, CaseIterable {
        /// GNOME's and most GTK desktops' (`zenity --list`).
        case zenity
        /// KDE Plasma's (`kdialog --menu`).
        case kdialog
    }

    /// When the dialog is shown instead of the sheet being printed.
    enum Trigger: Equatable {
        /// `--dialog`: always (an error when no display or dialog program is found).
        case asked
        /// No terminal on standard input, output or error, and a display: started from the
        /// desktop (a file manager's action, a desktop entry).
        case noTerminal
        /// The sheet is printed.
        case never
    }

    /// What the dialog is for: its title and the verb of its heading.
    enum Purpose {
        /// The whole sheet ("Open In…").
        case openIn
        /// Only the paired nearby devices (`--nearby`, "Send to Nearby Device…").
        case sendToNearbyDevice

        var title: String { self == .openIn ? "Open In" : "Send to Nearby Device" }
        var verb: String { self == .openIn ? "Open" : "Send" }
        var preposition: String { self == .openIn ? "in" : "to" }
    }

    let program: Program
    let path: String
    var purpose = Purpose.openIn

    /// Whether the sheet becomes a dialog for this command line and process.
    static func trigger(asked: Bool, list: Bool) -> Trigger {
        if asked { return .asked }
        if list { return .never }
        let terminal = (0...2).contains { CurrentProcess.isTerminal(Int32($0)) }
        return !terminal && hasDisplay ? .noTerminal : .never
    }

    /// Whether a desktop display is named (`WAYLAND_DISPLAY` or `DISPLAY`).
    static var hasDisplay: Bool {
        [Environment.value("WAYLAND_DISPLAY"), Environment.value("DISPLAY")].contains { !($0 ?? "").isEmpty }
    }

    /// The dialog program for this desktop: kdialog first on KDE, zenity first elsewhere; an
    /// error naming what to install when neither is on `PATH`.
    static func find() throws(OpeninCommands.Failure) -> DesktopDialog {
        guard hasDisplay else { throw .init(message: "no desktop display (DISPLAY and WAYLAND_DISPLAY are not set) for the dialog") }
        let desktops = (Environment.value("XDG_CURRENT_DESKTOP") ?? "").split(separator: ":").map { $0.uppercased() }
        let order: [Program] = desktops.contains("KDE") ? [.kdialog, .zenity] : [.zenity, .kdialog]
        for program in order {
            if let path = Environment.findExecutable(program.rawValue) { return DesktopDialog(program: program, path: path) }
        }
        throw .init(message: "no dialog program: install zenity (GNOME and other GTK desktops: apt install zenity) or kdialog (KDE: apt install kdialog)")
    }

    /// Shows the rows; the index chosen, or `nil` when the dialog was cancelled or closed.
    func choose(_ choices: Choices) throws(OpeninCommands.Failure) -> Int? {
        let sheet = choices.sheet
        let heading = sheet.documents.count == 1
            ? "\(purpose.verb) \(sheet.documents[0].path) (\(sheet.documents[0].type.identifier)) \(purpose.preposition):"
            : "\(purpose.verb) these \(sheet.documents.count) documents \(purpose.preposition):"
        var arguments: [String]
        let width = Self.width(for: choices.rows.map { [$0.name, Self.kind($0), $0.reason] })
        switch program {
        case .zenity:
            arguments = [path, "--list", "--title=" + purpose.title, "--text=" + Self.markup(heading, compressed: true), "--width=\(width)", "--height=440",
                         "--column=#", "--column=Name", "--column=Kind", "--column=Why", "--hide-column=1", "--print-column=1"]
            for (index, row) in choices.rows.enumerated() {
                arguments += [String(index + 1), Self.cell(row.name), Self.kind(row), Self.cell(row.reason)]
            }
        case .kdialog:
            arguments = [path, "--title", purpose.title, "--geometry", "\(width)x440", "--menu", Self.markup(heading, compressed: false)]
            for (index, row) in choices.rows.enumerated() {
                arguments += [String(index + 1), Self.cell("\(row.name)  (\(Self.kind(row)))  \(row.reason)")]
            }
        }
        let answer = try run(arguments)
        guard try chosen(answer) else { return nil }
        let text = String(decoding: answer.output, as: UTF8.self).trimmingSpaces()
        guard let number = Int(text), choices.rows.indices.contains(number - 1) else {
            throw .init(message: "\(program) answered '\(text)', not a row number")
        }
        return number - 1
    }

    /// The window's width in pixels for rows of these cells: wide enough for the longest of each
    /// column at about 8 pixels a character (the desktops' default 10-11 pt sans fonts average 6.5
    /// to 7.5) plus the list's margins, between 760 and 1800. At a fixed 760 the reasons column
    /// was cut off behind a horizontal scroll bar.
    static func width(for rows: [[String]]) -> Int {
        let columns = rows.reduce(into: [Int]()) { widths, row in
            for (index, cell) in row.enumerated() {
                if widths.count <= index { widths.append(0) }
                widths[index] = max(widths[index], Self.cell(cell).count)
            }
        }
        return min(1800, max(760, 8 * columns.reduce(0, +) + 140))
    }

    /// Asks for the folder of copy-to-folder; `nil` when cancelled.
    func folder() throws(OpeninCommands.Failure) -> String? {
        let arguments: [String] = switch program {
        case .zenity: [path, "--file-selection", "--directory", "--title=Copy to Folder"]
        case .kdialog: [path, "--title", "Copy to Folder", "--getexistingdirectory", Environment.home]
        }
        let answer = try run(arguments)
        guard try chosen(answer) else { return nil }
        let folder = String(decoding: answer.output, as: UTF8.self).trimmingSpaces()
        return folder.isEmpty ? nil : folder
    }

    /// Says what went wrong in a dialog (the user has no terminal to read it on).
    func showError(_ message: String) {
        let arguments: [String] = switch program {
        case .zenity: [path, "--error", "--title=" + purpose.title, "--no-markup", "--text=" + message]
        case .kdialog: [path, "--title", purpose.title, "--error", Self.markup(message, compressed: false)]
        }
        _ = try? run(arguments)
    }

    /// Whether the user chose (status 0) rather than cancelled (1: Cancel; 255: zenity's Escape
    /// or closed window); any other status is the dialog program failing, never a cancel.
    func chosen(_ answer: Spawn.Finished) throws(OpeninCommands.Failure) -> Bool {
        switch answer.status {
        case 0: return true
        case 1, 255: return false
        case let status: throw .init(message: "\(program) failed (exit status \(status)); its messages are above")
        }
    }

    func run(_ arguments: [String]) throws(OpeninCommands.Failure) -> Spawn.Finished {
        do { return try Spawn.run(arguments) } catch { throw .init(message: "\(program): \(error)") }
    }

    static func kind(_ row: ChooserRow) -> String {
        switch row.handler {
        case .bundle: "App"
        case .desktop: "Linux app"
        case .activity: "Activity"
        }
    }

    /// A list cell: one line, control characters made visible (a name cannot forge a row).
    static func cell(_ text: String) -> String { TerminalText.escaped(text) }

    /// Text for a label that reads Pango or Qt markup: `&`, `<`, `>` as entities, and each
    /// backslash doubled when the program reads escapes (`compressed`: zenity's `g_strcompress`
    /// of `--text`), so a file name is shown as it is.
    static func markup(_ text: String, compressed: Bool) -> String {
        var out = ""
        for character in TerminalText.escaped(text) {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\\" where compressed: out += "\\\\"
            default: out.append(character)
            }
        }
        return out
    }
}
