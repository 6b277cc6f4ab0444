// Property-list benchmarks: our readers against libplist, Foundation and Python's plistlib in the
// same run, and `plutil -lint` start-up against a C hello-world and the toolchain's plutil.
// The machine is noisy, so every figure is printed with its ratio to a peer measured alongside.
//
//   swift run -c release PropertyListBenchmarks [--reps N] [--starts N]
//
// Needs gcc, pkg-config, libplist-dev and libxml2-dev (see docs/benchmarks.md).
import BenchmarkSupport
import Foundation
import PropertyLists

let arguments = CommandLine.arguments
let option = Bench.option
let reps = option("--reps", 15)
let starts = option("--starts", 300)

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let peers = root.deletingLastPathComponent().appendingPathComponent("shared/peers/plist")
let work = root.appendingPathComponent(".build/bench-data")
let products = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)

@discardableResult func shell(_ command: String) -> (status: Int32, out: String) { Bench.shell(command) }
let median = Bench.median
func now() -> Double { Bench.clock(CLOCK_MONOTONIC) }

// Input: 5,000 type declarations, as the issue specifies.
let xmlPath = work.appendingPathComponent("big.xml.plist")
if !FileManager.default.fileExists(atPath: xmlPath.path) {
    shell("python3 '\(peers.path)/gen_plist.py' -n 5000 -o '\(work.path)'")
}
let xmlBytes = Array(try Data(contentsOf: xmlPath))
let binBytes = Array(try Data(contentsOf: work.appendingPathComponent("big.bin.plist")))
let smallPath = work.appendingPathComponent("small.xml.plist").path

// `--profile xml|binary`: only parse in a loop, for `perf record`.
if let i = arguments.firstIndex(of: "--profile"), i + 1 < arguments.count {
    let input = arguments[i + 1] == "binary" ? binBytes : xmlBytes
    for _ in 0..<reps { _ = try PropertyListReader.read(input) }
    exit(0)
}

func cpuNow() -> Double { Bench.clock(CLOCK_THREAD_CPUTIME_ID) }

/// Median wall and CPU seconds of `body` over `reps` runs after two warm-ups; the value it returns
/// is released outside the timing, as the C peers free outside theirs.
func time(_ body: () throws -> Any) rethrows -> (wall: Double, cpu: Double) {
    var walls: [Double] = [], cpus: [Double] = []
    for r in -2..<reps {
        let c0 = cpuNow(), t0 = now()
        let kept = try body()
        let t1 = now(), c1 = cpuNow()
        withExtendedLifetime(kept) {}
        if r >= 0 { walls.append(t1 - t0); cpus.append(c1 - c0) }
    }
    return (median(walls), median(cpus))
}

// Build the C peers from ../shared/peers/plist.
let cc = "gcc -O2 -I'\(peers.path)'"
let haveLibplist = shell("\(cc) -o '\(work.path)/bench_libplist' '\(peers.path)/bench_libplist.c' $(pkg-config --cflags --libs libplist-2.0) 2>&1").status == 0
if !haveLibplist { print("libplist peer not built: apt-get install libplist-dev") }
let haveLibxml2 = shell("\(cc) -o '\(work.path)/bench_libxml2' '\(peers.path)/bench_libxml2.c' $(pkg-config --cflags --libs libxml-2.0) 2>&1").status == 0

func peerResults(_ command: String) -> [String: (wall: Double, cpu: Double)] {
    var results: [String: (wall: Double, cpu: Double)] = [:]
    for line in shell(command).out.split(separator: "\n") {
        guard let obj = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let impl = obj["impl"] as? String, let wall = obj["median_s"] as? Double,
              let cpu = obj["cpu_median_s"] as? Double else { continue }
        results[impl] = (wall, cpu)
    }
    return results
}

// Rounds interleave us and the peers, so drifting load hits both; each round gives a ratio and
// the report shows the median ratio over rounds (on thread CPU time; wall time alongside).
let rounds = option("--rounds", 5)
var ratios: [String: [Double]] = [:]
var wallRatios: [String: [Double]] = [:]
var last: [String: (wall: Double, cpu: Double)] = [:]
let xmlData = Data(xmlBytes), binData = Data(binBytes)
for round in 0..<rounds {
    var r: [String: (wall: Double, cpu: Double)] = [:]
    r["ours-xml"] = try time { try PropertyListReader.read(xmlBytes).value }
    r["ours-bin"] = try time { try PropertyListReader.read(binBytes).value }
    r["foundation-xml"] = try time { try PropertyListSerialization.propertyList(from: xmlData, format: nil) }
    r["foundation-bin"] = try time { try PropertyListSerialization.propertyList(from: binData, format: nil) }
    if haveLibplist { r.merge(peerResults("'\(work.path)/bench_libplist' '\(work.path)' \(reps)")) { $1 } }
    if haveLibxml2 { r.merge(peerResults("'\(work.path)/bench_libxml2' '\(work.path)' \(reps)")) { $1 } }
    if round == 0 { r.merge(peerResults("python3 '\(peers.path)/bench_python.py' '\(work.path)' \(reps)")) { $1 } }
    for (ours, peer) in [("ours-xml", "libplist-xml"), ("ours-xml", "foundation-xml"), ("ours-bin", "libplist-bin"),
                         ("ours-bin", "foundation-bin"), ("ours-xml", "c-libxml2-sax2"),
                         ("ours-xml", "python-plistlib-xml"), ("ours-bin", "python-plistlib-bin")] {
        guard let o = r[ours], let p = r[peer] ?? last[peer] else { continue }
        ratios["\(ours)/\(peer)", default: []].append(p.cpu / o.cpu)
        wallRatios["\(ours)/\(peer)", default: []].append(p.wall / o.wall)
    }
    last.merge(r) { $1 }
}

print("Parse to a full tree: 5,000 declarations, XML \(xmlBytes.count) bytes, binary \(binBytes.count) bytes")
print("\(rounds) rounds of \(reps) repetitions; last round's medians:")
for key in ["ours-xml", "ours-bin", "c-libxml2-sax2", "libplist-xml", "libplist-bin", "foundation-xml", "foundation-bin",
            "python-plistlib-xml", "python-plistlib-bin"] {
    guard let m = last[key] else { continue }
    let bytes = key.hasSuffix("bin") ? binBytes.count : xmlBytes.count
    print(key.padding(toLength: 22, withPad: " ", startingAt: 0)
          + String(format: "%8.2f ms wall %8.2f ms cpu %7.1f MB/s", m.wall * 1000, m.cpu * 1000, Double(bytes) / m.cpu / 1e6))
}
print("Speed ratios, peer time / our time (above 1: we are faster); median over rounds [min-max], CPU time; wall median")
for (key, target) in [("ours-xml/libplist-xml", ">= 1.5"), ("ours-xml/foundation-xml", ">= 5"), ("ours-bin/libplist-bin", ">= 1.0"),
                      ("ours-bin/foundation-bin", ""), ("ours-xml/python-plistlib-xml", ""), ("ours-bin/python-plistlib-bin", ""),
                      ("ours-xml/c-libxml2-sax2", "(the tokenising floor; below 1 by nature)")] {
    guard let values = ratios[key], let walls = wallRatios[key] else { continue }
    print(key.padding(toLength: 30, withPad: " ", startingAt: 0)
          + String(format: "%6.2fx [%.2f-%.2f]  wall %.2fx  %@", median(values), values.min()!, values.max()!, median(walls), target))
}

// Peak memory of a whole `plutil -lint` process on the big XML and binary inputs.
let plutil = products.appendingPathComponent("plutil").path
Bench.settle([plutil])
for (label, path, size) in [("XML", xmlPath.path, xmlBytes.count), ("binary", work.appendingPathComponent("big.bin.plist").path, binBytes.count)] {
    let out = shell("/usr/bin/time -f %M '\(plutil)' -lint -s '\(path)' 2>&1 >/dev/null").out
    if let kb = Int(out.split(separator: "\n").last ?? "") {
        let budget = 4 * size + 20_000_000
        print(String(format: "peak memory, plutil -lint %@: %.1f MB (budget 4 x input + 20 MB = %.1f MB)", label, Double(kb) / 1024 * 1.048576, Double(budget) / 1e6))
    }
}

// Process start-up: plutil -lint on a small Info.plist against a C hello-world, alternating.
let hello = URL(fileURLWithPath: Bench.helloWorld(in: work.path))
let spawnWall = Bench.spawnWall
let toolchainPlutil = FileManager.default.isExecutableFile(atPath: "/opt/swift/usr/bin/plutil") ? "/opt/swift/usr/bin/plutil" : nil
var cTimes: [Double] = [], ourTimes: [Double] = [], theirTimes: [Double] = []
for _ in 0..<starts {
    cTimes.append(spawnWall([hello.path]))
    ourTimes.append(spawnWall([plutil, "-lint", smallPath]))
    if let t = toolchainPlutil { theirTimes.append(spawnWall([t, "-lint", smallPath])) }
}
let c = median(cTimes), ours = median(ourTimes)
print(String(format: "start-up, median of %d: C hello %.2f ms, plutil -lint small Info.plist %.2f ms = %.2fx C (target <= 3x)", starts, c * 1000, ours * 1000, ours / c))
if !theirTimes.isEmpty {
    let theirs = median(theirTimes)
    print(String(format: "toolchain plutil -lint %.2f ms: ours is %.1fx faster", theirs * 1000, theirs / ours))
}

// Whole process on the big input: `plutil -lint` against a C program that reads the same file and
// parses it with libplist (Benchmarks/Peers/lint_libplist.c), both started fresh each time, so the
// first parse in a new process (page faults, heap growth, start-up) counts. Measured two ways,
// because a run right after the other program's differs from one after itself: interleaved
// (ours, theirs, ours, …) and in blocks of ten. Each round gives a ratio of medians; the spread
// over rounds is printed with it. CPU time (user + system of the child) is steadier than wall
// time on a shared machine, so both are shown.
let processRounds = option("--process-rounds", 5)
let processRuns = option("--process-runs", 20)
let lintPeer = work.appendingPathComponent("lint_libplist").path
let peerSource = root.appendingPathComponent("Benchmarks/Peers/lint_libplist.c").path
let haveLintPeer = shell("gcc -O2 -o '\(lintPeer)' '\(peerSource)' $(pkg-config --cflags --libs libplist-2.0) 2>&1").status == 0
if !FileManager.default.isExecutableFile(atPath: plutil) {
    print("plutil not built here: swift build -c release --product plutil")
} else if !haveLintPeer {
    print("libplist whole-process peer not built: apt-get install libplist-dev")
} else {
    /// Wall and CPU (user + system) seconds of one run of `argv`, from spawn to exit.
    func processTimes(_ argv: [String]) -> (wall: Double, cpu: Double) {
        var pid = pid_t()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let cArgs = argv.map { strdup($0) } + [nil]
        let t0 = now()
        posix_spawn(&pid, argv[0], &actions, nil, cArgs, environ)
        var status: Int32 = 0
        var usage = rusage()
        wait4(pid, &status, 0, &usage)
        let wall = now() - t0
        cArgs.forEach { free($0) }
        posix_spawn_file_actions_destroy(&actions)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) * 1e-6 }
        return (wall, seconds(usage.ru_utime) + seconds(usage.ru_stime))
    }
    for (label, path) in [("XML", xmlPath.path), ("binary", work.appendingPathComponent("big.bin.plist").path)] {
        let ourCommand = [plutil, "-lint", path], theirCommand = [lintPeer, path]
        for _ in 0..<3 { _ = processTimes(ourCommand); _ = processTimes(theirCommand) }
        var interleaved: [(wall: Double, cpu: Double)] = [], blocks: [(wall: Double, cpu: Double)] = []
        var lastOurs = (wall: 0.0, cpu: 0.0), lastTheirs = (wall: 0.0, cpu: 0.0)
        for _ in 0..<processRounds {
            var o: [(wall: Double, cpu: Double)] = [], t: [(wall: Double, cpu: Double)] = []
            for _ in 0..<processRuns { o.append(processTimes(ourCommand)); t.append(processTimes(theirCommand)) }
            let (ow, oc, tw, tc) = (median(o.map(\.wall)), median(o.map(\.cpu)), median(t.map(\.wall)), median(t.map(\.cpu)))
            interleaved.append((tw / ow, tc / oc))
            var ob: [(wall: Double, cpu: Double)] = [], tb: [(wall: Double, cpu: Double)] = []
            for _ in 0..<max(1, processRuns / 10) {
                for _ in 0..<10 { ob.append(processTimes(ourCommand)) }
                for _ in 0..<10 { tb.append(processTimes(theirCommand)) }
            }
            blocks.append((median(tb.map(\.wall)) / median(ob.map(\.wall)), median(tb.map(\.cpu)) / median(ob.map(\.cpu))))
            (lastOurs, lastTheirs) = ((ow, oc), (tw, tc))
        }
        print(String(format: "whole process, %@: plutil -lint %.2f ms wall %.2f ms cpu, libplist lint %.2f ms wall %.2f ms cpu (last round's medians of %d)",
                     label, lastOurs.wall * 1000, lastOurs.cpu * 1000, lastTheirs.wall * 1000, lastTheirs.cpu * 1000, processRuns))
        for (how, ratios) in [("interleaved", interleaved), ("in blocks of 10", blocks)] {
            let walls = ratios.map(\.wall), cpus = ratios.map(\.cpu)
            print(String(format: "  %@: libplist / plutil = %.2fx wall [%.2f-%.2f], %.2fx cpu [%.2f-%.2f] over %d rounds%@",
                         how.padding(toLength: 15, withPad: " ", startingAt: 0), median(walls), walls.min()!, walls.max()!,
                         median(cpus), cpus.min()!, cpus.max()!, processRounds, label == "XML" ? "  (target >= 1.5x)" : ""))
        }
    }
}
