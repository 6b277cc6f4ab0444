import DesktopEntries
import SystemCalls

/// Hands a URL no registered app handles (https, mailto) to the desktop's handler: `gio open`
/// when GLib's `gio` is installed (it honours x-scheme-handler associations without a display),
/// else `xdg-open`. Started directly, never through a shell, and waited for (both return once
/// the handler is started).
///
/// Loops are cut: the desktop may start `openurl` for a scheme (our exported entries,
/// ``DesktopSchemeEntries``); the handoff marks its child's environment with
/// ``loopMarker``, and an `openurl` that finds the mark and no registered app refuses to hand the
/// URL back.
public enum DesktopHandoff {
    /// The environment variable set in the desktop program's environment.
    public static let loopMarker = "DI_OPENURL_HANDOFF"

    /// The programs tried, in order.
    public static let programs: [[String]] = [["gio", "open"], ["xdg-open"]]

    /// The command that would open `url`, when a program is installed.
    public static func command(for url: SchemeURL) -> [String]? {
        for program in programs where Environment.findExecutable(program[0]) != nil { return program + [url.text] }
        return nil
    }

    /// Opens `url` with the desktop's handler.
    /// - Returns: the command run.
    /// - Throws: ``URLSchemeError/handoffLoop(scheme:)`` when this process was started by a handoff,
    ///   ``URLSchemeError/noDesktopHandler(scheme:lookedFor:)``, ``URLSchemeError/desktopFailed(command:status:)``.
    public static func handOver(_ url: SchemeURL) throws(URLSchemeError) -> [String] {
        if Environment.value(loopMarker) != nil { throw .handoffLoop(scheme: url.normalizedScheme) }
        let installed = programs.filter { Environment.findExecutable($0[0]) != nil }.map { $0 + [url.text] }
        guard !installed.isEmpty else {
            throw .noDesktopHandler(scheme: url.normalizedScheme, lookedFor: programs.map { $0.joined(separator: " ") })
        }
        // `gio open` opens only what a desktop file claims (x-scheme-handler/SCHEME): with no
        // claim it can only fail ("Operation not supported"), so only xdg-open is tried, which
        // may still find a browser ($BROWSER, x-www-browser); failing that, the reason is given.
        let claimed = !DesktopApps().applications(for: "x-scheme-handler/" + url.normalizedScheme).isEmpty
        let tried = installed.filter { claimed || $0[0] != "gio" }
        var failed: (command: [String], status: Int32)?
        for command in tried {
            let status: Int32
            do {
                let pid = try Spawn.detached(command, adding: [loopMarker + "=1"])
                status = try Spawn.wait(for: pid)
            } catch { throw .system(error) }
            if status == 0 { return command }
            failed = failed ?? (command, status)
        }
        guard let failed, claimed else { throw .noDesktopApp(scheme: url.normalizedScheme, tried: tried.map { $0.dropLast().joined(separator: " ") }) }
        throw .desktopFailed(command: failed.command, status: failed.status)
    }
}
