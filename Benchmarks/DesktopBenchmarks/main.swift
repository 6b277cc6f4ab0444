// Linux desktop applications: `openin --list --json FILE` against `gio mime TYPE` on the same XDG
// trees (../shared/peers/linux/mk_apps.py: 400 and 2,650 real-derived .desktop files, a user
// mimeapps.list, and update-desktop-database's mimeinfo.cache, which only GIO reads), in one run.
//
//   read -ra flags < <(bash scripts/release-flags)
//   swift build -c release "${flags[@]}" --product openin && swift run -c release "${flags[@]}" DesktopBenchmarks [--blocks 10] [--sizes 400,2650]
//
// openin is built as scripts/install and scripts/run-samples build it (scripts/release-flags):
// built without the flags, the binary measured is not the one users get (4.84 M instructions
// for one `--list --json` at 400 files instead of 3.74 M, callgrind).
//
// Each side is timed in alternating blocks of ten starts (as hyperfine times a command); the
// ratio of the medians is printed per round and over all rounds, with the spread, and the ratio
// of the means (gio's times fall on 4 ms kernel ticks, so its median jumps between 8 and 12 ms
// from run to run while its mean moves little). "Index cold":
// our compiled index is deleted before every `openin` start, so each start reads every file
// (what the first query after any change costs). "Page cold": the tree's files and our index are
// dropped from the page cache (evict.py) before every start of either side.
import BenchmarkSupport
import Foundation

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let peers = root.deletingLastPathComponent().appendingPathComponent("shared/peers/linux").path
let work = root.appendingPathComponent(".build/bench-desktop").path
let blocks = Bench.option("--blocks", 10)
let sizes: [Int] = {
    let args = CommandLine.arguments
    if let i = args.firstIndex(of: "--sizes"), i + 1 < args.count { return args[i + 1].split(separator: ",").compactMap { Int($0) } }
    return [400, 2650]
}()
try? FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
let openin = root.appendingPathComponent(".build/release/openin").path
let gio = Bench.shell("command -v gio").out.trimmingCharacters(in: .whitespacesAndNewlines)
guard FileManager.default.isExecutableFile(atPath: openin), !gio.isEmpty else {
    print("needs .build/release/openin (swift build -c release $(bash scripts/release-flags) --product openin) and gio (libglib2.0-bin)")
    exit(1)
}
Bench.settle([openin])
for n in sizes where !FileManager.default.fileExists(atPath: "\(work)/apps/t\(n)/share/applications/mimeinfo.cache") {
    Bench.shell("python3 '\(peers)/mk_apps.py' '\(work)' \(n) > /dev/null 2>&1")
}
let photo = work + "/photo.png", report = work + "/report.pdf"
try? FileManager.default.removeItem(atPath: photo)
try? FileManager.default.copyItem(atPath: root.appendingPathComponent("Samples/Documents/photo.png").path, toPath: photo)
try? Data("%PDF-1.4\n%%EOF\n".utf8).write(to: URL(fileURLWithPath: report))

/// Starts `argv` with `environment`, output discarded; wall and CPU (user + system) seconds.
func run(_ argv: [String], _ environment: [String]) -> (wall: Double, cpu: Double) {
    var pid = pid_t()
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let cArgs = argv.map { strdup($0) } + [nil], cEnv = environment.map { strdup($0) } + [nil]
    let t0 = Bench.clock()
    posix_spawn(&pid, argv[0], &actions, nil, cArgs, cEnv)
    var status: Int32 = 0
    var usage = rusage()
    wait4(pid, &status, 0, &usage)
    let t1 = Bench.clock()
    cArgs.forEach { free($0) }
    cEnv.forEach { free($0) }
    posix_spawn_file_actions_destroy(&actions)
    let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6
    return (t1 - t0, cpu)
}

/// `NAME=VALUE` strings as Foundation's `Process` takes them.
func dictionary(_ environment: [String]) -> [String: String] {
    Dictionary(environment.map { let kv = $0.split(separator: "=", maxSplits: 1); return (String(kv[0]), kv.count > 1 ? String(kv[1]) : "") },
               uniquingKeysWith: { a, _ in a })
}

func output(_ argv: [String], _ environment: [String]) -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: argv[0])
    p.arguments = Array(argv.dropFirst())
    p.environment = dictionary(environment)
    let pipe = Pipe()
    p.standardOutput = pipe
    p.standardError = FileHandle.nullDevice
    try? p.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}

/// `DOCUMENT_INTERCHANGE_AUTOWATCH` (DesktopEntries' WatcherAutostart, not linked here).
let WatcherAutostartVariable = "DOCUMENT_INTERCHANGE_AUTOWATCH"

/// Stops the watchers that queries started (`openin watch --idle-exit`) for the tree whose cache
/// folder is `cache` (its environment names it: other users' and trees' watchers are left alone);
/// whether there was one.
@discardableResult
func killAutostarted(cache: String) -> Bool {
    var found = false
    for id in ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap(Int32.init) {
        guard let command = FileManager.default.contents(atPath: "/proc/\(id)/cmdline"),
              let environment = FileManager.default.contents(atPath: "/proc/\(id)/environ") else { continue }
        let words = command.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        guard words.dropFirst().starts(with: ["watch", "--idle-exit"]),
              environment.split(separator: 0).contains(where: { String(decoding: $0, as: UTF8.self) == "XDG_CACHE_HOME=\(cache)" }) else { continue }
        kill(id, SIGTERM)
        found = true
    }
    usleep(100_000)
    return found
}

func ms(_ x: Double) -> String { String(format: "%.2f", x * 1e3) }

print("machine load \(Bench.shell("cut -d' ' -f1-3 /proc/loadavg").out.trimmingCharacters(in: .whitespacesAndNewlines)); \(blocks) rounds of alternating blocks of 10")
for n in sizes {
    let tree = "\(work)/apps/t\(n)", cache = "\(work)/cache-\(n)"
    let environment = ["PATH=/usr/bin:/bin", "HOME=\(work)", "LANG=C.UTF-8", "XDG_DATA_DIRS=\(tree)/share:/usr/share", "XDG_DATA_HOME=\(tree)/nohome",
                       "XDG_CONFIG_HOME=\(tree)/config", "XDG_CONFIG_DIRS=\(tree)/nocfg", "XDG_CURRENT_DESKTOP=", "XDG_CACHE_HOME=\(cache)"]
    // Every other row: no watcher unless the row starts one.
    let quiet = environment + ["\(WatcherAutostartVariable)=off"]
    let files = Int(Bench.shell("find '\(tree)/share/applications' -name '*.desktop' | wc -l").out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    for (document, mime) in [(photo, "image/png"), (report, "application/pdf")] {
        let ours = [openin, "--list", "--json", document], theirs = [gio, "mime", mime]
        // Agreement first: GIO's default and its registered apps, against `openin --gio`.
        let gioText = output(theirs, environment)
        let gioDefault = gioText.split(separator: "\n").first { $0.hasPrefix("Default application") }?.split(separator: ":").last?
            .trimmingCharacters(in: .whitespaces) ?? "(none)"
        var gioAll: [String] = []
        var inRegistered = false
        for line in gioText.split(separator: "\n") {
            if line.hasPrefix("Registered applications") { inRegistered = true; continue }
            if line.hasPrefix("Recommended applications") || line.hasPrefix("No ") { inRegistered = false; continue }
            if inRegistered { gioAll.append(line.trimmingCharacters(in: .whitespaces)) }
        }
        let json = output([openin, "--gio", "--json", document], quiet)
        let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any]
        let ourApps = (object?["apps"] as? [[String: Any]] ?? []).compactMap { $0["bundleIdentifier"] as? String }
        let ourDefault = ourApps.first ?? "(none)"
        let contained = Set(gioAll).isSubset(of: Set(ourApps))
        print("\n\(files) desktop files, \(mime): GIO default \(gioDefault), ours (--gio) \(ourDefault) \(gioDefault == ourDefault ? "same" : "DIFFERENT"); "
              + "GIO lists \(gioAll.count), openin \(ourApps.count) \(contained ? "(contains every one)" : "(MISSING some)")")

        /// Alternating blocks of ten starts of each; `before`/`beforeGIO` run before every start,
        /// `ourBlock`/`theirBlock` before each block.
        func measure(_ label: String, before: (() -> Void)?, beforeGIO: (() -> Void)?,
                     ourBlock: (() -> Void)? = nil, theirBlock: (() -> Void)? = nil, environment: [String] = quiet) {
            ourBlock?(); _ = run(ours, environment); theirBlock?(); _ = run(theirs, environment)
            var o: [Double] = [], t: [Double] = [], oc: [Double] = [], tc: [Double] = [], ratios: [Double] = []
            for _ in 0..<blocks {
                var bo: [Double] = [], bt: [Double] = []
                ourBlock?()
                for _ in 0..<10 { before?(); let r = run(ours, environment); bo.append(r.wall); oc.append(r.cpu) }
                theirBlock?()
                for _ in 0..<10 { beforeGIO?(); let r = run(theirs, environment); bt.append(r.wall); tc.append(r.cpu) }
                o += bo; t += bt
                ratios.append(Bench.median(bt) / Bench.median(bo))
            }
            print("  \(label): openin \(ms(Bench.median(o))) ms (cpu \(ms(Bench.median(oc)))), gio mime \(ms(Bench.median(t))) ms (cpu \(ms(Bench.median(tc)))): "
                  + String(format: "%.1fx (rounds %.1f-%.1fx; target >= 5x)", Bench.median(t) / Bench.median(o), ratios.min() ?? .nan, ratios.max() ?? .nan)
                  + "; means \(ms(Bench.mean(o))) / \(ms(Bench.mean(t))) ms: " + String(format: "%.1fx", Bench.mean(t) / Bench.mean(o)))
        }
        // As installed: a query starts a watcher itself when its index has 1,000 sources or more
        // (DOCUMENT_INTERCHANGE_AUTOWATCH, docs/desktop-apps.md), so at 2,650 files the first
        // start leaves one running for the rest (and for gio); at 400 none is started.
        killAutostarted(cache: cache)
        measure("default (a watcher started by the first query when worth it)", before: nil, beforeGIO: nil, environment: environment)
        // The first query a moment after a change (an entry edited in place 0.5 s before each
        // start of either side): without a watcher it rebuilds our index; the watcher brings
        // it up to date 0.2 s after a change (in 0.12 s at 2,650 files).
        let edited = "\(tree)/share/applications/" + ((try? FileManager.default.contentsOfDirectory(atPath: "\(tree)/share/applications"))?
            .filter { $0.hasSuffix(".desktop") }.sorted().first ?? "none.desktop")
        // Rewritten in place with a counter after its original text: a change every time, and
        // the file keeps its size from one run to the next.
        let original = FileManager.default.contents(atPath: edited) ?? Data()
        var changes = 0
        func change() {
            changes += 1
            if let handle = FileHandle(forWritingAtPath: edited) {
                handle.write(original + Data("# changed \(changes % 10)\n".utf8))
                handle.truncateFile(atOffset: handle.offsetInFile)
                handle.closeFile()
            }
            usleep(500_000)
        }
        defer { try? original.write(to: URL(fileURLWithPath: edited)) }
        measure("default, 0.5 s after a change", before: change, beforeGIO: change, environment: environment)
        print("    watcher started by the queries: \(killAutostarted(cache: cache) ? "yes" : "no")")
        measure("warm, no watcher (DOCUMENT_INTERCHANGE_AUTOWATCH=off)", before: nil, beforeGIO: nil)
        // `openin watch` for the same folders: our queries skip the stat per desktop file. The
        // watcher's inotify marks also speed gio up (its exit no longer waits for the kernel to
        // free the marks of its own file monitors: docs/desktop-apps.md), so gio is measured
        // both ways: with the watcher running throughout, and with it stopped for gio's blocks.
        var watcher: Process?
        func startWatcher() {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: openin)
            process.arguments = ["watch"]
            process.environment = dictionary(quiet)
            process.standardError = FileHandle.nullDevice
            try? process.run()
            watcher = process
            usleep(100_000)
            _ = run(ours, quiet)   // records the watcher's token in the index
        }
        func stopWatcher() {
            watcher?.terminate()
            watcher?.waitUntilExit()
            watcher = nil
            usleep(50_000)
        }
        startWatcher()
        measure("warm, watched (gio with the watcher running)", before: nil, beforeGIO: nil)
        stopWatcher()
        measure("warm, watched (gio without it)", before: nil, beforeGIO: nil, ourBlock: startWatcher, theirBlock: stopWatcher)
        measure("index cold", before: { Bench.shell("rm -f '\(cache)'/document-interchange/desktop-apps-*.index") }, beforeGIO: nil)
        let evict = "python3 '\(peers)/evict.py' '\(tree)' '\(cache)' /usr/share/mime"
        measure("page cold", before: { Bench.shell(evict) }, beforeGIO: { Bench.shell(evict) })
    }
}
print("\nload \(Bench.shell("cut -d' ' -f1-3 /proc/loadavg").out.trimmingCharacters(in: .whitespacesAndNewlines))")
