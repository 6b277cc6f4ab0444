// The handler app the URL-scheme benchmark opens (Benchmarks/URLSchemeBenchmarks), built on
// AppInterchange as an app would be. It records each URL it gets as the peer's shell script does
// (the count, then the URL, one a line, written to a temporary file renamed into place), either
// once from its arguments when a launcher starts it (`gio open`, openurl's launch command), or,
// with --listen, for every URL that reaches it while it runs (`requests()`, which marks it as
// listening, so that openurl hands it URLs instead of starting another copy).
//
//   URLSchemeBenchmarkHandler RECORD URL
//   URLSchemeBenchmarkHandler RECORD --listen BUNDLE-ID ROOT
import AppInterchange
import AppRegistry
import SystemCalls

let arguments = Array(CommandLine.arguments.dropFirst())

/// Records `url` where the benchmark looks for it; the rename makes it appear whole.
func record(_ url: String, at path: String) {
    do { try AtomicFile.write(Array("1\n\(url)\n".utf8), to: path, durable: false) } catch { print("cannot record: \(error)") }
}

switch arguments.count {
case 2:
    record(arguments[1], at: arguments[0])
case 4 where arguments[1] == "--listen":
    let app = try InterchangeApp(bundleIdentifier: arguments[2], root: DeviceRoot(path: arguments[3]))
    for try await request in app.requests() {
        if case .url(let incoming) = request { record(incoming.url.text, at: arguments[0]) }
    }
default:
    print("usage: URLSchemeBenchmarkHandler RECORD URL | RECORD --listen BUNDLE-ID ROOT")
}
