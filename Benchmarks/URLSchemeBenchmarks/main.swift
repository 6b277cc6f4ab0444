// URL-scheme benchmarks against GIO, in one run (../shared/peers/urlschemes).
//
//   for p in openurl URLSchemeBenchmarkHandler PersonEditor PersonViewer; do swift build -c release --product $p; done
//   (once; given several --product options, swift build builds only the last)
//   swift run -c release URLSchemeBenchmarks [--apps 1000] [--opens 20] [--rounds 5]
//
// 1. In process, "can this URL be opened" among 1,000 registered apps each with its own scheme:
//    ours, the registry's index of schemes (CanOpenQuestion: the sender's 50 queried schemes, then
//    the index; and the index alone, as GIO's question has no sender); GIO's
//    g_app_info_get_default_for_uri_scheme over 1,000 generated .desktop files (gio_scheme_bench.c).
// 2. Processes: `openurl URL` until the handler process has the URL, against `gio open URL` for
//    the same handler, alternating: cold (both start it: the peer's recording shell script, and a
//    Swift app on AppInterchange that records the same way), then warm (the Swift app running and
//    listening: openurl hands it the URL as iOS does; gio open starts another copy).
// 3. A 1 MiB payload round trip A -> B -> A with the sample programs (Person Editor and Viewer).
import AppRegistry
import BenchmarkSupport
import Foundation
import PropertyLists
import UniformTypes
import URLSchemes

let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let peers = checkout.deletingLastPathComponent().appendingPathComponent("shared/peers/urlschemes").path
let release = checkout.appendingPathComponent(".build/release").path
let work = checkout.appendingPathComponent(".build/bench-urlschemes").path
let appCount = Bench.option("--apps", 1000)
let opens = Bench.option("--opens", 20)
let rounds = Bench.option("--rounds", 5)
guard appCount > 0, opens > 0, rounds > 0 else {
    FileHandle.standardError.write(Data("URLSchemeBenchmarks: --apps, --opens and --rounds take a count of at least 1\n".utf8))
    exit(2)
}
let catalog = checkout.appendingPathComponent("UTIs").path
try? FileManager.default.removeItem(atPath: work)
try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)

func writePlist(_ value: PropertyList, to path: String) throws {
    try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(try XMLPropertyListWriter().write(value)).write(to: URL(fileURLWithPath: path))
}

// MARK: 1. In process

let device = DeviceRoot(path: work + "/device")
for i in 0..<appCount {
    try writePlist(.dictionary(["CFBundleIdentifier": .string("org.example.App\(i)"), "CFBundleName": .string("App\(i)"),
                                "CFBundleURLTypes": .array([.dictionary(["CFBundleURLSchemes": .array([.string("app\(i)")])])])]),
                   to: work + "/bundles/App\(i).app/Info.plist")
    _ = try Registration.register(work + "/bundles/App\(i).app", on: device)
}
let asker = (0..<50).map { "app\($0 * (appCount / 50))" }
try writePlist(.dictionary(["CFBundleIdentifier": .string("org.example.asker"),
                            "LSApplicationQueriesSchemes": .array(asker.map { .string($0) })]), to: work + "/bundles/Asker.app/Info.plist")
_ = try Registration.register(work + "/bundles/Asker.app", on: device)
let registry = try RegistryStore.rebuild(root: device, catalog: catalog, mimeDirectories: []).registry
let question = SchemeDirectory(registry: registry).question(from: AppBundle.registered("org.example.asker", in: registry)!)

let iterations = 200_000
let hitURLs = (0..<iterations).map { asker[$0 % asker.count] + "://x-callback-url/a" }
let missURLs = (0..<iterations).map { "nosuch\($0 % appCount)://x" }
// The question's worst miss: registered schemes the asker did not query (app10, app30, …) with the
// same length, first and last byte as ones it did (app0, app20, …), so its filter lets each through
// to the hash and the table.
let filteredMissURLs = (0..<iterations).map { "app\(($0 % (appCount / 20)) * 20 + 10)://x" }
let hitSchemes = (0..<iterations).map { "app\($0 % appCount)" }
let missSchemes = (0..<iterations).map { "nosuch\($0 % appCount)" }

@inline(never) func timeQuestion(_ urls: [String]) -> (ns: Double, yes: Int) {
    var yes = 0
    let t0 = Bench.clock()
    for url in urls where question.canOpen(url) { yes += 1 }
    return ((Bench.clock() - t0) / Double(urls.count) * 1e9, yes)
}
@inline(never) func timeIndex(_ schemes: [String]) -> (ns: Double, yes: Int) {
    var yes = 0
    let t0 = Bench.clock()
    for scheme in schemes where registry.hasApp(handlingScheme: scheme) { yes += 1 }
    return ((Bench.clock() - t0) / Double(schemes.count) * 1e9, yes)
}

print("== 1. \"can open\" in process, \(appCount) registered apps (medians of \(rounds) rounds of \(iterations))")
var canHit: [Double] = [], canMiss: [Double] = [], canMissPastFilter: [Double] = [], indexHit: [Double] = [], indexMiss: [Double] = [], gioHit: [Double] = [], gioMiss: [Double] = []
let builtGIO = Bench.shell("gcc -O2 -o '\(work)/gio_scheme_bench' '\(peers)/gio_scheme_bench.c' $(pkg-config --cflags --libs gio-2.0 gio-unix-2.0) 2>&1").status == 0
for _ in 0..<rounds {
    let h = timeQuestion(hitURLs), m = timeQuestion(missURLs), mf = timeQuestion(filteredMissURLs), ih = timeIndex(hitSchemes), im = timeIndex(missSchemes)
    precondition(h.yes == iterations && m.yes == 0 && mf.yes == 0 && ih.yes == iterations && im.yes == 0, "wrong answers")
    canHit.append(h.ns); canMiss.append(m.ns); canMissPastFilter.append(mf.ns); indexHit.append(ih.ns); indexMiss.append(im.ns)
    if builtGIO {
        // "apps=1000 hit: 123456 lookups/s (20000/20000 found)  miss: 234567 lookups/s (20000/20000 absent)"
        let out = Bench.shell("'\(work)/gio_scheme_bench' \(appCount) 2>/dev/null").out
        let numbers = out.split(whereSeparator: { !$0.isNumber && $0 != "." }).compactMap { Double($0) }
        if numbers.count >= 7 { gioHit.append(1e9 / numbers[1]); gioMiss.append(1e9 / numbers[4]) }
    }
}
func spread(_ xs: [Double]) -> String { String(format: "%.0f–%.0f", xs.min() ?? .nan, xs.max() ?? .nan) }
print(String(format: "ours canOpenURL (queried + index), hit:  %8.0f ns (spread %@)", Bench.median(canHit), spread(canHit)))
print(String(format: "ours canOpenURL (queried + index), miss: %8.0f ns (spread %@)", Bench.median(canMiss), spread(canMiss)))
print(String(format: "ours canOpenURL, miss past its filter:    %8.0f ns (spread %@)", Bench.median(canMissPastFilter), spread(canMissPastFilter)))
print(String(format: "ours index alone, hit:                   %8.0f ns (spread %@)", Bench.median(indexHit), spread(indexHit)))
print(String(format: "ours index alone, miss:                  %8.0f ns (spread %@)", Bench.median(indexMiss), spread(indexMiss)))
if builtGIO && !gioHit.isEmpty {
    print(String(format: "GIO default for scheme, hit:             %8.0f ns (spread %@)", Bench.median(gioHit), spread(gioHit)))
    print(String(format: "GIO default for scheme, miss:            %8.0f ns (spread %@)", Bench.median(gioMiss), spread(gioMiss)))
    print(String(format: "ratio GIO/ours: canOpenURL hit %.0fx, miss %.0fx (past its filter %.0fx); index alone hit %.0fx, miss %.0fx",
                 Bench.median(gioHit) / Bench.median(canHit), Bench.median(gioMiss) / Bench.median(canMiss),
                 Bench.median(gioMiss) / Bench.median(canMissPastFilter),
                 Bench.median(gioHit) / Bench.median(indexHit), Bench.median(gioMiss) / Bench.median(indexMiss)))
} else {
    print("GIO: gio_scheme_bench.c did not build (needs libglib2.0-dev)")
}

// MARK: 2. Processes

print("\n== 2. until the handler process has the URL (ms, median of \(opens) alternating runs)")
let openurl = release + "/openurl"
Bench.settle([openurl, release + "/URLSchemeBenchmarkHandler", release + "/PersonEditor", release + "/PersonViewer"])
let swiftHandler = release + "/URLSchemeBenchmarkHandler"
if !FileManager.default.isExecutableFile(atPath: openurl) || !FileManager.default.isExecutableFile(atPath: swiftHandler) {
    print("build them first: swift build -c release --product openurl; swift build -c release --product URLSchemeBenchmarkHandler")
} else {
    let xdg = work + "/xdg"
    let got = work + "/got"
    // The peer's handler, as scheme_dispatch.sh writes it: records its arguments, then renames.
    try """
    #!/bin/sh
    printf '%s\\n' "$#" > \(got).tmp; for a in "$@"; do printf '%s\\n' "$a" >> \(got).tmp; done; mv \(got).tmp \(got)
    """.write(toFile: work + "/handler.sh", atomically: true, encoding: .utf8)
    chmod(work + "/handler.sh", 0o755)
    try FileManager.default.createDirectory(atPath: xdg + "/data/applications", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: xdg + "/home", withIntermediateDirectories: true)
    // Two handler apps, each known to GIO (a desktop entry) and to us (a registered bundle) with
    // the same command: AppB, the peer's script; AppC, a Swift app on AppInterchange that records
    // the same way and, when running, listens (URLSchemeBenchmarkHandler).
    let handlers: [(id: String, scheme: String, command: [String])] = [
        ("org.example.AppB", "appb", [work + "/handler.sh"]),
        ("org.example.AppC", "appc", [swiftHandler, got]),
    ]
    let appRoot = DeviceRoot(path: work + "/handler-device")
    for handler in handlers {
        try """
        [Desktop Entry]
        Type=Application
        Name=\(handler.id)
        Exec=\(handler.command.joined(separator: " ")) %u
        MimeType=x-scheme-handler/\(handler.scheme);
        NoDisplay=true

        """.write(toFile: xdg + "/data/applications/\(handler.id).desktop", atomically: true, encoding: .utf8)
        try writePlist(.dictionary(["CFBundleIdentifier": .string(handler.id),
                                    "CFBundleURLTypes": .array([.dictionary(["CFBundleURLSchemes": .array([.string(handler.scheme)])])]),
                                    "DILaunchCommand": .array((handler.command + ["%u"]).map { .string($0) })]),
                       to: work + "/bundles/\(handler.id).app/Info.plist")
        _ = try Registration.register(work + "/bundles/\(handler.id).app", on: appRoot)
    }
    Bench.shell("update-desktop-database -q '\(xdg)/data/applications'")
    let environment = ["HOME=\(xdg)/home", "PATH=/usr/bin:/bin", "XDG_DATA_HOME=\(xdg)/data", "XDG_CONFIG_HOME=\(xdg)/config",
                       "XDG_DATA_DIRS=/usr/share", "XDG_CACHE_HOME=\(xdg)/cache", "DOCUMENT_INTERCHANGE_CATALOG=\(catalog)"]
    /// Milliseconds from spawning `argv` + `url` (directly, with `environment` only) until the
    /// handler has renamed its record into place; the record is checked.
    func timed(_ argv: [String], _ url: String) -> Double {
        try? FileManager.default.removeItem(atPath: got)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let cArgs = (argv + [url]).map { strdup($0) } + [nil]
        let cEnv = environment.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) }; cEnv.forEach { free($0) }; posix_spawn_file_actions_destroy(&actions) }
        var pid = pid_t()
        let t0 = Bench.clock()
        guard posix_spawnp(&pid, argv[0], &actions, nil, cArgs, cEnv) == 0 else { return .nan }
        while access(got, F_OK) != 0 {
            if Bench.clock() - t0 > 5 { break }
            usleep(100)
        }
        let elapsed = Bench.clock() - t0
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        let argvSeen = (try? String(contentsOfFile: got, encoding: .utf8)) ?? ""
        precondition(argvSeen == "1\n\(url)\n", "the handler got \(argvSeen)")
        return elapsed * 1000
    }
    func row(_ label: String, _ xs: [Double]) {
        print(String(format: "%@ %6.2f ms (spread %.2f–%.2f)", label.padding(toLength: 46, withPad: " ", startingAt: 0), Bench.median(xs), xs.min()!, xs.max()!))
    }
    let urlB = "appb://localhost/exportData", urlC = "appc://localhost/exportData"
    // The registry is compiled by the first run, with the MIME folders of that environment.
    _ = timed([openurl, "--root", appRoot.path], urlB)
    // Cold: nothing runs; both start the handler. The handler started directly is the floor.
    var oursB: [Double] = [], gioB: [Double] = [], floorB: [Double] = []
    var oursC: [Double] = [], gioC: [Double] = [], floorC: [Double] = []
    for _ in 0..<opens {
        oursB.append(timed([openurl, "--root", appRoot.path], urlB))
        gioB.append(timed(["/usr/bin/gio", "open"], urlB))
        floorB.append(timed([work + "/handler.sh"], urlB))
        oursC.append(timed([openurl, "--root", appRoot.path], urlC))
        gioC.append(timed(["/usr/bin/gio", "open"], urlC))
        floorC.append(timed([swiftHandler, got], urlC))
    }
    // Warm: AppC runs and listens. openurl hands it the URL (as iOS does with a running app);
    // gio open has no way to reach it and starts another copy of the same program.
    let container = try AppContainer(bundleIdentifier: "org.example.AppC", on: appRoot)
    for name in (try? FileManager.default.contentsOfDirectory(atPath: container.openRequests)) ?? [] where name.hasSuffix(".plist") {
        try? FileManager.default.removeItem(atPath: container.openRequests + "/" + name)   // left by the cold runs' launches
    }
    let listener = Process()
    listener.executableURL = URL(fileURLWithPath: swiftHandler)
    listener.arguments = [got, "--listen", "org.example.AppC", appRoot.path]
    listener.environment = Dictionary(uniqueKeysWithValues: environment.map { entry in
        let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
        return (parts[0], parts[1])
    })
    try listener.run()
    let listenStart = Bench.clock()
    while !RequestListener.isListening(in: container) && Bench.clock() - listenStart < 10 { usleep(1000) }
    precondition(RequestListener.isListening(in: container), "the handler did not start listening")
    var warmOurs: [Double] = [], warmGio: [Double] = []
    for _ in 0..<opens {
        warmOurs.append(timed([openurl, "--root", appRoot.path], urlC))
        warmGio.append(timed(["/usr/bin/gio", "open"], urlC))
    }
    listener.terminate()
    listener.waitUntilExit()
    print("cold (the handler is not running; both start it):")
    row("  shell-script handler (AppB): openurl URL", oursB)
    row("  shell-script handler (AppB): gio open URL", gioB)
    row("  shell-script handler alone (floor)", floorB)
    row("  Swift handler (AppC): openurl URL", oursC)
    row("  Swift handler (AppC): gio open URL", gioC)
    row("  Swift handler alone (floor)", floorC)
    print("warm (AppC running and listening):")
    row("  openurl URL (the running AppC takes it)", warmOurs)
    row("  gio open URL (starts another AppC)", warmGio)
    print(String(format: "ratio openurl/gio open, cold: script %.2fx, Swift %.2fx; warm (running handler vs gio's start): %.2fx",
                 Bench.median(oursB) / Bench.median(gioB), Bench.median(oursC) / Bench.median(gioC), Bench.median(warmOurs) / Bench.median(warmGio)))
}

// MARK: 3. 1 MiB round trip

print("\n== 3. 1 MiB payload A -> B -> A with the sample programs (ms, \(rounds) runs)")
let editor = release + "/PersonEditor", viewer = release + "/PersonViewer"
if !FileManager.default.isExecutableFile(atPath: editor) || !FileManager.default.isExecutableFile(atPath: viewer) || !FileManager.default.isExecutableFile(atPath: openurl) {
    print("build them first: for p in PersonEditor PersonViewer; do swift build -c release --product $p; done")
} else {
    let samples = work + "/samples"
    try FileManager.default.copyItem(atPath: checkout.appendingPathComponent("Samples").path, toPath: samples)
    for generated in ["Containers", "Preferences", "registry.bin"] { try? FileManager.default.removeItem(atPath: samples + "/" + generated) }
    Bench.shell("bash '\(checkout.path)/scripts/install-samples' '\(release)' '\(samples)'")
    var generator = SystemRandomNumberGenerator()
    let notes = String((0..<(1 << 20)).map { _ in "abcdefghijklmnopqrstuvwxyz0123456789 ".randomElement(using: &generator)! })
    try writePlist(.dictionary(["name": .string("Mary Somerville"), "notes": .string(notes)]),
                   to: samples + "/Containers/com.example.person-viewer/Documents/person.person")
    let stored = samples + "/Containers/com.example.person-editor/Documents/Person from Viewer.person"
    var times: [Double] = []
    for _ in 0..<rounds {
        try? FileManager.default.removeItem(atPath: stored)
        let t0 = Bench.clock()
        Bench.shell("DOCUMENT_INTERCHANGE_ROOT='\(samples)' '\(editor)' ask-viewer > /dev/null")
        while !FileManager.default.fileExists(atPath: stored) && Bench.clock() - t0 < 30 { usleep(1000) }
        times.append((Bench.clock() - t0) * 1000)
        let back = try PropertyListReader.read(contentsOf: .init(stored)).value
        precondition(back["notes"]?.stringValue == notes, "the payload came back damaged")
    }
    print(String(format: "round trip, intact: %.0f ms median (spread %.0f–%.0f)", Bench.median(times), times.min()!, times.max()!))
}
