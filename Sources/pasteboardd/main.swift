// `pasteboardd`: a thin shell over the PasteboardBridge library (docs/pasteboards.md).
import AppRegistry
import LogfmtLogging
import Logging
import PasteboardBridge
import Pasteboards
import SystemCalls
import ToolSupport
import UniformTypes

ToolMain.run(pasteboarddSpec, options: PasteboarddOption.self, verbs: PasteboarddVerb.self) { command in
    let level = command[.logLevel].flatMap(Logger.Level.init(rawValue:)) ?? .info
    LoggingSystem.bootstrap { _ in LogfmtHandler(level: level) }
    let logger = Logger(label: "pasteboardd")
    let chosen = command[.backend].flatMap(DesktopClipboard.Backend.init(rawValue:)) ?? DesktopClipboard.environmentBackend()
    guard let backend = chosen else {
        Output.error("pasteboardd: no display: set WAYLAND_DISPLAY or DISPLAY, or name one with --backend and --display")
        return 1
    }
    do {
        // Clamped: the C layer counts milliseconds in 32 bits (24 days).
        let timeout = command[.timeout].flatMap(Double.init).map { Duration.milliseconds(Int64((min($0, 2_000_000) * 1000).rounded(.up))) }
        let clipboard = try DesktopClipboard(backend: backend, display: command[.display], timeout: timeout ?? DesktopClipboard.defaultTimeout)
        let store = PasteboardStore(root: DeviceRoot.resolve(explicit: command[.root]))
        // Held while the bridge runs: a program that copies to this display's clipboard (openin's
        // Copy) then writes the general pasteboard, which the bridge serves.
        let display = command[.display] ?? Environment.value(backend == .wayland ? "WAYLAND_DISPLAY" : "DISPLAY") ?? ""
        let presence = try BridgePresence(root: store.root, key: BridgePresence.key(backend: backend.rawValue, display: display))
        try withExtendedLifetime(presence) { try DesktopBridge(store: store, clipboard: clipboard, logger: logger).run() }
    } catch {
        Output.error("pasteboardd: \(error)")
        return 1
    }
    return 0
}
