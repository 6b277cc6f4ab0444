import Handlers
import SystemCalls
import ToolSupport

/// The sheet on a terminal: apps and activities in separate sections, one row highlighted.
/// Arrows (or j/k) move, PgUp/PgDn page, digits then Enter choose by number, Enter chooses the
/// highlighted row, q, Esc or Ctrl-C cancel. The terminal is in non-canonical mode without echo
/// or signals while the sheet is up, and restored however it ends. A number that is no row is
/// said so, and the sheet stays.
struct InteractiveSheet {
    var sheet: Sheet
    var rows: [SheetText.Row]

    init(sheet: Sheet) {
        self.sheet = sheet
        rows = SheetText.rows(sheet)
    }

    /// The chosen row, or `nil` when cancelled.
    func run() -> Int? {
        guard let terminal = try? RawTerminal() else { return nil }
        defer {
            terminal.restore()
            Output.text("\u{1B}[?25h")
        }
        Output.text("\u{1B}[?25l")
        var selected = 0, typed = "", notice = ""
        while true {
            draw(selected: selected, typed: typed, notice: notice)
            notice = ""
            guard let key = readKey(terminal) else { return nil }
            switch key {
            case .up: selected = max(0, selected - 1); typed = ""
            case .down: selected = min(rows.count - 1, selected + 1); typed = ""
            case .pageUp: selected = max(0, selected - pageSize); typed = ""
            case .pageDown: selected = min(rows.count - 1, selected + pageSize); typed = ""
            case .digit(let d):
                typed += String(d)
                if let n = Int(typed), n >= 1, n <= rows.count { selected = n - 1 }
            case .backspace: typed = String(typed.dropLast())
            case .enter:
                if let n = Int(typed), n < 1 || n > rows.count {
                    notice = "there is no row \(n); choose 1 to \(rows.count)"
                    typed = ""
                    continue
                }
                Output.text("\u{1B}[H\u{1B}[2J")
                if let n = Int(typed) { return n - 1 }
                guard !rows.isEmpty else { return nil }
                return selected
            case .cancel:
                Output.text("\u{1B}[H\u{1B}[2J")
                return nil
            case .other: break
            }
        }
    }

    /// The terminal's height and width (24×80 when it does not say).
    var screen: (rows: Int, columns: Int) { (RawTerminal.rows() ?? 24, RawTerminal.columns() ?? 80) }

    /// The documents' lines at the top: two at most (then "… and N more").
    var headerLines: [String] {
        let lines = SheetText.documentLines(sheet)
        return lines.count <= 2 ? lines : [lines[0], "… and \(lines.count - 1) more documents"]
    }

    /// Whether the terminal is tall enough for blank lines between the parts.
    var roomy: Bool { screen.rows >= 16 }

    /// The rows of one page: the height less the header, the section titles (two at most), the
    /// blank lines of a roomy screen and the footer, so that the whole sheet fits and nothing
    /// scrolls the header or the highlighted row away.
    var pageSize: Int { max(1, screen.rows - headerLines.count - 2 - (roomy ? 3 : 0) - 1) }

    func draw(selected: Int, typed: String, notice: String) {
        let width = screen.columns
        // Each line is escaped (a newline or an escape sequence in a name cannot reach the
        // terminal) and cut to the width, never wrapped: a wrapped line would push the page down.
        func fit(_ text: String) -> String {
            let shown = TerminalText.escaped(text)
            return shown.count < width ? shown : String(shown.prefix(max(1, width - 2))) + "…"
        }
        var lines = headerLines.map(fit)
        let page = selected / pageSize, pages = (rows.count + pageSize - 1) / max(pageSize, 1)
        let first = page * pageSize, last = min(rows.count, first + pageSize)
        var section = ""
        for i in first..<max(first, last) {
            let (kind, text): (String, String)
            switch rows[i] {
            case .app(let entry): (kind, text) = ("Open in", "\(entry.app.name)  \(SheetText.summary(entry))")
            case .activity(let a): (kind, text) = ("Activities", a.name)
            }
            if kind != section {
                if roomy { lines.append("") }
                lines.append(fit("\(kind):"))
                section = kind
            }
            let line = fit("  \(i == selected ? ">" : " ") \(i + 1). \(text)")
            lines.append(i == selected ? "\u{1B}[7m\(line)\u{1B}[0m" : line)
        }
        if rows.isEmpty { lines.append(fit("Nothing can take \(sheet.documents.count == 1 ? "this document" : "these documents").")) }
        if roomy { lines.append("") }
        var footer = notice.isEmpty ? "[page \(page + 1)/\(max(pages, 1))] arrows, PgUp/PgDn, number+Enter or Enter, q cancel" : notice
        if !typed.isEmpty { footer = "choice: \(typed)  " + footer }
        lines.append(fit(footer))
        // No line break after the last line: the screen never scrolls.
        Output.text("\u{1B}[H\u{1B}[2J" + lines.joined(separator: "\r\n"))
    }

    enum Key { case up, down, pageUp, pageDown, enter, cancel, backspace, digit(Character), other }

    func readKey(_ terminal: RawTerminal) -> Key? {
        func readByte(timeout: Int32?) -> UInt8? { terminal.readByte(timeout: timeout) }
        guard let byte = readByte(timeout: nil) else { return nil }
        switch byte {
        case 0x0D, 0x0A: return .enter
        case UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x03, 0x04: return .cancel
        case UInt8(ascii: "k"): return .up
        case UInt8(ascii: "j"): return .down
        case 0x7F, 0x08: return .backspace
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return .digit(Character(Unicode.Scalar(byte)))
        case 0x1B:
            // A lone Esc cancels; Esc [ A/B/5~/6~ are the arrow and page keys.
            guard let second = readByte(timeout: 50) else { return .cancel }
            guard second == UInt8(ascii: "[") || second == UInt8(ascii: "O"), let third = readByte(timeout: 50) else { return .other }
            switch third {
            case UInt8(ascii: "A"): return .up
            case UInt8(ascii: "B"): return .down
            case UInt8(ascii: "5"): _ = readByte(timeout: 50); return .pageUp
            case UInt8(ascii: "6"): _ = readByte(timeout: 50); return .pageDown
            default: return .other
            }
        default: return .other
        }
    }
}
