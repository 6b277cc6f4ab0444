// A running app's requests as they come: URLs other apps open for it and documents they hand it,
// printed until interrupted (or for --seconds N).
//
//   swift run ListenExample com.example.person-editor [--seconds 30]
//   (then, elsewhere: openurl --from com.example.person-viewer 'person-editor://x-callback-url/hello?name=Ada')
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
let arguments = Array(CommandLine.arguments.dropFirst())
guard let identifier = arguments.first else {
    fail("usage: ListenExample BUNDLE-ID [--seconds N]", status: 2)
}
let secondsIndex = arguments.firstIndex(of: "--seconds")
let seconds = secondsIndex.flatMap { $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil }
if secondsIndex != nil && (seconds ?? 0) <= 0 {
    fail("ListenExample: --seconds takes a positive whole number", status: 2)
}

let app: InterchangeApp
do { app = try InterchangeApp(bundleIdentifier: identifier) } catch {
    fail("ListenExample: \(error)", status: 1)
}
print("listening as \(app.bundleIdentifier) in \(app.container.path)")
let listening = Task {
    for try await request in app.requests() {
        switch request {
        case .url(let incoming):
            print("URL \(incoming.url) from \(incoming.sourceApplication ?? "?")")
            for item in incoming.url.queryItems { print("  \(item.name) = \(item.value ?? "(none)")") }
            if let callback = incoming.callback, callback.success != nil {
                try app.reply(to: callback, with: .success([.init(name: "heard", value: "yes")]))
                print("  answered through \(callback.success!.normalizedScheme):")
            }
        case .document(let document):
            print("document \(document.path) from \(document.sourceApplication ?? "?") (\(document.type ?? "unknown type"))")
        case .activity(let activity):
            print("activity \(activity.offer.activityType) from \(activity.offer.bundleIdentifier) on \(activity.originDevice)")
        }
    }
}
if let seconds {
    try? await Task.sleep(for: .seconds(seconds))
    listening.cancel()
}
do { _ = try await listening.value } catch is CancellationError {} catch {
    fail("ListenExample: \(error)", status: 1)
}
