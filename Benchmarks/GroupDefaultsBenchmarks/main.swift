// Shared defaults against the peers, in one run (docs/app-groups.md, "Figures"):
//   ours       SharedDefaults through defaults-probe processes (built beside this program)
//   Foundation swift-corelibs-foundation UserDefaults(suiteName:) (../shared/peers/appgroups/ud_bench.swift)
//   dconf      GNOME's settings store through dconf-service on a private bus (dconf_bench.c)
// Each round measures everything once; the spread over rounds is printed, then the ratios of
// the medians. The machine is shared: compare within one run.
//
// Build and run:
//   swift build -c release --product defaults-probe && swift build -c release --product GroupDefaultsBenchmarks
//   .build/release/GroupDefaultsBenchmarks [--rounds 3] [--scratch DIR]
// Peers need: apt-get install libdconf-dev dconf-service dbus-bin libdbus-1-dev (and swiftc, cc).
import BenchmarkSupport
import Foundation

let rounds = Bench.option("--rounds", 3)
let arguments = CommandLine.arguments
let scratch = arguments.firstIndex(of: "--scratch").map { arguments[$0 + 1] } ?? NSTemporaryDirectory() + "group-defaults-bench-\(getpid())"
let here = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().path
let probe = here + "/defaults-probe"
let peers = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("shared/peers/appgroups").path
try? FileManager.default.createDirectory(atPath: scratch + "/bin", withIntermediateDirectories: true)

guard FileManager.default.isExecutableFile(atPath: probe) else {
    print("build defaults-probe first: swift build -c release --product defaults-probe")
    exit(2)
}

/// The number after `name` in `text`.
func figure(_ name: String, _ text: String) -> Double? {
    let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
    guard let i = words.firstIndex(where: { $0 == name }), i + 1 < words.count else { return nil }
    return Double(words[i + 1])
}

func fresh(_ name: String) -> String {
    let dir = scratch + "/" + name + "-\(UUID().uuidString.prefix(8))"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
}

// Peers, built once.
let udBench = scratch + "/bin/ud_bench", dconfBench = scratch + "/bin/dconf_bench"
let haveFoundation = Bench.shell("swiftc -O '\(peers)/ud_bench.swift' -o '\(udBench)' 2>&1").status == 0
let haveDconf = Bench.shell("cc -O2 -o '\(dconfBench)' '\(peers)/dconf_bench.c' $(pkg-config --cflags --libs dconf gio-2.0) 2>&1").status == 0
    && FileManager.default.isExecutableFile(atPath: "/usr/libexec/dconf-service")
if !haveFoundation { print("Foundation peer: not built (swiftc missing?)") }
if !haveDconf { print("dconf peer: not built (apt-get install libdconf-dev dconf-service dbus-bin libdbus-1-dev)") }

var results: [String: [Double]] = [:]
@MainActor func record(_ name: String, _ value: Double?) { if let value { results[name, default: []].append(value) } }

for round in 1...rounds {
    print("round \(round) of \(rounds), load \(Bench.shell("cut -d' ' -f1-3 /proc/loadavg").out.trimmingCharacters(in: .whitespacesAndNewlines))")
    // Ours: a set, an unchanged read, a set seen by another process (polling, then woken).
    let dir = fresh("ours")
    let set = Bench.shell("'\(probe)' set-latency '\(dir)' s 20000").out
    record("ours set median us", figure("median", set)); record("ours set p99 us", figure("p99", set))
    record("ours unchanged read ns", figure("median", Bench.shell("'\(probe)' read-latency '\(dir)' s 2000000").out))
    for mode in ["poll", "observe"] {
        let d = fresh(mode)
        _ = Bench.shell("'\(probe)' write '\(d)' t 0 1")
        let out = Bench.shell("'\(probe)' \(mode) '\(d)' t 300 > '\(d)/out' & sleep 0.3; '\(probe)' tick '\(d)' t 330 2000; wait; cat '\(d)/out'").out
        record("ours seen by another process (\(mode)) median us", figure("median", out))
    }
    // Lost updates: 8 processes x 200 distinct keys; a merge (synchronize) timed alone.
    let lost = fresh("lost")
    let writers = Bench.clock()
    _ = Bench.shell("for w in 0 1 2 3 4 5 6 7; do '\(probe)' write '\(lost)' s $w 200 & done; wait")
    record("ours 8x200 wall ms", (Bench.clock() - writers) * 1e3)
    record("ours 8x200 missing", figure("missing", Bench.shell("'\(probe)' tally '\(lost)' s 8 200").out))
    record("ours synchronize (1,600 journal records, 1,600 keys) ms", figure("ms", Bench.shell("'\(probe)' merge '\(lost)' s").out))

    if haveFoundation {
        let cfg = fresh("foundation")
        let env = "XDG_CONFIG_HOME='\(cfg)'"
        let run = Bench.shell("cd '\(cfg)' && for w in 0 1 2 3 4 5 6 7; do \(env) '\(udBench)' child group.x $w 200 & done; wait; \(env) '\(udBench)' tally group.x 8 200").out
        if let line = run.split(separator: "\n").last, let missing = line.split(separator: ":").last?.split(separator: " ").first.flatMap({ Double($0) }) {
            record("Foundation 8x200 missing", missing)
        }
        let means = run.split(separator: "\n").compactMap { figure("synchronize()", String($0)) }
        if !means.isEmpty { record("Foundation synchronize mean us", Bench.median(means)) }
    }
    if haveDconf {
        let out = Bench.shell("'\(peers)/run_dconf.sh' '\(dconfBench)' 300 '\(fresh("dconf"))' 2>/dev/null").out
        for line in out.split(separator: "\n") {
            if line.hasPrefix("dconf write_sync") { record("dconf write_sync median us", figure("median", String(line))) }
            if line.contains("'changed'") { record("dconf seen by another process median us", figure("median", String(line))) }
        }
    }
}

print("\n== medians over \(rounds) rounds (min–max)")
for name in results.keys.sorted() {
    let xs = results[name]!
    print("\(name): \(String(format: "%.2f", Bench.median(xs))) (\(String(format: "%.2f", xs.min()!))–\(String(format: "%.2f", xs.max()!)))")
}
@MainActor func ratio(_ a: String, _ b: String, _ label: String) {
    guard let x = results[a].map(Bench.median), let y = results[b].map(Bench.median) else { return }
    print("\(label): \(String(format: "%.1f", y / x))x")
}
print("\n== ratios (peer / ours; above 1 means ours is faster)")
ratio("ours set median us", "dconf write_sync median us", "acknowledged write, dconf write_sync / our set")
ratio("ours set median us", "Foundation synchronize mean us", "acknowledged write, Foundation set+synchronize / our set")
ratio("ours seen by another process (observe) median us", "dconf seen by another process median us", "seen by another process, dconf / ours (observe)")
ratio("ours seen by another process (poll) median us", "dconf seen by another process median us", "seen by another process, dconf / ours (poll)")
try? FileManager.default.removeItem(atPath: scratch)
