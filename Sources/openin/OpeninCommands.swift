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

    let command: ParsedCommand
    let root: DeviceRoot

    init(_ command: ParsedCommand) {
        self.command = command
        root = DeviceRoot.resolve(explicit: command.value("--root"))
    }

    /// The registry (``RegistryStore/forQuery(root:)``: the root named must exist, a catalog found).
    func registry() throws(Failure) -> TypeRegistry {
        do { return try RegistryStore.forQuery(root: root) } catch { throw Failure(message: "\(error)") }
    }

    func run() throws(Failure) -> Int32 {
        if command.verb == "watch" { return try DesktopSheet.watch(idleExit: command.value("--idle-exit").flatMap(Double.init)) }
        if command.verb == "default" { return try DefaultsCommand(root: root, registry: try registry(), json: command.flag("--json")).run(command.operands) }
        let documents = command.operands
        guard !documents.isEmpty else { throw Failure(message: "name at least one document (see openin --help)") }
        if command.value("--to") != nil && command.value("--activity") != nil { throw Failure(message: "--to and --activity exclude each other") }
        let registry = try registry()
        for path in documents where FileSystem.status(path) == nil {
            // A mistyped verb (`openin defualt`) reads as a document that does not exist.
            let verb = documents.first == path ? Spelling.nearest(to: path, among: openinSpec.verbs.map(\.name)) : nil
            throw Failure(message: "\(path): \(FileSystem.linkStatus(path) == nil ? "no such file" : "a link to nothing")"
                          + (verb.map { " (did you mean the verb \($0)?)" } ?? ""))
        }
        let autostart: WatcherAutostart
        do { autostart = try WatcherAutostart.current() } catch { throw Failure(message: "\(error)") }
        let explainAll = command.flag("--all") || command.value("--to") != nil
        // The apps as the registry recorded them (it is rebuilt whenever an app is registered or
        // removed): only those that can matter for these documents, unless every app must be
        // explained (--all, --to).
        var bundles: [AppBundle]
        if explainAll {
            bundles = AppBundle.all(in: registry) ?? []
        } else {
            let detector = FileTypeDetector(registry: registry)
            bundles = AppBundle.considered(for: documents.map { detector.type(ofFileAt: $0).type }, in: registry)
        }
        if registry.appRecordCount == 0 && !RegisteredApp.all(on: root).isEmpty {
            let (read, unreadable) = AppBundle.all(on: root)
            for (path, error) in unreadable { Output.error("openin: warning: \(path): \(error) (app left out)") }
            bundles = read
        }
        let sender = command.value("--from") ?? Delivery.defaultSourceApplication
        let defaults: HandlerDefaults
        do { defaults = try HandlerDefaults(root: root) } catch { throw Failure(message: "\(error)") }
        let exclude = Set(command.all("--exclude"))
        // Linux desktop applications beside the registered bundles (DesktopSheet.swift).
        let desktop = DesktopSheet(command: command, root: root, registry: registry, documents: documents, everyApp: explainAll)
        // When the query ends (on every path, before the exits below as well), a watcher is
        // started if later queries would gain from one.
        defer { desktop?.startWatcherIfWorthwhile(autostart) }
        let chooser = Chooser(registry: registry, bundles: bundles + (desktop?.selection.bundles ?? []),
                              defaults: desktop?.defaults(merging: defaults.byType) ?? defaults.byType)
        // Refusals are needed to explain an app the user named (--to), or for --all.
        var sheet = chooser.sheet(for: documents, exclude: exclude, sourceApplication: sender, refusals: explainAll,
                                  senderIsRegistered: registry.appRecordCount == 0 ? nil : AppBundle.isRegistered(sender, in: registry))
        desktop?.arrange(&sheet)
        let rows = SheetText.rows(sheet)
        let performer = ActivityPerformer(delivery: Delivery(root: root, sourceApplication: sender, annotation: try annotation(),
                                                             launch: !command.flag("--no-launch")),
                                          registry: registry)

        if let target = command.value("--to") {
            guard let entry = sheet.apps.first(where: { $0.app.bundleIdentifier == target }) else {
                if let refusal = sheet.refusals.first(where: { $0.app.bundleIdentifier == target }) {
                    throw Failure(message: "\(target) cannot take \(documentsPhrase(sheet)): \(refusal.reason)", status: 1)
                }
                let known = (sheet.apps.map(\.app) + sheet.refusals.map(\.app)).map(\.bundleIdentifier)
                let suggestion = Spelling.nearest(to: target, among: known).map { " (did you mean \($0)?)" } ?? ""
                throw Failure(message: exclude.contains(target) ? "\(target) is excluded"
                              : desktop?.whyNot(target) ?? "no registered app \(target) on \(root.path)\(suggestion)")
            }
            return try perform(.app(entry), sheet: sheet, performer: performer, desktop: desktop)
        }
        if let type = command.value("--activity") {
            guard let activity = sheet.activities.first(where: { $0.activityType == type }) else {
                if let withheld = sheet.withheld.first(where: { $0.activityType == type }) {
                    throw Failure(message: "the activity \(type) is not offered: \(withheld)", status: 1)
                }
                let known = Activity.builtInTypes + chooser.bundles.flatMap { $0.shareExtensions.map(\.activityType) }
                guard known.contains(type) else {
                    let suggestion = Spelling.nearest(to: type, among: known).map { " (did you mean \($0)?)" } ?? ""
                    throw Failure(message: "no activity named \(type)\(suggestion); the activities are \(Activity.builtInTypes.joined(separator: ", ")) and share extensions' identifiers")
                }
                throw Failure(message: "the activity \(type) is not available for \(documentsPhrase(sheet))", status: 1)
            }
            return try perform(.activity(activity), sheet: sheet, performer: performer, desktop: desktop)
        }
        // Once the sheet is printed, exit with the sheet, the chooser and the indexes still alive:
        // the process's exit frees them at once instead of object by object (a twentieth of a
        // `--list --json` on 2,650 desktop files), as plutil does.
        if command.flag("--json") {
            Output.text(SheetText.json(sheet, all: command.flag("--all"), details: desktop?.json))
            desktop?.startWatcherIfWorthwhile(autostart)
            withExtendedLifetime((sheet, chooser, desktop)) { ToolMain.exitProcess(sheet.apps.isEmpty && sheet.activities.isEmpty ? 1 : 0) }
        }
        if command.flag("--list") || !CurrentProcess.isTerminal(0) || !CurrentProcess.isTerminal(1) {
            Output.text(SheetText.plain(sheet, explain: command.flag("--explain"), all: command.flag("--all"), details: desktop?.explanation))
            desktop?.startWatcherIfWorthwhile(autostart)
            withExtendedLifetime((sheet, chooser, desktop)) { ToolMain.exitProcess(sheet.apps.isEmpty ? 1 : 0) }
        }
        guard let choice = InteractiveSheet(sheet: sheet).run() else {
            Output.error("openin: cancelled")
            return 1
        }
        return try perform(rows[choice], sheet: sheet, performer: performer, desktop: desktop)
    }

    func documentsPhrase(_ sheet: Sheet) -> String {
        sheet.documents.count == 1 ? "\(sheet.documents[0].path) (\(sheet.documents[0].type.identifier))" : "these \(sheet.documents.count) documents"
    }

    func annotation() throws(Failure) -> PropertyList? {
        guard let text = command.value("--annotation") else { return nil }
        do {
            if text.hasPrefix("@") { return try PropertyListReader.read(contentsOf: .init(String(text.dropFirst()))).value }
            return try PropertyListReader.read(Array(text.utf8)).value
        } catch {
            throw Failure(message: "--annotation: \(error)")
        }
    }

    func perform(_ row: SheetText.Row, sheet: Sheet, performer: ActivityPerformer, desktop: DesktopSheet?) throws(Failure) -> Int32 {
        if case .app(let entry) = row, let desktop, let app = desktop.selection.byID[entry.app.bundleIdentifier] {
            return try desktop.launch(app, documents: sheet.documents.map(\.path), launch: !command.flag("--no-launch"))
        }
        do {
            switch row {
            case .app(let entry):
                for document in sheet.documents {
                    let result = try performer.delivery.deliver(document.path, type: document.type.identifier, to: entry.app,
                                                                progress: progressBar(for: document.path))
                    report(result, app: entry.app, document: document.path)
                }
            case .activity(let activity):
                var destination: String?
                if case .copyToFolder = activity.kind {
                    destination = try FolderPrompt.destination(given: command.value("--destination"))
                }
                for result in try performer.perform(activity, on: sheet.documents, destination: destination, progress: progressBar(for:)) {
                    switch result {
                    case .copied(let document, let to): Output.line(TerminalText.escaped("\(document): copied to \(to)"))
                    case .printed(let documents): Output.line("sent \(documents.count) document\(documents.count == 1 ? "" : "s") to the printer")
                    case .copiedToClipboard(let document, _, let server):
                        Output.line(TerminalText.escaped("\(document): copied to the clipboard" + (server == .bridge ? " (served by pasteboardd)" : "")))
                    case .delivered(let document, let app, let delivered): report(delivered, app: app, document: document)
                    }
                }
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(message: "\(error)")
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
