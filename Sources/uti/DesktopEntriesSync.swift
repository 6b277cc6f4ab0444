import AppRegistry
import SystemCalls
import ToolSupport
import URLSchemes

/// After `register` and `unregister` on the user's own device root: the registered apps' URL
/// schemes exported as x-scheme-handler desktop entries running `openurl` (and entries of
/// unregistered apps removed), so that `gio open SCHEME:…` and `xdg-open` reach them. A root named
/// with `--root` or the environment is left to `openurl desktop sync`: a test or a scratch root
/// must not change the user's desktop.
extension UtiCommands {
    func syncDesktopEntries() {
        guard root.origin == .userDefault, root.exists, let registry = try? registry() else { return }
        var openurl = Environment.findExecutable("openurl") ?? "openurl"
        if let me = CurrentProcess.executablePath(), let slash = me.lastIndex(of: "/"), FileSystem.isExecutable(me[..<slash] + "/openurl") {
            openurl = me[..<slash] + "/openurl"
        }
        do {
            let changes = try DesktopSchemeEntries.sync(root: root, apps: AppBundle.all(in: registry) ?? [], openurl: openurl)
            if !quiet {
                for path in changes.written { Output.line("desktop entry \(path)") }
                for path in changes.removed { Output.line("removed desktop entry \(path)") }
            }
        } catch {
            Output.error("uti: warning: the desktop entries of URL schemes were not updated: \(error)")
        }
    }
}
