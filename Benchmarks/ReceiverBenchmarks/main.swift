// The receiver's figures (docs/receiver.md), each part selectable with --only:
// - throughput: durable Inbox moves against the raw recipes of ../shared/peers/inbox/bench_moves.py,
//   in one run and on one file system (/tmp): 1,000 x 4 KiB files per repetition, setup flushed
//   and not timed;
// - latency: `inboxd run` (the release binary beside this one) while files arrive at 100 per second:
//   from each file's close in the Inbox to its move being durable (the manifest's `moved` time);
// - memory: `inboxd run`'s resident set while 100,000 files pass through it.
//
//   swift build -c release && .build/release/ReceiverBenchmarks [--only throughput|latency|memory]
//       [--files 1000] [--reps 5] [--seconds 10] [--total 100000]
import AppRegistry
import BenchmarkSupport
import Foundation
import Handlers
import Receiver
import UniformTypes

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let peer = root.deletingLastPathComponent().appendingPathComponent("shared/peers/inbox/bench_moves.py").path
let files = Bench.option("--files", 1000)
let reps = Bench.option("--reps", 5)

@MainActor func ours(manifest withManifest: Bool, batch: Int) throws -> Double {
    let base = NSTemporaryDirectory() + "receiver-bench-\(getpid())"
    try? FileManager.default.removeItem(atPath: base)
    let container = try AppContainer(bundleIdentifier: "com.example.bench", on: DeviceRoot(path: base))
    try container.create()
    let body = Data(repeating: 0x61, count: 4096)
    for i in 0..<files {
        let path = container.inbox + "/f\(i).bin"
        _ = FileManager.default.createFile(atPath: path, contents: body)
        let fd = open(path, O_RDONLY); fsync(fd); close(fd)
    }
    sync()
    let manifest = withManifest ? try Manifest(path: container.library + "/Manifest.sqlite") : nil
    var mover = InboxMover(container: container, manifest: manifest)
    mover.batchSize = batch
    let t0 = Bench.clock()
    let results = try mover.moveAll()
    let seconds = Bench.clock() - t0
    precondition(results.count == files && results.allSatisfy { if case .moved = $0.outcome { true } else { false } })
    try? FileManager.default.removeItem(atPath: base)
    return Double(files) / seconds
}

let only: String? = CommandLine.arguments.firstIndex(of: "--only").flatMap { $0 + 1 < CommandLine.arguments.count ? CommandLine.arguments[$0 + 1] : nil }
func wanted(_ part: String) -> Bool { only == nil || only == part }

var peerDurable: [Double] = [], peerBatched: [Double] = [], peerBoth: [Double] = []
// Ours: per-file durable (batches of 1) and group commit (256), without and with the manifest.
let variants = [(false, 1), (true, 1), (false, 256), (true, 256)]
var ourRates = [[Double]](repeating: [], count: variants.count)
for rep in 0..<(wanted("throughput") ? reps : 0) {
    let out = Bench.shell("python3 '\(peer)' -n \(files) --reps 1 --variants durable,durable_both,durable_batched --json").out
    if let data = out.data(using: .utf8), let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
       let variants = json["variants"] as? [String: [String: Any]] {
        if let v = variants["durable"]?["median_files_per_s"] as? Double { peerDurable.append(v) }
        if let v = variants["durable_batched"]?["median_files_per_s"] as? Double { peerBatched.append(v) }
        if let v = variants["durable_both"]?["median_files_per_s"] as? Double { peerBoth.append(v) }
    }
    // A different order each repetition: the runs share the disk's state.
    for k in variants.indices.map({ ($0 + rep) % variants.count }) {
        ourRates[k].append(try ours(manifest: variants[k].0, batch: variants[k].1))
    }
}
if wanted("throughput") {
    let raw = Bench.median(peerDurable)
    let both = Bench.median(peerBoth)
    print(String(format: "peer: raw durable (fsync file, rename, fsync Documents) %.0f files/s; + fsync Inbox %.0f files/s; raw batched %.0f files/s",
                 raw, both, Bench.median(peerBatched)))
    for (k, (manifest, batch)) in variants.enumerated() {
        let rate = Bench.median(ourRates[k])
        print(String(format: "InboxMover %@, %@: %.0f files/s = %.2fx raw durable (target >= %@), %.2fx raw durable with the Inbox flushed too",
                     batch == 1 ? "per file (batches of 1)" : "group commit (batches of 256)",
                     manifest ? "journaled in the SQLite manifest with SHA-256" : "no manifest", rate, rate / raw, batch == 1 ? "0.9x" : "2x", rate / both))
    }
}

/// A device root with one app, and `inboxd run` started on it (stderr discarded).
func startJob(_ name: String) throws -> (base: String, container: AppContainer, job: Process) {
    let base = NSTemporaryDirectory() + "receiver-bench-\(name)-\(getpid())"
    try? FileManager.default.removeItem(atPath: base)
    let container = try AppContainer(bundleIdentifier: "com.example.bench", on: DeviceRoot(path: base))
    try container.create()
    let inboxd = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("inboxd").path
    precondition(FileManager.default.isExecutableFile(atPath: inboxd), "build inboxd first: swift build -c release")
    let job = Process()
    job.executableURL = URL(fileURLWithPath: inboxd)
    job.arguments = ["run", "--root", base, "--app", "com.example.bench", "--log-level", "error"]
    job.standardOutput = FileHandle.nullDevice
    job.standardError = FileHandle.nullDevice
    try job.run()
    usleep(300_000)   // its watch is set
    return (base, container, job)
}

func waitForEmpty(_ folder: String) {
    while ((try? FileManager.default.contentsOfDirectory(atPath: folder).count) ?? 0) > 0 { usleep(5_000) }
}

func percentile(_ xs: [Double], _ p: Double) -> Double {
    let s = xs.sorted()
    return s.isEmpty ? .nan : s[min(s.count - 1, Int((Double(s.count) * p).rounded(.up)) - 1)]
}

if wanted("latency") {
    let seconds = Bench.option("--seconds", 10)
    let (base, container, job) = try startJob("latency")
    var closed: [String: Double] = [:]
    let body = [UInt8](repeating: 0x62, count: 4096)
    let start = Bench.clock()
    for i in 0..<(seconds * 100) {
        // Arrivals on a fixed schedule: 100 per second.
        let due = start + Double(i) / 100
        let wait = due - Bench.clock()
        if wait > 0 { usleep(UInt32(wait * 1e6)) }
        let name = "arrival-\(i).bin"
        let fd = open(container.inbox + "/" + name, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o644)
        _ = body.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        closed[name] = Date().timeIntervalSince1970
    }
    waitForEmpty(container.inbox)
    kill(job.processIdentifier, SIGTERM)
    job.waitUntilExit()
    let rows = try Manifest(path: container.library + "/Manifest.sqlite").entries()
    let latencies = rows.compactMap { row -> Double? in
        guard let moved = row.moved, let close = closed[String(decoding: row.originalName, as: UTF8.self)] else { return nil }
        return (moved - close) * 1000
    }
    precondition(latencies.count == closed.count, "\(latencies.count) of \(closed.count) files moved")
    print(String(format: "latency at 100 arrivals/s, %d files, close in the Inbox -> durable in Documents: p50 %.2f ms, p99 %.2f ms, max %.2f ms (target p99 <= 20 ms)",
                 latencies.count, percentile(latencies, 0.5), percentile(latencies, 0.99), latencies.max() ?? .nan))
    try? FileManager.default.removeItem(atPath: base)
}

if wanted("memory") {
    let total = Bench.option("--total", 100_000)
    let (base, container, job) = try startJob("memory")
    func residentKiB() -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(job.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }
    var samples: [(Int, Int)] = [(0, residentKiB())]
    let chunk = 5_000
    var delivered = 0
    while delivered < total {
        for i in delivered..<min(total, delivered + chunk) {
            let fd = open(container.inbox + "/m\(i).txt", O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o644)
            _ = write(fd, "m", 1)
            close(fd)
        }
        delivered = min(total, delivered + chunk)
        waitForEmpty(container.inbox)
        samples.append((delivered, residentKiB()))
    }
    kill(job.processIdentifier, SIGTERM)
    job.waitUntilExit()
    let stored = try Manifest(path: container.library + "/Manifest.sqlite").entries().filter { $0.status == .stored }.count
    precondition(stored == total, "\(stored) of \(total) stored")
    print("memory of inboxd run over \(total) files (resident KiB after each \(chunk)): " + samples.map { "\($0.0 / 1000)k:\($0.1)" }.joined(separator: " "))
    // From 10,000 files on: SQLite's page cache (2 MB by default) fills during the first ones.
    let settled = samples.filter { $0.0 >= 10_000 }.map(\.1)
    if let first = settled.first, let last = settled.last, let low = settled.min(), let high = settled.max() {
        print(String(format: "resident set from 10k to %dk files: %d -> %d KiB (%+d KiB), range %d-%d KiB", total / 1000, first, last, last - first, low, high))
    }
    try? FileManager.default.removeItem(atPath: base)
}
