// The Person Viewer of the seed's story (seed 003's appB), as a real program on the app-side
// library: started by a request (its DILaunchCommand: bin/person-viewer %u %s %r), it reads that
// request once. A person document is shown and kept as the viewer's person; an x-callback-url
// `person-viewer://x-callback-url/exportPerson?x-success=…` is answered through the caller's
// scheme with the person as base64url JSON (`person=…`), or with x-error when it has none.
// `person-viewer://x-callback-url/pastePerson?pasteboard=NAME&type=UTI` (what the editor's
// paste-to-viewer opens) reads the named pasteboard, unarchives the ENHAppDataPackage under the
// type and keeps its payload as the viewer's person.
//
//   person-viewer                                    what started it (run by openurl or openin)
//   person-viewer show                               the viewer's person
//   person-viewer paste [--pasteboard NAME] [--type UTI]   the same reading, printed (exit 1 when it fails)
import AppInterchange
import KeyedArchives
import Pasteboards
import PropertyLists
import SystemPackage
import URLSchemes
#if canImport(Glibc)
import Glibc
#endif

let identifier = "com.example.person-viewer"

/// Appends a line to the app's `Library/launch.log` (what the story's steps did, for the tests and
/// scripts/run-samples to read; a launched app has no terminal of its own).
func log(_ app: InterchangeApp, _ line: String) {
    let path = FilePath(app.container.library + "/launch.log")
    guard let fd = try? FileDescriptor.open(path, .writeOnly, options: [.append, .create], permissions: [.ownerReadWrite, .groupRead, .otherRead]) else { return }
    _ = try? fd.closeAfter { try fd.writeAll(Array((line + "\n").utf8)) }
}

/// The viewer's person: `Documents/person.person`, else a built-in one.
func person(of app: InterchangeApp) -> PropertyList {
    if let value = try? PropertyListReader.read(contentsOf: FilePath(app.container.documents + "/person.person")).value { return value }
    return .dictionary(["name": .string("Grace Hopper"), "born": .string("1906-12-09")])
}

func fail(_ message: String) -> Never {
    _ = try? FileDescriptor.standardError.writeAll(Array("person-viewer: \(message)\n".utf8))
    exit(1)
}

/// Why a pasted person could not be read, in one sentence naming the pasteboard and type.
enum PasteFailure: Error, CustomStringConvertible {
    case noPasteboard(String)
    case noPackage(pasteboard: String, type: String)
    case pasteboard(String, PasteboardDataPackageError)
    case notAPerson(pasteboard: String, from: String, reason: String)

    var description: String {
        switch self {
        case .noPasteboard(let name): "no pasteboard named '\(name)' that this app may see (same team or app group)"
        case .noPackage(let name, let type): "pasteboard '\(name)' holds nothing of type \(type)"
        case .pasteboard(let name, let error): "pasteboard '\(name)': \(error)"
        case .notAPerson(let name, let from, let reason): "pasteboard '\(name)': the package from \(from) does not carry a person: \(reason)"
        }
    }
}

/// Reads the data package under `type` on the named pasteboard, as this app sees it (its team and
/// groups from its entitlements), and the person in its payload, which becomes the viewer's person.
func pastedPerson(_ app: InterchangeApp, pasteboard name: String, type: String) throws(PasteFailure) -> (AppDataPackage, PropertyList) {
    let store = PasteboardStore(root: app.root)
    let board: Pasteboard?
    do { board = try store.pasteboard(named: PasteboardName(name), create: false, for: PasteboardClient(app: app.bundle)) }
    catch { throw .pasteboard(name, .pasteboard(error)) }
    guard let board else { throw .noPasteboard(name) }
    let package: AppDataPackage?
    do { package = try board.dataPackage(type: type) } catch { throw .pasteboard(name, error) }
    guard let package else { throw .noPackage(pasteboard: name, type: type) }
    let from = package.sourceApplicationIdentifier
    let person: PropertyList
    do { person = try PropertyListReader.read(package.payload).value }
    catch { throw .notAPerson(pasteboard: name, from: from, reason: "\(error)") }
    guard person["name"]?.stringValue != nil else { throw .notAPerson(pasteboard: name, from: from, reason: "no name") }
    if let bytes = try? XMLPropertyListWriter().write(person) {
        try? FileContents.write(bytes, to: FilePath(app.container.documents + "/person.person"))
    }
    return (package, person)
}

/// The person as one line of JSON.
func json(_ person: PropertyList, pretty: Bool = false) -> String {
    String(decoding: (try? JSONPropertyListWriter(prettyPrinted: pretty).write(person)) ?? [], as: UTF8.self)
}

let defaultPasteboard = "com.example.person-editor.transfer"
let defaultType = "com.example.person-editor.datapackage"

let app: InterchangeApp
do { app = try InterchangeApp.current(fallbackIdentifier: identifier) } catch { fail("\(error)") }

if CommandLine.arguments.dropFirst().first == "show" {
    let bytes = (try? JSONPropertyListWriter(prettyPrinted: true).write(person(of: app))) ?? []
    print(String(decoding: bytes, as: UTF8.self))
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "paste" {
    var options = Array(CommandLine.arguments.dropFirst(2))
    var name = defaultPasteboard, type = defaultType
    while let option = options.first {
        guard options.count >= 2, option == "--pasteboard" || option == "--type" else {
            fail("usage: person-viewer paste [--pasteboard NAME] [--type UTI]")
        }
        if option == "--pasteboard" { name = options[1] } else { type = options[1] }
        options.removeFirst(2)
    }
    do {
        let (package, person) = try pastedPerson(app, pasteboard: name, type: type)
        print("Person Viewer unarchived an ENHAppDataPackage from \(package.sourceApplicationName) (\(package.sourceApplicationIdentifier) "
              + "\(package.sourceApplicationVersion) build \(package.sourceApplicationBuild)) on pasteboard \(name):")
        print(json(person, pretty: true))
    } catch { fail("\(error)") }
    exit(0)
}

let request: IncomingRequest?
do { request = try app.launchRequest() } catch { fail("\(error)") }
switch request {
case nil:
    print("Person Viewer: started without a request (try: person-viewer show)")
case .activity(let activity)?:
    fail("Person Viewer continues no activity, yet \(activity.offer.activityType) reached it")
case .document(let document)?:
    let requestPath = CommandLine.arguments.count > 3 ? CommandLine.arguments[3] : ""
    log(app, "Person Viewer opened \(document.path) from \(document.sourceApplication ?? "an unnamed sender") (\(requestPath))")
    // The document becomes the viewer's person.
    if let value = try? PropertyListReader.read(contentsOf: FilePath(document.path)).value,
       let bytes = try? XMLPropertyListWriter().write(value) {
        try? FileContents.write(bytes, to: FilePath(app.container.documents + "/person.person"))
    }
case .url(let incoming)?:
    guard let callback = incoming.callback else {
        log(app, "Person Viewer: \(incoming.url.normalizedScheme) URL without x-callback-url from \(incoming.sourceApplication ?? "?"); nothing to answer")
        exit(1)
    }
    let sender = callback.source ?? incoming.sourceApplication ?? "?"
    if callback.action == "pastePerson" {
        let name = callback.parameter("pasteboard") ?? defaultPasteboard, type = callback.parameter("type") ?? defaultType
        do {
            let (package, person) = try pastedPerson(app, pasteboard: name, type: type)
            log(app, "Person Viewer unarchived an ENHAppDataPackage from \(package.sourceApplicationName) (\(package.sourceApplicationIdentifier)) "
                     + "on pasteboard \(name), opened by \(sender): \(json(person))")
        } catch {
            log(app, "Person Viewer could not paste from \(sender): \(error)")
            exit(1)
        }
        exit(0)
    }
    guard callback.action == "exportPerson" else {
        log(app, "Person Viewer: unknown action \(callback.action) from \(sender)")
        _ = try? app.reply(to: callback, with: .error(code: 1, message: "unknown action \(callback.action)"))
        exit(1)
    }
    do {
        let json = try JSONPropertyListWriter().write(person(of: app))
        let answered = try app.reply(to: callback, with: .success([QueryItem(name: "person", value: Base64URL.encode(json))]))
        log(app, "Person Viewer answered exportPerson from \(sender) with \(json.count) bytes of JSON"
                 + (answered.map { " through \($0.normalizedScheme):" } ?? " (the caller gave no x-success)"))
    } catch {
        log(app, "Person Viewer could not answer \(sender): \(error)")
        _ = try? app.reply(to: callback, with: .error(code: 2, message: "\(error)"))
        exit(1)
    }
}
