// NearbyBenchmarks: nearby against iperf3 on the same link in the same run (network namespaces,
// ../shared/nearby/lab.sh; needs root). Prints each round and the ratios the issue sets:
// ≥ 110 MB/s and ≥ 92 % of iperf3 on a 1 Gbit/s tbf link, receiver peak memory ≤ 64 MiB.
//   swift run -c release NearbyBenchmarks [--size MIB] [--rounds N] [--unlimited 1]
import BenchmarkSupport
import Foundation

let size = Bench.option("--size", 1024)
let rounds = Bench.option("--rounds", 3)
let rate = Bench.option("--unlimited", 0) == 1 ? "none" : "1gbit"
let asks = Bench.option("--asks", 100)
let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
let package = here.deletingLastPathComponent().deletingLastPathComponent()
let nearby = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("nearby").path
let lab = package.deletingLastPathComponent().appendingPathComponent("shared/nearby/lab.sh").path
let work = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-bench-\(getpid())")
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: work) }
_ = Bench.shell("cp -r '\(package.path)/Samples' '\(work.path)/Samples' && rm -rf '\(work.path)/Samples/Containers' '\(work.path)/Samples/Nearby'")
print("nearby vs iperf3, \(size) MiB, link \(rate == "none" ? "unlimited veth" : "tbf 1 Gbit/s"), \(rounds) rounds in turn")
let run = Bench.shell("ASKS=\(asks) bash '\(here.path)/lab-throughput.sh' '\(nearby)' '\(lab)' '\(work.path)' \(size) \(rate) \(rounds)")
var iperf: [Double] = [], ours: [Double] = [], rss: [Double] = [], intact: [Int] = []
var fence = -1
var askTimes: [Double] = []
for line in run.out.split(separator: "\n") {
    let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
    guard parts.count == 2 else { continue }
    switch parts[0] {
    case "iperf3_MBps": iperf.append(Double(parts[1]) ?? .nan)
    case "nearby_MBps": ours.append(Double(parts[1]) ?? .nan)
    case "peak_rss_kib": rss.append((Double(parts[1]) ?? .nan) / 1024)
    case "intact": intact.append(Int(parts[1]) ?? 0)
    case "fence": fence = Int(parts[1]) ?? -1
    case "ask_ms": askTimes.append(Double(parts[1]) ?? .nan)
    default: break
    }
}
guard run.status == 0, !ours.isEmpty else { print("the lab run failed (status \(run.status))\n\(run.out)"); exit(1) }
for i in ours.indices {
    let ratio = i < iperf.count ? ours[i] / iperf[i] : .nan
    print(String(format: "round %d: iperf3 %.1f MB/s, nearby %.1f MB/s (%.1f %%), receiver peak %.1f MiB, intact %@", i + 1,
                 i < iperf.count ? iperf[i] : .nan, ours[i], ratio * 100, i < rss.count ? rss[i] : .nan, i < intact.count && intact[i] == 1 ? "yes" : "NO"))
}
let medianRatio = Bench.median(zip(ours, iperf).map { $0 / $1 })
print(String(format: "median: nearby %.1f MB/s, iperf3 %.1f MB/s, ratio %.1f %%; receiver peak memory max %.1f MiB; fence %d",
             Bench.median(ours), Bench.median(iperf), medianRatio * 100, rss.max() ?? .nan, fence))
if !askTimes.isEmpty {
    let sorted = askTimes.sorted()
    let p99 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
    print(String(format: "%d sends of one byte (whole processes: handshake, ask, answer, upload, delivery): median %.1f ms, p99 %.1f ms, max %.1f ms",
                 sorted.count, Bench.median(sorted), p99, sorted.last!))
}
