import Handlers
import PropertyLists
import ToolSupport
import UniformTypes
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What `openin` does with a parsed command line.
struct OpeninCommands {
    struct Failure: Error { var message: String; var status: Int32 = 2 }

    let invocation: OpeninInvocation
    let root: DeviceRoot

    init(_ invocation: OpeninInvocation) {
        self.invocation = invocation
        root = DeviceRoot.resolve(explicit: invocation.root)
    }

    func registry() throws(Failure) -> TypeRegistry {
        do { return try RegistryStore.open(root: root, catalog: TypeCatalog.directory(for: root)) } catch {
            throw Failure(message: "cannot open the registry of \(root.path): \(error)")
        }
    }

    func defaults() throws(Failure) -> HandlerDefaults {
        do { return try HandlerDefaults(root: root) } catch { throw Failure(message: "\(error)") }
    }

    func run() throws(Failure) -> Int32 {
        if invocation.help { Output.text(OpeninInvocation.help + "\n"); return 0 }
        if let verb = invocation.defaultsVerb { return try defaultCommand(verb) }
        let registry = try registry()
        // The apps as the registry recorded them (it is rebuilt whenever an app is registered or
        // removed): only those that can matter for these documents, unless every app must be
        // explained (--all, --to); every Info.plist is read again only when it has no records.
        var bundles: [AppBundle]
        if invocation.all || invocation.to != nil {
            bundles = AppBundle.all(in: registry) ?? []
        } else {
            let detector = FileTypeDetector(registry: registry)
            bundles = AppBundle.considered(for: invocation.documents.map { detector.type(ofFileAt: $0).type }, in: registry)
        }
        if registry.appRecordCount == 0 && !RegisteredApp.all(on: root).isEmpty {
            let (read, unreadable) = AppBundle.all(on: root)
            for (path, error) in unreadable { Output.error("openin: warning: \(path): \(error) (app left out)") }
            bundles = read
        }
        for path in invocation.documents where access(path, F_OK) != 0 {
            throw Failure(message: "\(path): \(String(cString: strerror(errno)))")
        }
        let sender = invocation.from ?? Delivery.defaultSourceApplication
        let chooser = Chooser(registry: registry, bundles: bundles, defaults: try defaults().byType)
        // Refusals are needed to explain an app the user named (--to), or for --all.
        let sheet = chooser.sheet(for: invocation.documents, exclude: invocation.exclude, sourceApplication: sender,
                                  refusals: invocation.all || invocation.to != nil,
                                  senderIsRegistered: registry.appRecordCount == 0 ? nil : AppBundle.isRegistered(sender, in: registry))
        let rows = SheetText.rows(sheet)

        if let target = invocation.to {
            guard let index = sheet.apps.firstIndex(where: { $0.app.bundleIdentifier == target }) else {
                if let refusal = sheet.refusals.first(where: { $0.app.bundleIdentifier == target }) {
                    throw Failure(message: "\(target) cannot take \(documentsPhrase(sheet)): \(refusal.reason)", status: 1)
                }
                throw Failure(message: invocation.exclude.contains(target) ? "\(target) is excluded" : "no registered app \(target)")
            }
            return try perform(.app(sheet.apps[index]), sheet: sheet, registry: registry, sender: sender)
        }
        if let type = invocation.activity {
            guard let activity = sheet.activities.first(where: { $0.activityType == type }) else {
                throw Failure(message: "the activity \(type) is not available for \(documentsPhrase(sheet))", status: 1)
            }
            return try perform(.activity(activity), sheet: sheet, registry: registry, sender: sender)
        }
        if invocation.json { Output.text(SheetText.json(sheet, all: invocation.all)); return sheet.apps.isEmpty && sheet.activities.isEmpty ? 1 : 0 }
        if invocation.list || isatty(0) == 0 || isatty(1) == 0 {
            Output.text(SheetText.plain(sheet, explain: invocation.explain, all: invocation.all))
            return sheet.apps.isEmpty ? 1 : 0
        }
        guard let choice = InteractiveSheet(sheet: sheet).run() else {
            Output.error("openin: cancelled")
            return 1
        }
        return try perform(rows[choice], sheet: sheet, registry: registry, sender: sender)
    }

    func documentsPhrase(_ sheet: Sheet) -> String {
        sheet.documents.count == 1 ? "\(sheet.documents[0].path) (\(sheet.documents[0].type.identifier))" : "these \(sheet.documents.count) documents"
    }

    func annotation() throws(Failure) -> PropertyList? {
        guard let text = invocation.annotation else { return nil }
        do {
            if text.hasPrefix("@") { return try PropertyListReader.read(contentsOf: .init(String(text.dropFirst()))).value }
            return try PropertyListReader.read(Array(text.utf8)).value
        } catch {
            throw Failure(message: "--annotation: \(error)")
        }
    }

    func perform(_ row: SheetText.Row, sheet: Sheet, registry: TypeRegistry, sender: String) throws(Failure) -> Int32 {
        let annotation = try annotation()
        do {
            switch row {
            case .app(let entry):
                for document in sheet.documents {
                    let result = try Delivery.deliver(document.path, type: document.type.identifier, to: entry.app, on: root,
                                                      sourceApplication: sender, annotation: annotation, launch: invocation.launch,
                                                      progress: progressBar(for: document.path))
                    report(result, app: entry.app, document: document.path)
                }
            case .activity(let activity):
                try perform(activity, sheet: sheet, sender: sender, annotation: annotation)
            }
        } catch {
            throw Failure(message: "\(error)")
        }
        return 0
    }

    func report(_ result: Delivery.Result, app: AppBundle, document: String) {
        Output.line(result.inPlace
            ? "\(document): opened in place by \(app.name) (\(app.bundleIdentifier)); request \(result.requestPath)"
            : "\(document): delivered to \(app.name) (\(app.bundleIdentifier)) as \(result.documentPath); request \(result.requestPath)")
        if let launched = result.launched { Output.line("started: \(launched.joined(separator: " "))") }
    }

    func perform(_ activity: Activity, sheet: Sheet, sender: String, annotation: PropertyList?) throws(HandlerError) {
        switch activity.kind {
        case .copyToFolder:
            var folder = invocation.destination
            if folder == nil && isatty(0) != 0 {
                Output.text("Copy to folder: ")
                folder = readLine(strippingNewline: true)
            }
            guard let folder, !folder.isEmpty else { throw .refused("copy-to-folder needs --destination DIR") }
            for document in sheet.documents {
                let name = document.path.split(separator: "/").last.map(String.init) ?? document.path
                let copy = try Delivery.copyWithoutReplacing(document.path, into: folder, temporaryFolder: folder, name: name, mode: 0o644,
                                                             progress: progressBar(for: document.path))
                Output.line("\(document.path): copied to \(copy)")
            }
        case .saveToSender(let bundleIdentifier):
            let container = try AppContainer(bundleIdentifier: bundleIdentifier, on: root)
            try container.create()
            for document in sheet.documents {
                let name = document.path.split(separator: "/").last.map(String.init) ?? document.path
                let copy = try Delivery.copyWithoutReplacing(document.path, into: container.documents, temporaryFolder: container.temporary,
                                                             name: name, mode: 0o644, progress: progressBar(for: document.path))
                Output.line("\(document.path): saved to \(copy)")
            }
        case .print:
            guard ExternalCommand.run(["lp"] + sheet.documents.map(\.path), input: []) != nil else { throw .refused("lp failed") }
            Output.line("sent \(sheet.documents.count) document\(sheet.documents.count == 1 ? "" : "s") to the printer")
        case .copyToClipboard(let program):
            let document = sheet.documents[0]
            guard let bytes = try? FileContents.read(.init(document.path)) else { throw .system("cannot read \(document.path)", errno) }
            let mime = document.type.preferredMIMEType ?? "application/octet-stream"
            let command = program == "wl-copy" ? ["wl-copy", "--type", mime] : ["xclip", "-selection", "clipboard", "-t", mime, "-i"]
            guard ExternalCommand.run(command, input: bytes) != nil else { throw .refused("\(program) failed") }
            Output.line("\(document.path): copied to the clipboard")
        case .shareExtension(let bundleIdentifier):
            let bundles = AppBundle.all(on: root).apps
            guard let app = bundles.first(where: { $0.bundleIdentifier == bundleIdentifier }) else { throw .refused("no registered app \(bundleIdentifier)") }
            for document in sheet.documents {
                let result = try Delivery.deliver(document.path, type: document.type.identifier, to: app, on: root, sourceApplication: sender,
                                                  annotation: annotation, activity: activity.activityType, launch: invocation.launch,
                                                  progress: progressBar(for: document.path))
                report(result, app: app, document: document.path)
            }
        }
    }

    /// A progress bar on standard error for files of 8 MiB or more, when it is a terminal.
    func progressBar(for path: String) -> ((Int64, Int64) -> Void)? {
        guard isatty(2) != 0 else { return nil }
        var info = stat()
        guard stat(path, &info) == 0, info.st_size >= 8 << 20 else { return nil }
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

    func defaultCommand(_ words: [String]) throws(Failure) -> Int32 {
        guard let verb = words.first else { throw Failure(message: "default takes set, get or unset") }
        var store = try defaults()
        switch (verb, words.count) {
        case ("set", 3):
            guard TypeIdentifierSyntax.isValid(words[1]) else { throw Failure(message: "\(words[1]) is not a valid type identifier") }
            let known = AppBundle.all(on: root).apps.contains { $0.bundleIdentifier == words[2] }
            if !known { Output.error("openin: warning: no registered app \(words[2]) (the default is kept for when it is)") }
            do { try store.set(words[1], to: words[2]) } catch { throw Failure(message: "\(error)") }
            Output.line("\(words[1]) → \(words[2])")
            return 0
        case ("unset", 2):
            guard store.get(words[1]) != nil else { Output.error("openin: no default is set for \(words[1])"); return 1 }
            do { try store.set(words[1], to: nil) } catch { throw Failure(message: "\(error)") }
            return 0
        case ("get", 2):
            let registry = try registry()
            guard let type = UTType(words[1], in: registry) else { throw Failure(message: "\(words[1]) is not a valid type identifier") }
            let ranking = HandlerRanking(registry: registry)
            let distance = ranking.distancesFromType(type)
            let found = store.entries.compactMap { entry -> (String, String, Int)? in
                distance[TypeIdentifierSyntax.normalized(entry.key)].map { (entry.key, entry.value, $0) }
            }.min { $0.2 < $1.2 }
            guard let found else { Output.error("openin: no default for \(words[1]) or its supertypes"); return 1 }
            Output.line(found.0.lowercased() == words[1].lowercased() ? found.1 : "\(found.1) (set for \(found.0))")
            return 0
        default:
            throw Failure(message: "default set TYPE BUNDLE-ID | get TYPE | unset TYPE")
        }
    }
}
