// Durable Inbox moves against the raw recipes of ../shared/peers/inbox/bench_moves.py, in one run
// and on one file system (/tmp): 1,000 x 4 KiB files per repetition, setup flushed and not timed.
//
//   swift run -c release ReceiverBenchmarks [--files 1000] [--reps 5]
import BenchmarkSupport
import Foundation
import Handlers
import Receiver
import UniformTypes

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let peer = root.deletingLastPathComponent().appendingPathComponent("shared/peers/inbox/bench_moves.py").path
let files = Bench.option("--files", 1000)
let reps = Bench.option("--reps", 5)

@MainActor func ours(manifest withManifest: Bool) throws -> Double {
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
    let mover = InboxMover(container: container, manifest: manifest)
    let t0 = Bench.clock()
    let results = try mover.moveAll()
    let seconds = Bench.clock() - t0
    precondition(results.count == files && results.allSatisfy { if case .moved = $0.outcome { true } else { false } })
    try? FileManager.default.removeItem(atPath: base)
    return Double(files) / seconds
}

var peerDurable: [Double] = [], peerBatched: [Double] = [], plain: [Double] = [], journaled: [Double] = []
for _ in 0..<reps {
    let out = Bench.shell("python3 '\(peer)' -n \(files) --reps 1 --variants durable,durable_batched --json").out
    if let data = out.data(using: .utf8), let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
       let variants = json["variants"] as? [String: [String: Any]] {
        if let v = variants["durable"]?["median_files_per_s"] as? Double { peerDurable.append(v) }
        if let v = variants["durable_batched"]?["median_files_per_s"] as? Double { peerBatched.append(v) }
    }
    plain.append(try ours(manifest: false))
    journaled.append(try ours(manifest: true))
}
let raw = Bench.median(peerDurable)
print(String(format: "raw durable (fsync file, rename, fsync dir) %.0f files/s; raw batched %.0f files/s", raw, Bench.median(peerBatched)))
print(String(format: "InboxMover, checks + durable move, no manifest: %.0f files/s = %.2fx raw durable (target >= 0.9x)",
             Bench.median(plain), Bench.median(plain) / raw))
print(String(format: "InboxMover with the journaled SQLite manifest (SHA-256, two commits): %.0f files/s = %.2fx raw durable",
             Bench.median(journaled), Bench.median(journaled) / raw))
