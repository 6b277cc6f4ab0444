import AppRegistry
import DesktopEntries
import Handlers
import PropertyLists
import Spelling
import SystemCalls
import ToolSupport
import UniformTypes

/// What `openin` does with a parsed command line: a thin layer over the Handlers library.
struct OpeninCommands {
    /// What went wrong, said as the tool prints it, with the exit status.
    typealias Failure = ToolFailure

    let command: OpeninCommand
    let root: DeviceRoot

    init(_ command: OpeninCommand) {
        self.command = command
        root = DeviceRoot.resolve(explicit: command[.root])
    }

    /// The registry (``RegistryStore/forQuery(root:)``: the root named must exist, a catalog found).
    func registry() throws(Failure) -> TypeRegistry {
        do { return try RegistryStore.forQuery(root: root) } catch { throw Failure(message: "\(error)") }
    }

    func run() throws(Failure) -> Int32 {
        switch command.verb {
        case .watch: return try DesktopWatcher.watch(idleExit: command[.idleExit].flatMap(Double.init))
        case .default: return try DefaultsCommand(root: root, registry: try registry(), json: command.flag(.json)).run(command.operands)
        case nil: break
        }
        let documents = command.operands
        guard !documents.isEmpty else { throw Failure(message: "name at least one document (see openin --help)") }
        if command[.to] != nil && command[.activity] != nil { throw Failure(message: "--to and --activity exclude each other") }
        let registry = try registry()
        for path in documents where FileSystem.status(path) == nil {
            // A mistyped verb (`openin defualt`) reads as a document that does not exist.
            let verb = documents.first == path ? Spelling.nearest(to: path, among: openinSpec.verbs.map(\.name)) : nil
            throw Failure(message: "\(path): \(FileSystem.linkStatus(path) == nil ? "no such file" : "a link to nothing")"
                          + (verb.map { " (did you mean the verb \($0)?)" } ?? ""))
        }
        let autostart: WatcherAutostart
        do { autostart = try WatcherAutostart.current() } catch { throw Failure(message: "\(error)") }
        let everyApp = command.flag(.all) || command[.to] != nil
        // Linux desktop applications are offered when no device root was named (`--root` stands
        // for another device), or with --desktop-apps; never with --no-desktop-apps.
        let nearbyOnly = command.flag(.nearby)
        let desktopApps = !nearbyOnly && !command.flag(.noDesktopApps) && (command.flag(.desktopApps) || root.origin != .explicit)
        var configuration = DocumentChooser.Configuration(
            sourceApplication: command[.from] ?? Delivery.defaultSourceApplication, exclude: Set(command.all(.exclude)),
            apps: everyApp ? .every : .relevant, desktopApps: desktopApps ? LinuxApps(mode: command.flag(.gio) ? .gio : .recommended) : nil)
        configuration.nearbyDevicesOnly = nearbyOnly
        let chooser: DocumentChooser
        do { chooser = try DocumentChooser(root: root, registry: registry, configuration: configuration) } catch { throw Failure(message: "\(error)") }
        let choices = chooser.choices(for: documents)
        for (path, error) in choices.unreadableApps { Output.error("openin: warning: \(path): \(error) (app left out)") }
        // When the query ends (on every path, before the exits below as well), a watcher is
        // started if later queries would gain from one.
        defer { DesktopWatcher.startWatcherIfWorthwhile(autostart, choices: choices) }
        if nearbyOnly && choices.rows.isEmpty && DesktopDialog.trigger(asked: command.flag(.dialog), list: command.flag(.list) || command.flag(.json)) == .never {
            throw Failure(message: DocumentChooser.whyNoNearbyDevice(on: root), status: 1)
        }
        if let target = command[.to] { return try perform(choices.row(forApp: target), of: choices, chooser: chooser) }
        if let type = command[.activity] { return try perform(choices.row(forActivity: type), of: choices, chooser: chooser) }
        let sheet = choices.sheet
        // Started from the desktop (no terminal at all), or --dialog: the same rows as a dialog.
        if DesktopDialog.trigger(asked: command.flag(.dialog), list: command.flag(.list) || command.flag(.json)) != .never {
            var dialog = try DesktopDialog.find()
            if nearbyOnly { dialog.purpose = .sendToNearbyDevice }
            do throws(Failure) {
                guard !choices.rows.isEmpty else {
                    throw Failure(message: nearbyOnly ? DocumentChooser.whyNoNearbyDevice(on: root, forDesktop: true) : "nothing can take \(choices.documentsPhrase)", status: 1)
                }
                guard let index = try dialog.choose(choices) else {
                    Output.error("openin: cancelled")
                    return 1
                }
                return try perform(.success(choices.rows[index]), of: choices, chooser: chooser, dialog: dialog)
            } catch {
                // The user has no terminal to read the message on.
                dialog.showError(error.message)
                throw error
            }
        }
        // Once the sheet is printed, exit with the sheet, the chooser and the indexes still alive:
        // the process's exit frees them at once instead of object by object (a twentieth of a
        // `--list --json` on 2,650 desktop files), as plutil does.
        if command.flag(.json) {
            let explain = command.flag(.explain)
            Output.text(SheetText.json(sheet, all: command.flag(.all), details: choices.includesDesktopApps ? { choices.details($0, explain: explain) } : nil))
            DesktopWatcher.startWatcherIfWorthwhile(autostart, choices: choices)
            withExtendedLifetime((choices, chooser)) { ToolMain.exitProcess(sheet.apps.isEmpty && sheet.activities.isEmpty ? 1 : 0) }
        }
        if command.flag(.list) || !CurrentProcess.isTerminal(0) || !CurrentProcess.isTerminal(1) {
            Output.text(SheetText.plain(sheet, explain: command.flag(.explain), all: command.flag(.all),
                                        details: choices.includesDesktopApps ? { entry, document in choices.explanation(entry, document: document) } : nil))
            DesktopWatcher.startWatcherIfWorthwhile(autostart, choices: choices)
            withExtendedLifetime((choices, chooser)) { ToolMain.exitProcess(sheet.apps.isEmpty ? 1 : 0) }
        }
        guard let choice = InteractiveSheet(sheet: sheet).run() else {
            Output.error("openin: cancelled")
            return 1
        }
        return try perform(.success(choices.rows[choice]), of: choices, chooser: chooser)
    }

    func annotation() throws(Failure) -> PropertyList? {
        guard let text = command[.annotation] else { return nil }
        do {
            if text.hasPrefix("@") { return try PropertyListReader.read(contentsOf: .init(String(text.dropFirst()))).value }
            return try PropertyListReader.read(Array(text.utf8)).value
        } catch {
            throw Failure(message: "--annotation: \(error)")
        }
    }

    /// Performs the row found, or says why there is none (exit 1 when the app or activity exists
    /// and refuses the documents, else 2), and prints what was done.
    /// - Parameter dialog: the desktop dialog the row was chosen in, which also asks for a folder.
    func perform(_ found: Result<ChooserRow, ChooserUnavailable>, of choices: Choices, chooser: DocumentChooser,
                 dialog: DesktopDialog? = nil) throws(Failure) -> Int32 {
        let row: ChooserRow
        switch found {
        case .success(let found): row = found
        case .failure(let why): throw Failure(message: why.description, status: why.refusesDocuments ? 1 : 2)
        }
        var destination: String?
        if case .activity(let activity) = row.handler, case .copyToFolder = activity.kind {
            if let dialog, command[.destination] == nil {
                guard let folder = try dialog.folder() else { throw Failure(message: "cancelled", status: 1) }
                destination = folder
            } else {
                destination = try FolderPrompt.destination(given: command[.destination])
            }
        }
        let annotation = try annotation()
        // From the desktop, a send to a nearby device shows its progress and its end in windows.
        var sending: DialogProgress?
        if let dialog, case .activity(let activity) = row.handler, case .sendToNearbyDevice(let device) = activity.kind {
            sending = DialogProgress(dialog, sending: choices.sheet.documents.map(\.path), to: device)
        }
        let outcomes: [ChooserOutcome]
        do {
            outcomes = try chooser.perform(row, of: choices, annotation: annotation, launch: !command.flag(.noLaunch),
                                           destination: destination, progress: sending.map { sending in sending.bar(for:) } ?? progressBar(for:))
        } catch {
            sending?.finish(documents: choices.sheet.documents.map(\.path), failure: "\(error)")
            throw Failure(message: "\(error)")
        }
        sending?.finish(documents: choices.sheet.documents.map(\.path), failure: nil)
        for outcome in outcomes {
            switch outcome {
            case .delivered(let document, let app, let result): report(result, app: app, document: document)
            case .notStarted(let app): Output.line(TerminalText.escaped("\(row.name) (\(app.id)) not started (--no-launch)"))
            case .started(let app, let result):
                for (original, granted) in result.portalGrants {
                    Output.line(TerminalText.escaped("\(original): granted to \(app.id) through the document portal as \(granted)"))
                }
                switch result.method {
                case .spawned(let processes):
                    for words in processes { Output.line(TerminalText.escaped("started \(row.name) (\(app.id)): \(words.joined(separator: " "))")) }
                case .activated(let name, let path, let uris):
                    Output.line(TerminalText.escaped("opened in \(row.name) (\(app.id)) through D-Bus: \(name) \(path) Open \(uris.joined(separator: " "))"))
                }
            case .performed(.copied(let document, let to)): Output.line(TerminalText.escaped("\(document): copied to \(to)"))
            case .performed(.printed(let documents)): Output.line("sent \(documents.count) document\(documents.count == 1 ? "" : "s") to the printer")
            case .performed(.copiedToClipboard(let document, _, let server)):
                Output.line(TerminalText.escaped("\(document): copied to the clipboard" + (server == .bridge ? " (served by pasteboardd)" : "")))
            case .performed(.delivered(let document, let app, let delivered)): report(delivered, app: app, document: document)
            case .performed(.sentToNearbyDevice(let documents, let device)):
                Output.line(TerminalText.escaped("sent \(documents.count) document\(documents.count == 1 ? "" : "s") to \(device) (nearby)"))
            }
        }
        return 0
    }

    func report(_ result: Delivery.Result, app: AppBundle, document: String) {
        Output.line(TerminalText.escaped(result.inPlace
            ? "\(document): opened in place by \(app.name) (\(app.bundleIdentifier)); request \(result.requestPath)"
            : "\(document): delivered to \(app.name) (\(app.bundleIdentifier)) as \(result.documentPath); request \(result.requestPath)"))
        if let launched = result.launched { Output.line("started: \(launched.joined(separator: " "))") }
    }

    /// A progress bar on standard error for files of 8 MiB or more, when it is a terminal.
    func progressBar(for path: String) -> ((Int64, Int64) -> Void)? {
        guard CurrentProcess.isTerminal(2), let status = FileSystem.status(path), status.size >= 8 << 20 else { return nil }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return { copied, total in
            let width = 30
            let filled = total > 0 ? Int(Int64(width) * copied / total) : width
            let percent = total > 0 ? Int(100 * copied / total) : 100
            var line = "\r\(name) [" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] \(percent)%"
            if copied >= total { line += "\n" }
            Output.errorText(line)
        }
    }
}
