// Open a URL as an app would: ask canOpenURL first (with the reason), then open it.
//
//   swift run OpenURLExample com.example.person-editor 'person-viewer://x-callback-url/exportPerson'
//   (DOCUMENT_INTERCHANGE_ROOT names the device root; the app must be registered on it)
import AppInterchange
#if canImport(Glibc)
import Glibc
#endif

// A usage error or a failure is said on standard error with a non-zero status: never a trap.
// (Each example stands alone, to be read and copied whole, so each has its own fail.)
func fail(_ message: String, status: Int32) -> Never {
    var line = message + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(status)
}
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let identifier = arguments.first, let url = arguments.last else {
    fail("usage: OpenURLExample BUNDLE-ID URL", status: 2)
}
do {
    let app = try InterchangeApp(bundleIdentifier: identifier)
    print("canOpenURL: \(try app.canOpenAnswer(url))")
    switch try app.open(url) {
    case .delivered(let handler, let request, _): print("opened by \(handler.name); request \(request)")
    case .deliveredToRunningApp(let handler, let request): print("opened by \(handler.name), already running; request \(request)")
    case .handedToDesktop(let command): print("handed to the desktop: \(command.joined(separator: " "))")
    }
} catch {
    fail("OpenURLExample: \(error)", status: 1)
}
