// The Person Viewer of the seed's story (seed 003's appB), as a real program on the app-side
// library: started by a request (its DILaunchCommand: bin/person-viewer %u %s %r), it reads that
// request once. A person document is shown and kept as the viewer's person; an x-callback-url
// `person-viewer://x-callback-url/exportPerson?x-success=…` is answered through the caller's
// scheme with the person as base64url JSON (`person=…`), or with x-error when it has none.
//
//   person-viewer            what started it (run by openurl or openin)
//   person-viewer show       the viewer's person
import AppInterchange
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
    print("person-viewer: \(message)")
    exit(1)
}

let app: InterchangeApp
do { app = try InterchangeApp.current(fallbackIdentifier: identifier) } catch { fail("\(error)") }

if CommandLine.arguments.dropFirst().first == "show" {
    let bytes = (try? JSONPropertyListWriter(prettyPrinted: true).write(person(of: app))) ?? []
    print(String(decoding: bytes, as: UTF8.self))
    exit(0)
}

let request: IncomingRequest?
do { request = try app.launchRequest() } catch { fail("\(error)") }
switch request {
case nil:
    print("Person Viewer: started without a request (try: person-viewer show)")
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
