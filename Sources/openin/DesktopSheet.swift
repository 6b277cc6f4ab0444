import AppRegistry
import DesktopEntries
import Handlers
import PropertyLists
import SystemCalls
import ToolSupport
import UniformTypes

/// `openin`'s Linux desktop applications: which are offered (``Handlers/LinuxApps``), their
/// explanations and JSON fields, and starting one (``DesktopEntries/DesktopLauncher``).
///
/// They are offered when no device root was named (`--root` stands for another device), or
/// with `--desktop-apps`; never with `--no-desktop-apps`.
struct DesktopSheet {
    let linux: LinuxApps
    let selection: LinuxApps.Selection
    /// Whether `--json` carries each desktop app's explanation (`--explain`).
    let explain: Bool

    init?(command: ParsedCommand, root: DeviceRoot, registry: TypeRegistry, documents: [String], everyApp: Bool) {
        guard !command.flag("--no-desktop-apps"), command.flag("--desktop-apps") || root.origin != .explicit else { return nil }
        linux = LinuxApps(apps: DesktopApps(), mode: command.flag("--gio") ? .gio : .recommended)
        explain = command.flag("--explain")
        let detector = FileTypeDetector(registry: registry)
        selection = linux.select(types: documents.map { detector.type(ofFileAt: $0).type }, registry: registry, everyApp: everyApp)
    }

    /// Starts `openin watch --idle-exit …` as a daemon when `autostart` allows it and later
    /// queries would gain from it (``DesktopEntries/DesktopApps/wouldGainFromWatcher``). Two
    /// queries may both start one: the second watcher finds the name taken and exits.
    func startWatcherIfWorthwhile(_ autostart: WatcherAutostart) {
        guard autostart == .auto, linux.apps.wouldGainFromWatcher, let program = CurrentProcess.executablePath() else { return }
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

    /// The desktop defaults under the user's own (`openin default set`), which win for the same type.
    func defaults(merging own: [String: String]) -> [String: String] {
        selection.defaults.merging(own) { _, own in own }
    }

    func arrange(_ sheet: inout Sheet) { linux.arrange(&sheet, selection: selection) }

    func explanation(_ entry: Sheet.AppEntry, _ document: Int) -> [String] {
        linux.explanation(for: entry.app.bundleIdentifier, document: document, in: selection)
    }

    func json(_ entry: Sheet.AppEntry) -> [(String, PropertyList)] {
        guard let app = selection.byID[entry.app.bundleIdentifier] else { return [("kind", .string("bundle"))] }
        var fields: [(String, PropertyList)] = [("kind", .string("desktop")), ("desktopFile", .string(app.path))]
        if let entry = app.entry {
            fields.append(("hidden", .bool(linux.isHiddenHelper(app))))
            if let exec = entry.exec { fields.append(("exec", .string(exec))) }
        }
        if explain {
            fields.append(("explanation", .array(linux.explanation(for: app.id, document: 0, in: selection).map(PropertyList.string))))
        }
        return fields
    }

    /// Why `id` is not offered, when it names a desktop file.
    func whyNot(_ id: String) -> String? {
        guard id.hasSuffix(".desktop") else { return nil }
        let availability = linux.apps.availability(id)
        if case .available = availability { return "\(id) cannot open these documents" }
        return availability.description
    }

    /// Starts `app` with the documents, as GIO would; prints what was started.
    func launch(_ app: DesktopApp, documents: [String], launch: Bool) throws(OpeninCommands.Failure) -> Int32 {
        var paths: [String] = []
        for document in documents {
            do { paths.append(try CurrentProcess.absolutePath(document)) } catch { throw .init(message: "\(error)") }
        }
        guard launch else {
            Output.line("\(app.name) (\(app.id)) not started (--no-launch)")
            return 0
        }
        let result: DesktopLauncher.Result
        do { result = try DesktopLauncher().launch(app, documents: paths) } catch { throw .init(message: "\(app.id): \(error)") }
        for (original, granted) in result.portalGrants { Output.line("\(original): granted to \(app.id) through the document portal as \(granted)") }
        switch result.method {
        case .spawned(let processes):
            for words in processes { Output.line("started \(app.name) (\(app.id)): \(words.joined(separator: " "))") }
        case .activated(let name, let path, let uris):
            Output.line("opened in \(app.name) (\(app.id)) through D-Bus: \(name) \(path) Open \(uris.joined(separator: " "))")
        }
        return 0
    }

    /// The desktop app `id` as a bundle, when it can open `type` (`openin default set TYPE ID.desktop`:
    /// the choice is stored with the user's other defaults and ranks the app first).
    static func capableApp(_ id: String, for type: UTType, registry: TypeRegistry) throws(OpeninCommands.Failure) -> AppBundle {
        let linux = LinuxApps()
        guard linux.apps.app(id) != nil else { throw .init(message: linux.apps.whyNotAvailable(id)) }
        let selection = linux.select(types: [type], registry: registry)
        guard let bundle = selection.bundles.first(where: { $0.bundleIdentifier == id }),
              !HandlerRanking(registry: registry).rank(type: type, fileName: nil, index: HandlerIndex(bundles: [bundle], registry: registry)).isEmpty else {
            let mime = LinuxApps.mimeType(of: type)
            throw .init(message: "\(id) cannot open \(type.identifier) (\(mime)): neither its MimeType= nor a mimeapps.list line associates it")
        }
        return bundle
    }
}
