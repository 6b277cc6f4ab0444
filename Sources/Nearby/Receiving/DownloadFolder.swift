import DesktopEntries
import SystemCalls

/// The user's download folder, where items no app takes go: `XDG_DOWNLOAD_DIR` from
/// `user-dirs.dirs` in the XDG configuration folder (what `xdg-user-dir DOWNLOAD` prints), else
/// `~/Downloads`.
public enum DownloadFolder {
    /// The folder for the current user.
    public static func path() -> String {
        let home = Environment.home
        // The configuration folder by the rule DesktopEntries already applies (XDG_CONFIG_HOME).
        let config = DesktopLocations.current().folders.first { $0.origin == "XDG_CONFIG_HOME" }?.path ?? home + "/.config"
        if let bytes = try? FileSystem.read(config + "/user-dirs.dirs") {
            for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline) where line.hasPrefix("XDG_DOWNLOAD_DIR=") {
                var value = String(line.dropFirst("XDG_DOWNLOAD_DIR=".count))
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
                if value.hasPrefix("$HOME") { value = home + value.dropFirst(5) }
                if value.hasPrefix("/") { return value }
            }
        }
        return home + "/Downloads"
    }
}
