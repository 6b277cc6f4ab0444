// Keyed-archive benchmarks: the seed's data package (five fields, payload 1 KiB, 1 MiB, 16 MiB)
// encoded and decoded by KeyedArchives, against Python's plistlib building and parsing the same
// archive shape (../shared/peers/urlschemes/dump_and_bench.py) in the same run, and optionally
// against swift-corelibs-foundation's NSKeyedArchiver (keyedarchive.swift, built with swiftc).
//
//   swift run -c release KeyedArchiveBenchmarks [--rounds 5] [--foundation]
//
// Each round times us, then runs the Python peer; every ratio is peer time / our time within
// one round, and the report gives the median and the spread over rounds (the machine is shared).
// The Foundation peer takes over a minute per run (about 0.4 s to encode 1 MiB), so it runs once.
import BenchmarkSupport
import Foundation
import KeyedArchives

let rounds = Bench.option("--rounds", 5)
let runFoundation = CommandLine.arguments.contains("--foundation")
let foundationTimeout = Bench.option("--foundation-timeout", 600)

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let peers = root.deletingLastPathComponent().appendingPathComponent("shared/peers/urlschemes")
let work = root.appendingPathComponent(".build/bench-data")
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)

/// Payload sizes and iterations, as the peers use them.
let sizes: [(bytes: Int, iterations: Int)] = [(1024, 2000), (1 << 20, 20), (16 << 20, 5)]

struct Timing {
    var encode: Double
    var decode: Double
}

/// Mean milliseconds per encode and per decode of the package with an `n`-byte payload.
func measureOurs(payloadBytes n: Int, iterations: Int) throws -> Timing {
    let payload = [UInt8](repeating: 0x61, count: n)
    func package() -> AppDataPackage {
        AppDataPackage(sourceApplicationName: "Person Editor", sourceApplicationIdentifier: "com.EnharmonicHQ.Editor",
                       sourceApplicationVersion: "1.0", sourceApplicationBuild: "42", payload: payload)
    }
    var archive = try package().dataRepresentation()  // warm-up
    var t0 = Bench.clock()
    for _ in 0..<iterations { archive = try package().dataRepresentation() }
    let encode = (Bench.clock() - t0) / Double(iterations) * 1000
    var decoded = try AppDataPackage(unarchiving: archive)  // warm-up
    t0 = Bench.clock()
    for _ in 0..<iterations { decoded = try AppDataPackage(unarchiving: archive) }
    let decode = (Bench.clock() - t0) / Double(iterations) * 1000
    guard decoded.payload.count == n, decoded.payload.last == 0x61, decoded.sourceApplicationBuild == "42" else {
        fatalError("decoded package differs")
    }
    return Timing(encode: encode, decode: decode)
}

/// `payload=N … encode_ms=E decode_ms=D ok=yes` lines, as both peers print them.
func parsePeer(_ output: String) -> [Int: Timing] {
    var out: [Int: Timing] = [:]
    for line in output.split(separator: "\n") where line.hasPrefix("payload=") {
        var fields: [String: String] = [:]
        for pair in line.split(separator: " ") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        guard fields["ok"] == "yes", let n = fields["payload"].flatMap(Int.init),
              let e = fields["encode_ms"].flatMap(Double.init), let d = fields["decode_ms"].flatMap(Double.init) else { continue }
        out[n] = Timing(encode: e, decode: d)
    }
    return out
}

var ours: [Int: [Timing]] = [:]
var python: [Int: [Timing]] = [:]
var encodeRatios: [Int: [Double]] = [:]
var decodeRatios: [Int: [Double]] = [:]
for _ in 0..<rounds {
    var mine: [Int: Timing] = [:]
    for (n, iterations) in sizes { mine[n] = try measureOurs(payloadBytes: n, iterations: iterations) }
    let peer = parsePeer(Bench.shell("cd '\(work.path)' && python3 '\(peers.path)/dump_and_bench.py'").out)
    for (n, _) in sizes {
        guard let m = mine[n] else { continue }
        ours[n, default: []].append(m)
        guard let p = peer[n] else { continue }
        python[n, default: []].append(p)
        encodeRatios[n, default: []].append(p.encode / m.encode)
        decodeRatios[n, default: []].append(p.decode / m.decode)
    }
}

func label(_ n: Int) -> String { n >= 1 << 20 ? "\(n >> 20) MiB" : "\(n >> 10) KiB" }
func spread(_ xs: [Double]) -> String {
    guard !xs.isEmpty else { return "n/a" }
    return String(format: "%.1fx [%.1f-%.1f]", Bench.median(xs), xs.min()!, xs.max()!)
}

print("Seed data package (5 fields + payload), binary archive; \(rounds) rounds; ms per operation, medians over rounds")
print("payload   ours encode  ours decode  plistlib encode  plistlib decode  encode ratio (plistlib/ours)  decode ratio")
for (n, _) in sizes {
    let o = ours[n] ?? [], p = python[n] ?? []
    print(label(n).padding(toLength: 8, withPad: " ", startingAt: 0)
          + String(format: "  %10.4f   %10.4f   %14.4f   %14.4f", Bench.median(o.map(\.encode)), Bench.median(o.map(\.decode)),
                   Bench.median(p.map(\.encode)), Bench.median(p.map(\.decode)))
          + "   " + spread(encodeRatios[n] ?? []).padding(toLength: 28, withPad: " ", startingAt: 0) + "  " + spread(decodeRatios[n] ?? []))
}
print("target: both ratios >= 1 at 1 MiB (at least as fast as plistlib)")

if runFoundation {
    let exe = work.appendingPathComponent("keyedarchive").path
    if !FileManager.default.isExecutableFile(atPath: exe) {
        Bench.shell("swiftc -O '\(peers.path)/keyedarchive.swift' -o '\(exe)' 2>&1")
    }
    // Line-buffered so that a run cut short by the timeout still reports the sizes it finished.
    let output = Bench.shell("timeout \(foundationTimeout) stdbuf -oL '\(exe)' bench").out
    let foundation = parsePeer(output)
    print("Foundation NSKeyedArchiver on Linux (one run, compared with our last round):")
    for (n, _) in sizes {
        guard let f = foundation[n], let o = ours[n]?.last else { print("  \(label(n)): no figure (timeout?)"); continue }
        print("  " + label(n).padding(toLength: 8, withPad: " ", startingAt: 0)
              + String(format: "encode %9.3f ms = %8.0fx ours   decode %9.3f ms = %8.0fx ours", f.encode, f.encode / o.encode,
                       f.decode, f.decode / o.decode))
    }
    print("target: >= 500x at 1 MiB")
}

// Whole process: `plutil -unarchive` on the 1 KiB package against `plutil -lint` on the same file
// and a C hello-world, alternating; -unarchive should cost little beyond starting plutil.
let products = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
let plutil = products.appendingPathComponent("plutil").path
Bench.settle([plutil])
if FileManager.default.isExecutableFile(atPath: plutil) {
    let starts = Bench.option("--starts", 200)
    let packageFile = work.appendingPathComponent("package-1k.archive").path
    let small = AppDataPackage(sourceApplicationName: "Person Editor", sourceApplicationIdentifier: "com.EnharmonicHQ.Editor",
                               sourceApplicationVersion: "1.0", sourceApplicationBuild: "42", payload: [UInt8](repeating: 0x61, count: 1024))
    try Data(try small.dataRepresentation()).write(to: URL(fileURLWithPath: packageFile))
    let hello = Bench.helloWorld(in: work.path)
    var c: [Double] = [], lint: [Double] = [], unarchive: [Double] = []
    for _ in 0..<starts {
        c.append(Bench.spawnWall([hello]))
        lint.append(Bench.spawnWall([plutil, "-lint", packageFile]))
        unarchive.append(Bench.spawnWall([plutil, "-unarchive", "-o", "/dev/null", packageFile]))
    }
    print(String(format: "start-up, median of %d: C hello %.2f ms, plutil -lint %.2f ms, plutil -unarchive %.2f ms (%.2fx -lint)",
                 starts, Bench.median(c) * 1000, Bench.median(lint) * 1000, Bench.median(unarchive) * 1000,
                 Bench.median(unarchive) / Bench.median(lint)))
} else {
    print("plutil not built in \(products.path): swift build -c release --product plutil for the start-up figure")
}
