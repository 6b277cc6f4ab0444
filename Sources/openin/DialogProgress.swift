import Handlers
import SystemCalls
import ToolSupport

/// What the desktop user sees while "Send to Nearby Device…" sends, and after: a progress window
/// (zenity's `--progress`, fed the percentage and the bytes sent) and, when it is done, a message
/// that closes by itself (zenity's `--info --timeout`, kdialog's `--passivepopup`). Before, the
/// dialog closed at the choice and nothing said whether 1 GB was sent, or still being sent.
/// kdialog's progress bar is driven over D-Bus with a variant argument our bus code does not
/// write, so on KDE a popup says the sending began instead.
final class DialogProgress {
    let dialog: DesktopDialog
    let window: Spawn.Fed?
    let sizes: [String: Int64]
    var done: [String: Int64] = [:]
    var shown = -1
    let device: String

    /// Opens the window for sending `documents` to `device`.
    init(_ dialog: DesktopDialog, sending documents: [String], to device: String) {
        self.dialog = dialog
        self.device = device
        sizes = Dictionary(documents.map { ($0, FileSystem.status($0)?.size ?? 0) }) { first, _ in first }
        let what = Self.what(documents)
        let text = "Sending \(what) to \(device)…"
        switch dialog.program {
        case .zenity:
            window = try? Spawn.Fed([dialog.path, "--progress", "--title=" + dialog.purpose.title, "--text=" + DesktopDialog.markup(text, compressed: true),
                                     "--percentage=0", "--auto-close", "--no-cancel", "--width=480"])
        case .kdialog:
            window = nil
            _ = try? Spawn.detached([dialog.path, "--title", dialog.purpose.title, "--passivepopup", DesktopDialog.markup(text, compressed: false), "5"])
        }
    }

    /// The progress callback for one document, for ``Handlers/DocumentChooser/perform``.
    func bar(for path: String) -> ((Int64, Int64) -> Void)? {
        guard window != nil else { return nil }
        return { [self] sent, _ in
            done[path] = sent
            let total = max(1, sizes.values.reduce(0, +)), sum = done.values.reduce(0, +)
            let percent = Int(min(99, 100 * sum / total))
            guard percent != shown else { return }
            shown = percent
            window?.write("\(percent)\n# " + DesktopDialog.markup("Sending to \(device): \(SizeText.of(sum)) of \(SizeText.of(total))", compressed: false) + "\n")
        }
    }

    /// Closes the window and says how it ended: `nil` for success, else why it failed (the
    /// caller shows the error itself).
    func finish(documents: [String], failure: String?) {
        window?.write("100\n")
        window?.finish()
        guard failure == nil else { return }
        let message = "Sent \(Self.what(documents)) to \(device)."
        switch dialog.program {
        case .zenity:
            _ = try? Spawn.detached([dialog.path, "--info", "--title=" + dialog.purpose.title, "--no-wrap", "--timeout=10",
                                     "--text=" + DesktopDialog.markup(message, compressed: true)])
        case .kdialog:
            _ = try? Spawn.detached([dialog.path, "--title", dialog.purpose.title, "--passivepopup", DesktopDialog.markup(message, compressed: false), "10"])
        }
    }

    static func what(_ documents: [String]) -> String {
        documents.count == 1 ? (documents[0].split(separator: "/").last.map(String.init) ?? documents[0]) : "\(documents.count) documents"
    }
}
