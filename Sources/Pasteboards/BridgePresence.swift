import AppRegistry
import SystemCalls

/// Whether a desktop bridge (`pasteboardd`) serves a device root's general pasteboard on a
/// display. The bridge holds an exclusive `flock` on `ROOT/Pasteboards/bridge-KEY.lock` for its
/// whole life (released by the kernel however it ends, `kill -9` included); a program that copies
/// to the clipboard (openin's Copy) then writes the general pasteboard, which the bridge publishes
/// and keeps serving, instead of leaving a clipboard helper process behind.
public final class BridgePresence: Sendable {
    /// The held lock's descriptor.
    let lock: OwnedDescriptor

    /// The key of a display: `x11:DISPLAY` or `wayland:WAYLAND_DISPLAY`, reduced to characters a
    /// file name can hold.
    public static func key(backend: String, display: String) -> String {
        let safe = display.unicodeScalars.map { ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "." || $0 == "-")) ? Character($0) : "_" }
        return backend + "-" + String(safe)
    }

    /// The key of the display the environment names, as openin's Copy chooses it: Wayland when
    /// `WAYLAND_DISPLAY` is set, else X11's `DISPLAY`; `nil` when neither is.
    public static func environmentKey() -> String? {
        if let wayland = Environment.value("WAYLAND_DISPLAY"), !wayland.isEmpty { return key(backend: "wayland", display: wayland) }
        if let x11 = Environment.value("DISPLAY"), !x11.isEmpty { return key(backend: "x11", display: x11) }
        return nil
    }

    static func path(root: DeviceRoot, key: String) -> String { root.path + "/Pasteboards/bridge-" + key + ".lock" }

    /// Takes the presence for `key` on `root`, for as long as this value lives.
    /// - Throws: ``PasteboardError`` when another bridge already serves that display, or the
    ///   lock file cannot be made.
    public init(root: DeviceRoot, key: String) throws(PasteboardError) {
        let path = Self.path(root: root, key: key)
        let file: OwnedDescriptor
        let taken: Bool
        do {
            try FileSystem.makeDirectories(root.path + "/Pasteboards")
            file = try OwnedDescriptor.open(path, .readWrite, options: [.create])
            taken = try file.tryLock(.exclusive)
        } catch { throw .system(error) }
        guard taken else { throw .bridgeAlreadyRunning(path) }
        lock = file
    }

    /// Whether a bridge serves `key` on `root` now (its lock is held). Looking creates nothing.
    public static func isServed(root: DeviceRoot, key: String) -> Bool {
        guard let file = try? OwnedDescriptor.open(path(root: root, key: key), .readOnly) else { return false }
        return (try? file.tryLock(.shared)) == false
    }
}
