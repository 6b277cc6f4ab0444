// `inboxd`: moves complete files out of apps' Documents/Inbox into their Documents/.
// So far `once` only (issue #6 is in progress; docs/receiver.md).
import Handlers
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
inboxd: moves every complete file out of an app's Documents/Inbox into its Documents/, never
overwriting (name-1.ext), never following links, skipping files still open for writing.

Usage:
  inboxd once [--root DIR] [--app BUNDLE-ID]     process what is there now, then exit
  inboxd history [--root DIR] [--app BUNDLE-ID] [--json]
                                                 the manifest: every move, oldest first
  inboxd status [--root DIR] [--app BUNDLE-ID]   per app: files waiting, moves stored, quarantined,
                                                 and moves a crash left unfinished
  inboxd recover [--root DIR] [--app BUNDLE-ID]  settle moves a crash interrupted (also done at
                                                 every start)
  inboxd run [--root DIR] [--app BUNDLE-ID] [--rescan SECONDS]
                                                 watch (inotify) and move as files arrive, until
                                                 SIGTERM or SIGINT; a full pass every SECONDS (5)

Each move is journaled in the app's Library/Manifest.sqlite before the rename, and a move a crash
interrupted is completed or rolled back at the next start: no file is lost or stored twice.

Without --app, every container of the device root (ROOT/Containers/*) is processed.
--allow-sender PREFIX (repeatable, with once and run): accept only documents whose open request
names a sender (sourceApplication) starting with PREFIX; others go to Library/Quarantine.
A document is accepted only when its type is one the app opens (CFBundleDocumentTypes); refused
files are moved to Library/Quarantine with the reason, never deleted.
Exit status: 0 done (files left in place are reported), 2 usage errors and failures.
"""

var words = ArgumentWords(ProcessArguments.afterProgramName())
var verb: String?, rootPath: String?, app: String?, rescan = 5.0, json = false, allowedSenders: [String] = []
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
let root = DeviceRoot.resolve(explicit: rootPath)
var identifiers: [String] = []
if let app {
    identifiers = [app]
} else {
    identifiers = FileSystem.entries(of: root.path + "/Containers").filter { !$0.hasPrefix(".") }
}
func print(_ container: AppContainer, _ results: [(name: [UInt8], outcome: InboxMover.Outcome)]) {
    let identifier = container.path.split(separator: "/").last.map(String.init) ?? container.path
    for (name, outcome) in results {
        let shown = InboxMover.displayName(name)
        switch outcome {
        case .moved(let stored): Output.line("\(identifier): \(shown) -> Documents/\(stored)")
        case .deferred(let why): Output.line("\(identifier): \(shown) left for later: \(why)")
        case .refused(let why): Output.line("\(identifier): \(shown) refused: \(why)")
        case .quarantined(let why, let stored): Output.line("\(identifier): \(shown) quarantined as Library/Quarantine/\(stored): \(why)")
        }
    }
}

/// The type policy: a file is accepted when its type (the name first, the content when needed)
/// is one the app opens through its CFBundleDocumentTypes, as the chooser decides eligibility.
/// An app that is not registered on the device root has no policy: everything is accepted.
func typePolicy(for identifier: String, container: AppContainer) -> (@Sendable ([UInt8], Int32) -> String?)? {
    guard let registry = try? RegistryStore.open(root: root, catalog: TypeCatalog.directory(for: root)),
          let app = AppBundle.all(in: registry)?.first(where: { $0.bundleIdentifier == identifier }) else { return nil }
    let index = HandlerIndex(bundles: [app], registry: registry)
    let inbox = container.inbox
    return { name, _ in
        let path = inbox + "/" + InboxMover.displayName(name)
        let type = FileTypeDetector(registry: registry).type(ofFileAt: path).type
        let eligible = !HandlerRanking(registry: registry).rank(type: type, fileName: path, index: index).isEmpty
        return eligible ? nil : "its type \(type.identifier) is not one \(app.name) opens"
    }
}

if verb == "run" {
    do {
        var movers: [InboxMover] = []
        for identifier in identifiers.sorted() {
            let container = try AppContainer(bundleIdentifier: identifier, on: root)
            try container.create()
            var mover = InboxMover(container: container, manifest: try Manifest(path: container.library + "/Manifest.sqlite"))
            mover.accepts = typePolicy(for: identifier, container: container)
            mover.allowedSenders = allowedSenders
            movers.append(mover)
        }
        guard !movers.isEmpty else { Output.error("inboxd: no app to watch (use --app, or deliver to an app first)"); exit(2) }
        try InboxWatcher(movers: movers, rescanInterval: rescan, report: print).run()
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
                        + "\(rows.filter { $0.status == "quarantined" }.count) quarantined, \(rows.filter { $0.status == "moving" }.count) unfinished")
            continue
        }
        if verb == "recover" {
            try InboxMover(container: container, manifest: manifest).recover()
            Output.line("\(identifier): \(try manifest.entries(status: "moving").count) moves left unfinished (owned by running receivers)")
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
                Output.line("\(identifier)\t\(entry.status)\t\(InboxMover.displayName(entry.originalName))\t\(entry.storedName ?? "-")\t\(entry.size)\t\(entry.sha256)")
            }
            continue
        }
        var mover = InboxMover(container: container, manifest: manifest)
        mover.accepts = typePolicy(for: identifier, container: container)
        mover.allowedSenders = allowedSenders
        print(container, try mover.moveAll())
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

