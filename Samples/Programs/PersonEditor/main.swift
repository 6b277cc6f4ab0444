// The Person Editor of the seed's story (seed 003's appA), as a real program on the app-side
// library. `person-editor ask-viewer` asks the Person Viewer for its person with an
// x-callback-url request; the viewer answers through the editor's scheme, which starts the
// editor (its DILaunchCommand) with the answer: the base64url JSON is decoded and the person
// stored as `Documents/Person from Viewer.person`.
//
//   person-editor ask-viewer [--root DIR]    send the request (canOpenURL first)
//   person-editor                            what started it (run by openurl)
import AppInterchange
import AppRegistry
import PropertyLists
import SystemPackage
import URLSchemes
#if canImport(Glibc)
import Glibc
#endif

let identifier = "com.example.person-editor"
let stored = "Person from Viewer.person"

func log(_ app: InterchangeApp, _ line: String) {
    let path = FilePath(app.container.library + "/launch.log")
    guard let fd = try? FileDescriptor.open(path, .writeOnly, options: [.append, .create], permissions: [.ownerReadWrite, .groupRead, .otherRead]) else { return }
    _ = try? fd.closeAfter { try fd.writeAll(Array((line + "\n").utf8)) }
}

func fail(_ message: String) -> Never {
    print("person-editor: \(message)")
    exit(1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var root: DeviceRoot?
if let index = arguments.firstIndex(of: "--root"), index + 1 < arguments.count {
    root = DeviceRoot(path: arguments[index + 1])
    arguments.removeSubrange(index...(index + 1))
}
let app: InterchangeApp
do { app = try InterchangeApp.current(fallbackIdentifier: identifier, root: root) } catch { fail("\(error)") }

if arguments.first == "ask-viewer" {
    // canOpenURL: the editor lists person-viewer in LSApplicationQueriesSchemes.
    let answer: CanOpenAnswer
    do { answer = try app.canOpenAnswer("person-viewer://") } catch { fail("\(error)") }
    guard answer.canOpen else { fail("cannot ask the viewer: \(answer)") }
    do {
        let request = try XCallbackRequest(scheme: "person-viewer", action: "exportPerson", source: app.bundleIdentifier,
                                           success: try SchemeURL("person-editor://x-callback-url/personExported"),
                                           error: try SchemeURL("person-editor://x-callback-url/exportFailed"))
        try app.open(request.url)
        print("Person Editor asked: \(request.url)")
    } catch { fail("\(error)") }
    exit(0)
}

let request: IncomingRequest?
do { request = try app.launchRequest() } catch { fail("\(error)") }
switch request {
case nil:
    print("Person Editor: started without a request (try: person-editor ask-viewer)")
case .document(let document)?:
    log(app, "Person Editor opened \(document.path) from \(document.sourceApplication ?? "an unnamed sender")")
case .url(let incoming)?:
    guard let callback = incoming.callback else { fail("a URL that is not an x-callback-url: \(incoming.url)") }
    switch callback.action {
    case "personExported":
        guard let payload = callback.parameter("person") else {
            log(app, "Person Editor: the viewer's answer has no person")
            exit(1)
        }
        do {
            let json = try Base64URL.decode(payload)
            var options = PropertyListReadOptions()
            options.readsJSON = true
            let person = try PropertyListReader.read(json, options: options).value
            try FileContents.write(try XMLPropertyListWriter().write(person), to: FilePath(app.container.documents + "/" + stored))
            log(app, "Person Editor stored \(app.container.documents)/\(stored) (\(json.count) bytes of JSON from \(incoming.sourceApplication ?? "?"))")
        } catch {
            log(app, "Person Editor: the viewer's answer is not a person: \(error)")
            exit(1)
        }
    case "exportFailed":
        log(app, "Person Editor: the viewer failed: \(callback.parameter("errorMessage") ?? "no message") (code \(callback.parameter("errorCode") ?? "?"))")
        exit(1)
    default:
        log(app, "Person Editor: unknown action \(callback.action)")
        exit(1)
    }
}
