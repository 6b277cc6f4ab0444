// `pasteboardd`: a thin shell over the PasteboardBridge library (docs/pasteboards.md).
import AppRegistry
import Logging
import PasteboardBridge
import Pasteboards
import ToolSupport
import UniformTypes

ToolMain.run(pasteboarddSpec) { command in
    let level = command.value("--log-level").flatMap(Logger.Level.init(rawValue:)) ?? .info
    LoggingSystem.bootstrap { _ in LogfmtHandler(level: level) }
    let logger = Logger(label: "pasteboardd")
    let chosen = command.value("--backend").flatMap(DesktopClipboard.Backend.init(rawValue:)) ?? DesktopClipboard.environmentBackend()
    guard let backend = chosen else {
        Output.error("pasteboardd: no display: set WAYLAND_DISPLAY or DISPLAY, or name one with --backend and --display")
        return 1
    }
    do {
        let clipboard = try DesktopClipboard(backend: backend, display: command.value("--display"))
        let store = PasteboardStore(root: DeviceRoot.resolve(explicit: command.value("--root")))
        try DesktopBridge(store: store, clipboard: clipboard, logger: logger).run()
    } catch {
        Output.error("pasteboardd: \(error)")
        return 1
    }
    return 0
}
