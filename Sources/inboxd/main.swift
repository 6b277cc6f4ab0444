// `inboxd`: moves complete files out of apps' Documents/Inbox into their Documents/ (docs/receiver.md).
import Handlers
import Logging
import OrderedCollections
import PropertyLists
import Receiver
import ToolSupport
import UniformTypes
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

let usage = """
inboxd: moves every complete file out of an app's Documents/Inbox into its Documents/ (or a
working folder), and records each move in the app's Library/Manifest.sqlite.

Usage:
  inboxd run [--root DIR] [--app BUNDLE-ID] [--rescan SECONDS]
                                                 watch (inotify) and move as files arrive, until
                                                 SIGTERM or SIGINT; a full pass every SECONDS (5)
  inboxd once [--root DIR] [--app BUNDLE-ID]     process what is there now, then exit
  inboxd status [--root DIR] [--app BUNDLE-ID]   per app: files waiting, moves stored, quarantined,
                                                 and moves a crash left unfinished
  inboxd history [--root DIR] [--app BUNDLE-ID] [--json]
                                                 the manifest: every move, oldest first
  inboxd recover [--root DIR] [--app BUNDLE-ID]  settle moves a crash interrupted (also done at
                                                 every start)

Options (run and once):
  --working-folder DIR   move into DIR instead of Documents/ (with --app); on another file
                         system, files are copied, flushed, then removed from the Inbox
  --allow-sender PREFIX  accept only documents whose open request names a sender
                         (sourceApplication) starting with PREFIX; repeatable
  --max-size BYTES       refuse larger files (default 4 GiB)
  --log-level LEVEL      trace, debug, info, notice, warning, error (run: info, else warning);
                         logs go to stderr, one logfmt line per event

Guarantees (docs/receiver.md):
  - No loss: the Inbox copy goes away only after the moved file is durable (fsync the file,
    rename, fsync both folders). A move is journaled before it starts; a crash at any step is
    completed or rolled back at the next start, without duplicates.
  - Never overwrite: a taken name gets a suffix (name-1.ext, within 255 bytes).
  - One claim per file: several receivers on one Inbox move each file once.
  - Only complete files: a file another process still has open for writing waits.
  - Hostile input contained: links are never followed; only regular files with one link, within
    the size limit, of a type the app opens (CFBundleDocumentTypes), from an allowed sender are
    moved; anything else goes to Library/Quarantine with the reason. Nothing is deleted.
  - Set-id and sticky bits are dropped (mode 0644).

Without --app, every container of the device root (ROOT/Containers/*) is processed.
Exit status: 0 done (files left in place are reported), 2 usage errors and failures.
"""

var words = ArgumentWords(ProcessArguments.afterProgramName())
var verb: String?, rootPath: String?, app: String?, rescan = 5.0, json = false, allowedSenders: [String] = []
var workingFolder: String?, logLevel: Logger.Level?, sizeLimit: Int64 = 1 << 32
/// The value after an option; a missing one is a usage error, never a silent default.
@MainActor func required(_ option: String) -> String {
    guard let value = words.value(), !value.isEmpty else { Output.error("inboxd: \(option) needs a value\nUse inboxd --help for usage."); exit(2) }
    return value
}
while let word = words.next() {
    switch word {
    case "--root": rootPath = required(word)
    case "--app": app = required(word)
    case "--json": json = true
    case "--allow-sender":
        allowedSenders.append(required(word))
    case "--working-folder": workingFolder = required(word)
    case "--max-size":
        guard let limit = Int64(required(word)), limit >= 0 else { Output.error("inboxd: --max-size takes a number of bytes"); exit(2) }
        sizeLimit = limit
    case "--log-level":
        guard let level = Logger.Level(rawValue: required(word)) else {
            Output.error("inboxd: --log-level takes one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))"); exit(2)
        }
        logLevel = level
    case "--rescan": rescan = Double(required(word)) ?? -1
        if rescan <= 0 { Output.error("inboxd: --rescan takes a number of seconds"); exit(2) }
    case "-h", "--help": Output.text(usage + "\n"); exit(0)
    default:
        if word.hasPrefix("-") || verb != nil { Output.error("inboxd: unexpected \(word)\nUse inboxd --help for usage."); exit(2) }
        verb = word
    }
}
guard let verb, ["once", "history", "run", "status", "recover"].contains(verb) else {
    Output.error("inboxd: name a command (once, run, status, history, recover)\nUse inboxd --help for usage.")
    exit(2)
}
if workingFolder != nil && app == nil {
    Output.error("inboxd: --working-folder needs --app (each app has its own)"); exit(2)
}
let chosenLevel = logLevel ?? (verb == "run" ? .info : .warning)
LoggingSystem.bootstrap { _ in
    var handler = LogfmtHandler()
    handler.logLevel = chosenLevel
    return handler
}
let logger = Logger(label: "inboxd")
let root = DeviceRoot.resolve(explicit: rootPath)
var identifiers: [String] = []
if let app {
    identifiers = [app]
} else {
    identifiers = FileSystem.entries(of: root.path + "/Containers").filter { !$0.hasPrefix(".") }
}
/// Logs each outcome (moved: info; left for later: notice; refused or quarantined: warning) and,
/// for `once`, prints it on stdout.
func report(_ container: AppContainer, _ results: [(name: [UInt8], outcome: InboxMover.Outcome)], printing: Bool, into folder: String) {
    let identifier = container.path.split(separator: "/").last.map(String.init) ?? container.path
    for (name, outcome) in results {
        let shown = InboxMover.displayName(name)
        switch outcome {
        case .moved(let stored): logger.info("moved", metadata: ["app": "\(identifier)", "name": "\(shown)", "stored": "\(stored)"])
        case .deferred(let why): logger.notice("left for later", metadata: ["app": "\(identifier)", "name": "\(shown)", "reason": "\(why)"])
        case .refused(let why): logger.warning("refused", metadata: ["app": "\(identifier)", "name": "\(shown)", "reason": "\(why)"])
        case .quarantined(let why, let stored):
            logger.warning("quarantined", metadata: ["app": "\(identifier)", "name": "\(shown)", "stored": "\(stored)", "reason": "\(why)"])
        }
        guard printing else { continue }
        switch outcome {
        case .moved(let stored): Output.line("\(identifier): \(shown) -> \(folder)\(stored)")
        case .deferred(let why): Output.line("\(identifier): \(shown) left for later: \(why)")
        case .refused(let why): Output.line("\(identifier): \(shown) refused: \(why)")
        case .quarantined(let why, let stored): Output.line("\(identifier): \(shown) quarantined as Library/Quarantine/\(stored): \(why)")
        }
    }
}

/// The type policy: each file's type (the name first, the content when needed) goes into the
/// manifest, and a file is accepted when that type is one the app opens through its
/// CFBundleDocumentTypes, as the chooser decides eligibility. An app that is not registered on the
/// device root has no policy: everything is accepted (and still typed).
func typePolicy(for identifier: String, container: AppContainer) -> (@Sendable ([UInt8], Int32) -> InboxMover.Judgement)? {
    guard let registry = try? RegistryStore.open(root: root, catalog: TypeCatalog.directory(for: root)) else { return nil }
    let app = AppBundle.all(in: registry)?.first(where: { $0.bundleIdentifier == identifier })
    let index = app.map { HandlerIndex(bundles: [$0], registry: registry) }
    return { name, fd in
        // Judged on the descriptor the mover opened; a name that is not UTF-8 keeps its
        // extension when the bytes after the last dot are.
        let shown = String(decoding: name, as: UTF8.self)
        let type = FileTypeDetector(registry: registry).type(ofFileNamed: shown, openAs: fd).type
        guard let app, let index else { return .init(type: type.identifier) }
        let eligible = !HandlerRanking(registry: registry).rank(type: type, fileName: shown, index: index).isEmpty
        return .init(type: type.identifier, refusal: eligible ? nil : "its type \(type.identifier) is not one \(app.name) opens")
    }
}

/// The mover for one app, with the command line's policy.
@MainActor func mover(for identifier: String, container: AppContainer, manifest: Manifest) throws(HandlerError) -> InboxMover {
    var mover = InboxMover(container: container, sizeLimit: sizeLimit, manifest: manifest)
    if let workingFolder {
        do { try FileSystem.makeDirectories(workingFolder) } catch { throw .refused("cannot create the working folder \(workingFolder): \(error)") }
        mover.destination = workingFolder
    }
    mover.policy = typePolicy(for: identifier, container: container)
    mover.allowedSenders = allowedSenders
    return mover
}

if verb == "run" {
    do {
        var movers: [InboxMover] = []
        for identifier in identifiers.sorted() {
            let container = try AppContainer(bundleIdentifier: identifier, on: root)
            try container.create()
            movers.append(try mover(for: identifier, container: container, manifest: try Manifest(path: container.library + "/Manifest.sqlite")))
        }
        guard !movers.isEmpty else { Output.error("inboxd: no app to watch (use --app, or deliver to an app first)"); exit(2) }
        logger.info("watching", metadata: ["apps": "\(movers.count)", "rescan": "\(rescan)"])
        try InboxWatcher(movers: movers, rescanInterval: rescan, logger: logger, report: { report($0, $1, printing: false, into: "") }).run()
        logger.info("stopped")
        exit(0)
    } catch {
        Output.error("inboxd: \(error)")
        exit(2)
    }
}

var failed = false
var historyRows: [PropertyList] = []
for identifier in identifiers.sorted() {
    do {
        let container = try AppContainer(bundleIdentifier: identifier, on: root)
        try container.create()
        let manifest = try Manifest(path: container.library + "/Manifest.sqlite")
        if verb == "status" {
            let rows = try manifest.entries()
            let waiting = FileSystem.entries(of: container.inbox).count
            Output.line("\(identifier): \(waiting) waiting in the Inbox, \(rows.filter { $0.status == "stored" }.count) stored, "
                        + "\(rows.filter { $0.status == "quarantined" }.count) quarantined, \(rows.filter { $0.status == "moving" || $0.status == "copied" }.count) unfinished")
            continue
        }
        if verb == "recover" {
            try mover(for: identifier, container: container, manifest: manifest).recover()
            Output.line("\(identifier): \(try manifest.entries(status: "moving").count + manifest.entries(status: "copied").count) moves left unfinished (owned by running receivers)")
            continue
        }
        if verb == "history" && json {
            let rows = try manifest.entries().map { entry -> PropertyList in
                var row: OrderedDictionary<String, PropertyList> = [
                    "app": .string(identifier), "status": .string(entry.status),
                    "originalName": .string(InboxMover.displayName(entry.originalName)),
                    "size": .integer(entry.size), "sha256": .string(entry.sha256),
                ]
                if let stored = entry.storedName { row["storedName"] = .string(stored) }
                if let type = entry.type { row["type"] = .string(type) }
                if let arrived = entry.arrived { row["arrived"] = .real(arrived) }
                if let moved = entry.moved { row["moved"] = .real(moved) }
                if let reason = entry.reason { row["reason"] = .string(reason) }
                if let sender = entry.sender { row["sender"] = .string(sender) }
                if let annotation = entry.annotation { row["annotation"] = annotation }
                return .dictionary(row)
            }
            historyRows += rows
            continue
        }
        if verb == "history" {
            for entry in try manifest.entries() {
                Output.line("\(identifier)\t\(entry.status)\t\(InboxMover.displayName(entry.originalName))\t\(entry.storedName ?? "-")\t\(entry.type ?? "-")\t\(entry.size)\t\(entry.sha256)")
            }
            continue
        }
        report(container, try mover(for: identifier, container: container, manifest: manifest).moveAll(), printing: true,
               into: workingFolder.map { $0 + "/" } ?? "Documents/")
    } catch {
        Output.error("inboxd: \(identifier): \(error)")
        failed = true
    }
}
if verb == "history" && json {
    let bytes = (try? JSONPropertyListWriter(prettyPrinted: true).write(.array(historyRows))) ?? []
    Output.text(String(decoding: bytes, as: UTF8.self) + "\n")
}
exit(failed ? 2 : 0)

