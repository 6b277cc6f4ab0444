// A running app's requests as they come: URLs other apps open for it and documents they hand it,
// printed until interrupted (or for --seconds N).
//
//   swift run ListenExample com.example.person-editor [--seconds 30]
//   (then, elsewhere: openurl --from com.example.person-viewer 'person-editor://x-callback-url/hello?name=Ada')
import AppInterchange

let arguments = Array(CommandLine.arguments.dropFirst())
guard let identifier = arguments.first else { fatalError("usage: ListenExample BUNDLE-ID [--seconds N]") }
let seconds = arguments.firstIndex(of: "--seconds").flatMap { $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil }

let app = try InterchangeApp(bundleIdentifier: identifier)
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
        }
    }
}
if let seconds {
    try await Task.sleep(for: .seconds(seconds))
    listening.cancel()
}
_ = try await listening.value
