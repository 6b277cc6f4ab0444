// Notifications and file coordination against the Linux peers, in one run (shared/ANCHORS.md:
// D-Bus signal 41-53 µs, OFD fcntl lock+unlock 2.2-3.5 µs). Prints figures and ratios; the
// machine is shared, so run it several times and report the spread.
//
//   swift run -c release CoordinationBenchmarks [--round-trips N] [--posts N] [--operations N]
import BenchmarkSupport
import FileCoordination
import Foundation
import Notifications
import Synchronization
import SystemCalls

let roundTrips = Bench.option("--round-trips", 5000)
let posts = Bench.option("--posts", 100_000)
let operations = Bench.option("--operations", 20000)
let scratch = NSTemporaryDirectory() + "coordination-bench-\(getpid())"
try? FileManager.default.createDirectory(atPath: scratch + "/docs", withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: scratch) }
let probe = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("coordination-probe").path
let peers = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("shared/peers/appgroups").path

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}
func micro(_ seconds: Double) -> String { String(format: "%.1f µs", seconds * 1e6) }

/// Starts the probe with `arguments`; returns once it printed "ready".
func startProbe(_ arguments: [String]) -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: probe)
    process.arguments = arguments
    let pipe = Foundation.Pipe()
    process.standardOutput = pipe
    try! process.run()
    var seen = Data()
    while !String(decoding: seen, as: UTF8.self).contains("ready") {
        let data = pipe.fileHandleForReading.availableData
        if data.isEmpty { break }
        seen.append(data)
    }
    return process
}

print("== coordination benchmarks, \(ProcessInfo.processInfo.processorCount) cores, load \(String((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.prefix(14) ?? ""))")

// MARK: Post -> callback in another process (ping-pong, RTT/2), against a D-Bus signal

do {
    let folder = scratch + "/notify"
    let echo = startProbe(["notify-echo", folder, "bench.ping", "bench.pong", String(roundTrips + 100)])
    let center = NotifyCenter(directory: folder)
    let samples = Mutex<[Double]>([])
    let started = Atomic<UInt64>(0)
    let done = Atomic<Bool>(false)
    _ = try center.register("bench.pong") { _ in
        let now = Clock.monotonic()
        let count = samples.withLock { samples -> Int in
            samples.append(now - Double(bitPattern: started.load(ordering: .sequentiallyConsistent)))
            return samples.count
        }
        if count >= roundTrips + 100 { done.store(true, ordering: .sequentiallyConsistent); return }
        started.store(Clock.monotonic().bitPattern, ordering: .sequentiallyConsistent)
        try? center.post("bench.ping")
    }
    Thread.sleep(forTimeInterval: 0.2)
    started.store(Clock.monotonic().bitPattern, ordering: .sequentiallyConsistent)
    try center.post("bench.ping")
    while !done.load(ordering: .sequentiallyConsistent) { Thread.sleep(forTimeInterval: 0.01) }
    echo.waitUntilExit()
    let oneWay = samples.withLock { Array($0.dropFirst(100)) }.map { $0 / 2 }
    let ours = percentile(oneWay, 0.5)
    print("notify post -> callback, other process (RTT/2, n=\(oneWay.count)): median \(micro(ours))  p90 \(micro(percentile(oneWay, 0.9)))  p99 \(micro(percentile(oneWay, 0.99)))")

    let build = scratch + "/dbus_bench"
    let compiled = Bench.shell("cc -O2 -o '\(build)' '\(peers)/dbus_bench.c' $(pkg-config --cflags --libs dbus-1) 2>&1").status == 0
    if compiled, Bench.shell("command -v dbus-run-session").status == 0 {
        let output = Bench.shell("dbus-run-session -- '\(build)' \(roundTrips) 1 2>/dev/null").out
        print("peer: " + output.trimmingCharacters(in: .whitespacesAndNewlines))
        if let range = output.range(of: "median "), let value = Double(output[range.upperBound...].prefix { $0 == "." || $0.isNumber }) {
            print(String(format: "ratio median D-Bus / ours: %.2f (above 1: ours is faster)", value / (ours * 1e6)))
        }
    } else {
        print("peer: D-Bus benchmark not built (needs cc, libdbus-1-dev and dbus-run-session)")
    }
}

// MARK: Posts: throughput with one observer; the observer reads the final state

do {
    let folder = scratch + "/posts"
    let center = NotifyCenter(directory: folder)
    let observer = startProbe(["notify-final", folder, "bench.count", String(posts)])
    let token = try center.registerPlain("bench.count")
    let start = Clock.monotonic()
    for index in 1...posts {
        try center.setState(UInt64(index), for: token)
        try center.post("bench.count")
    }
    let elapsed = Clock.monotonic() - start
    observer.waitUntilExit()
    print(String(format: "notify set_state + post, one observer: %.0f posts/s (%@ each); observer read the final state: %@", Double(posts) / elapsed,
                 micro(elapsed / Double(posts)), observer.terminationStatus == 0 ? "yes" : "no"))
}

// MARK: Uncontended coordination overhead, against an OFD lock

let F_OFD_SETLKW_: Int32 = 38 // <fcntl.h> with _GNU_SOURCE; Swift's Glibc does not export it
func ofdLock(_ descriptor: Int32, _ type: Int32) {
    var lock = flock()
    lock.l_type = Int16(type)
    lock.l_whence = Int16(SEEK_SET)
    _ = withUnsafeMutablePointer(to: &lock) { fcntl(descriptor, F_OFD_SETLKW_, $0) }
}

do {
    let coordinator = FileCoordinator(space: CoordinationSpace(directory: scratch + "/coord"))
    let item = scratch + "/docs/item.txt"
    for _ in 0..<1000 { try coordinator.coordinate(writingItemAt: item) { _ in } }
    var best = Double.infinity
    for _ in 0..<5 {
        let start = Clock.monotonic()
        for _ in 0..<operations { try coordinator.coordinate(writingItemAt: item) { _ in } }
        best = min(best, (Clock.monotonic() - start) / Double(operations))
    }
    let lockFile = open(scratch + "/docs/lockfile", O_RDWR | O_CREAT, 0o644)
    var ofd = Double.infinity
    for _ in 0..<5 {
        let start = Clock.monotonic()
        for _ in 0..<operations { ofdLock(lockFile, Int32(F_WRLCK)); ofdLock(lockFile, Int32(F_UNLCK)) }
        ofd = min(ofd, (Clock.monotonic() - start) / Double(operations))
    }
    print("uncontended coordinated write (empty accessor, canonical path, claim and release): \(micro(best)) per access (best of 5 x \(operations)); OFD fcntl lock+unlock \(micro(ofd))")

    // Rewrites of a 1 KiB file (write a temporary file, rename over): under coordination and
    // under a raw OFD lock on a side file (the ipc_bench kv pattern), one process.
    let payload = [UInt8](repeating: 0x78, count: 1024)
    func rewrite(_ path: String) {
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = payload.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        rename(temporary, path)
    }
    // Interleaved in blocks of 50, so that both see the same load on a shared machine.
    let blocks = max(40, operations / 500)
    var rawTime = 0.0, coordinatedTime = 0.0
    var pairs: [Double] = []
    for _ in 0..<blocks {
        var start = Clock.monotonic()
        for _ in 0..<50 { ofdLock(lockFile, Int32(F_WRLCK)); rewrite(item); ofdLock(lockFile, Int32(F_UNLCK)) }
        let raw = Clock.monotonic() - start
        start = Clock.monotonic()
        for _ in 0..<50 { try coordinator.coordinate(writingItemAt: item) { path in rewrite(path) } }
        let coordinated = Clock.monotonic() - start
        rawTime += raw
        coordinatedTime += coordinated
        pairs.append(raw / coordinated)
    }
    let count = blocks * 50
    close(lockFile)
    print(String(format: "1 KiB rewrite (temp + rename), %d each, interleaved: coordinated %.0f/s, raw OFD-locked %.0f/s; ratio %.2f (target >= 0.8); per block of 50: p10 %.2f, median %.2f, p90 %.2f",
                 count, Double(count) / coordinatedTime, Double(count) / rawTime, rawTime / coordinatedTime,
                 percentile(pairs, 0.1), percentile(pairs, 0.5), percentile(pairs, 0.9)))
}

// MARK: Presenter in another process: a coordinated write -> presentedItemDidChange (RTT/2)

do {
    final class Latch: FilePresenter, @unchecked Sendable {
        let presentedItemPath: String?
        let changed = Atomic<Int>(0)
        init(_ path: String) { presentedItemPath = path }
        func presentedItemDidChange() { changed.add(1, ordering: .sequentiallyConsistent) }
    }
    let folder = scratch + "/presenters"
    let space = CoordinationSpace(directory: folder)
    let ping = scratch + "/docs/ping.txt", pong = scratch + "/docs/pong.txt"
    let latch = Latch(pong)
    try FileCoordinator.addFilePresenter(latch, space: space)
    let echo = startProbe(["presenter-echo", folder, ping, pong])
    let coordinator = FileCoordinator(space: space)
    var samples: [Double] = []
    let rounds = max(500, roundTrips / 5)
    for round in 0..<(rounds + 50) {
        let before = latch.changed.load(ordering: .sequentiallyConsistent)
        let start = Clock.monotonic()
        try coordinator.coordinate(writingItemAt: ping) { _ in }
        while latch.changed.load(ordering: .sequentiallyConsistent) == before { sched_yield() }
        if round >= 50 { samples.append((Clock.monotonic() - start) / 2) }
    }
    echo.terminate()
    echo.waitUntilExit()
    print("presenter told of a coordinated write in another process (RTT/2 of write -> didChange -> write -> didChange, n=\(samples.count)): median \(micro(percentile(samples, 0.5)))  p99 \(micro(percentile(samples, 0.99)))  max \(micro(samples.max() ?? .nan)) (target p99 <= 10 ms)")
}
