import DesktopEntries
import Handlers
import SystemCalls
import ToolSupport

/// `openin`'s watcher of the Linux desktop applications' folders (``DesktopEntries/IndexWatcher``):
/// `openin watch`, and starting one after a query that would gain from it.
enum DesktopWatcher {
    /// Starts `openin watch --idle-exit …` as a daemon when `autostart` allows it and later
    /// queries would gain from it (``Handlers/Choices/wouldGainFromWatcher``). Two queries may
    /// both start one: the second watcher finds the name taken and exits.
    static func startWatcherIfWorthwhile(_ autostart: WatcherAutostart, choices: Choices) {
        guard autostart == .auto, choices.wouldGainFromWatcher, let program = CurrentProcess.executablePath() else { return }
        _ = try? Spawn.daemon([program, "watch", "--idle-exit", String(Int(WatcherAutostart.idleExit))])
    }

    /// `openin watch`: the index watcher for this process's XDG folders, until it is stopped (or
    /// until no query has asked for `idleExit` seconds).
    static func watch(idleExit: Double?) throws(OpeninCommands.Failure) -> Int32 {
        guard DesktopLocations.current().isAbsolute else {
            throw OpeninCommands.Failure(message: "HOME is not an absolute path, so the desktop folders depend on the working folder: queries do not ask a watcher about them")
        }
        let watcher: IndexWatcher
        do { watcher = try IndexWatcher(report: { Output.error("openin: " + $0) }) } catch where error.errno == .addressInUse {
            throw OpeninCommands.Failure(message: "a watcher for these desktop folders is already running")
        } catch {
            throw OpeninCommands.Failure(message: "cannot watch the desktop folders: \(error)")
        }
        Output.error("openin: watching \(watcher.folderCount) folders of desktop applications and associations")
        do { try watcher.run(idleExit: idleExit) } catch { throw OpeninCommands.Failure(message: "watching stopped: \(error)") }
        return 0
    }
}
