// The Person Editor of the seed's story (seed 003's appA), as a real program on the app-side
// library. `person-editor ask-viewer` asks the Person Viewer for its person with an
// x-callback-url request; the viewer answers through the editor's scheme, which starts the
// editor (its DILaunchCommand) with the answer: the base64url JSON is decoded and the person
// stored as `Documents/Person from Viewer.person`.
// `person-editor paste-to-viewer` is seed 000's channel the other way: the person, archived in
// an ENHAppDataPackage, goes on the named pasteboard `com.example.person-editor.transfer` under
// the editor's own type, and the viewer is opened through its scheme to read it from there.
//
//   person-editor ask-viewer [--root DIR]                   send the request (canOpenURL first)
//   person-editor paste-to-viewer [--root DIR] [PERSON]     put PERSON (a .person file; else a
//                                                           built-in person) on the pasteboard, open the viewer
//   person-editor send-nearby [--root DIR] DEVICE PERSON    send PERSON to the Person Viewer on
//                                                           a paired nearby device (seed 001's channel)
//   person-editor                                           what started it (run by openurl)
import AppInterchange
import AppRegistry
import KeyedArchives
import Pasteboards
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
    _ = try? FileDescriptor.standardError.writeAll(Array("person-editor: \(message)\n".utf8))
    exit(1)
}

/// The named pasteboard the editor hands its data package over on. Both sample apps carry the
/// team `ABCDE12345` in their entitlements, which is what lets the viewer see it.
let transferPasteboard = PasteboardName("com.example.person-editor.transfer")
/// The editor's own type for its archived data package (as the seed's
/// `com.EnharmonicHQ.Editor.datapackage`): a pasteboard type needs no declaration.
let packageType = "com.example.person-editor.datapackage"

/// Puts the person in the file at `path` (any property list format; a built-in person without
/// one) on the transfer pasteboard as an archived `ENHAppDataPackage`, then opens the viewer's
/// `pastePerson` action naming the pasteboard and the type.
func pasteToViewer(_ app: InterchangeApp, personAt path: String?) throws -> String {
    let person: PropertyList
    if let path { person = try PropertyListReader.read(contentsOf: FilePath(path)).value }
    else { person = .dictionary(["name": .string("Katherine Johnson"), "born": .string("1918-08-26")]) }
    let package = AppDataPackage(sourceApplicationName: app.bundle.name, sourceApplicationIdentifier: app.bundleIdentifier,
                                 sourceApplicationVersion: app.bundle.shortVersion ?? "", sourceApplicationBuild: app.bundle.version ?? "",
                                 payload: try XMLPropertyListWriter().write(person))
    let store = PasteboardStore(root: app.root)
    // Persistent (the seed's iOS 9 pasteboards): the editor exits before the viewer reads, and a
    // pasteboard that lives as long as its creator's processes would be gone by then.
    guard let board = try store.pasteboard(named: transferPasteboard, create: true, lifetime: .persistent, for: PasteboardClient(app: app.bundle)) else {
        throw PasteboardError.notFound(transferPasteboard)
    }
    let count = try board.setDataPackage(package, type: packageType)
    let request = try XCallbackRequest(scheme: "person-viewer", action: "pastePerson",
                                       parameters: [QueryItem(name: "pasteboard", value: transferPasteboard.rawValue),
                                                    QueryItem(name: "type", value: packageType)],
                                       source: app.bundleIdentifier)
    try app.open(request.url)
    return "Person Editor put \(person["name"]?.stringValue ?? "a person") on pasteboard \(transferPasteboard) as \(packageType)"
         + " (\(package.payload.count) bytes of payload, change count \(count)) and opened \(request.url)"
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

if arguments.first == "paste-to-viewer" {
    guard arguments.count <= 2 else { fail("usage: person-editor paste-to-viewer [--root DIR] [PERSON-FILE]") }
    do { print(try pasteToViewer(app, personAt: arguments.count == 2 ? arguments[1] : nil)) } catch { fail("\(error)") }
    exit(0)
}

if arguments.first == "send-nearby" {
    // Seed 001's first channel: the person goes to the Person Viewer on a paired device.
    guard arguments.count == 3 else { fail("usage: person-editor send-nearby [--root DIR] DEVICE PERSON-FILE") }
    do {
        let devices = try app.nearbyDevices()
        guard devices.contains(where: { $0.name == arguments[1] }) else {
            fail("no paired device is called \(arguments[1]) (paired: \(devices.map(\.name).joined(separator: ", ")))")
        }
        let report = try app.send(documents: [arguments[2]], toNearbyDevice: arguments[1], app: "com.example.person-viewer", lookingAround: false)
        print("Person Editor sent \(arguments[2]) to \(report.device): " + report.destinations.map { $0 ?? "not delivered" }.joined(separator: ", "))
        exit(report.complete ? 0 : 1)
    } catch { fail("\(error)") }
}

let request: IncomingRequest?
do { request = try app.launchRequest() } catch { fail("\(error)") }
switch request {
case nil:
    print("Person Editor: started without a request (try: person-editor ask-viewer)")
case .document(let document)?:
    log(app, "Person Editor opened \(document.path) from \(document.sourceApplication ?? "an unnamed sender")")
case .activity(let activity)?:
    fail("Person Editor continues no activity, yet \(activity.offer.activityType) reached it")
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
