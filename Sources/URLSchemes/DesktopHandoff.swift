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
        guard let command = command(for: url) else {
            throw .noDesktopHandler(scheme: url.normalizedScheme, lookedFor: programs.map { $0.joined(separator: " ") })
        }
        let status: Int32
        do {
            let pid = try Spawn.detached(command, adding: [loopMarker + "=1"])
            status = try Spawn.wait(for: pid)
        } catch { throw .system(error) }
        guard status == 0 else { throw .desktopFailed(command: command, status: status) }
        return command
    }
}
