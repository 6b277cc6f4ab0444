// Pasteboard benchmarks: 64 MiB through the desktop clipboard with pasteboardd as the owner,
// against the peers as owners (xclip on Xvfb, wl-copy on headless sway), in the same run, pasted
// by the peers' own paste tools; the import of a desktop copy into the general pasteboard; and
// pbcopy/pbpaste on their own.
//
//   for p in PasteboardBenchmarks pbcopy pbpaste pasteboardd; do swift build -c release --product $p; done
//   .build/release/PasteboardBenchmarks [--rounds 7] [--size 67108864]
//
// Prints medians with the spread (min-max) and the ratios; the machine is shared and noisy, so
// only ratios taken in one run mean anything.
import BenchmarkSupport
import Foundation

let rounds = Bench.option("--rounds", 7)
let size = Bench.option("--size", 64 << 20)
let bin = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().path
let work = FileManager.default.temporaryDirectory.appendingPathComponent("pasteboard-bench-\(getpid())").path
try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
chmod(work, 0o755)
defer { try? FileManager.default.removeItem(atPath: work) }
setenv("DOCUMENT_INTERCHANGE_ROOT", work + "/root", 1)
try FileManager.default.createDirectory(atPath: work + "/root", withIntermediateDirectories: true)
let data = work + "/data"
Bench.shell("head -c \(size) /dev/urandom | base64 -w0 | head -c \(size) > \(data)")
let mib = Double(size) / 1_048_576

/// A program running in the background until `stop()`.
final class Background {
    let process = Process()
    init(_ arguments: [String], stdin: String? = nil, log: String = "/dev/null", output: String = "/dev/null") throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let stdin { process.standardInput = FileHandle(forReadingAtPath: stdin) }
        // createFile replaces the file by a rename: never on /dev/null (it would become a regular file).
        if log != "/dev/null" { _ = FileManager.default.createFile(atPath: log, contents: nil) }
        if output != "/dev/null" { _ = FileManager.default.createFile(atPath: output, contents: nil) }
        process.standardOutput = FileHandle(forWritingAtPath: output)
        process.standardError = FileHandle(forWritingAtPath: log)
        try process.run()
    }
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// Where pastes are written: tmpfs when there is one. Overwriting a 64 MiB file on ext4 while the
/// previous one was still being written back stalled some pastes by 150-200 ms, whichever owner
/// served them (xclip -o > file: 91-111 ms or 220-300 ms; > /dev/null: 61-90 ms, no second mode).
let pasteOutput = FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm/pasteboard-bench-\(getpid()).out" : work + "/out"
defer { try? FileManager.default.removeItem(atPath: pasteOutput) }

/// Times one paste (a shell line writing to `pasteOutput`); checks the bytes.
func timedPaste(_ command: String) -> (seconds: Double, ok: Bool) {
    let t0 = Bench.clock()
    Bench.shell(command + " > \(pasteOutput) 2>/dev/null")
    let seconds = Bench.clock() - t0
    return (seconds, Bench.shell("cmp -s \(data) \(pasteOutput)").status == 0)
}

/// `rounds` pastes with the peer as the owner and with pasteboardd as the owner, alternating
/// round by round (each owner started for its paste and stopped after), so that a change in the
/// machine's load falls on both.
func interleaved(peer: (String, () -> Background?), ours: (String, () -> Background?), paste: String) -> [(label: String, times: [Double], ok: Bool)] {
    var rows = [(label: peer.0, times: [Double](), ok: true), (label: ours.0, times: [Double](), ok: true)]
    var failures = [0, 0]
    Bench.shell("\(bin)/pbcopy < \(data)")
    for _ in 0..<rounds {
        for (index, start) in [peer.1, ours.1].enumerated() {
            let owner = start()
            let (seconds, ok) = timedPaste(paste)
            owner?.stop()
            // A paste that did not arrive whole (an owner not ready) is counted, not timed.
            if ok { rows[index].times.append(seconds) } else { failures[index] += 1 }
            rows[index].ok = rows[index].ok && ok
            usleep(200_000)
        }
    }
    for index in 0..<2 where failures[index] > 0 { print("\(rows[index].label): \(failures[index]) of \(rounds) pastes incomplete, left out") }
    return rows
}

func waitUntil(_ seconds: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Bench.clock() + seconds
    while Bench.clock() < deadline {
        if condition() { return true }
        usleep(20_000)
    }
    return false
}

func report(_ title: String, _ rows: [(label: String, times: [Double], ok: Bool)], versus peer: Int) {
    print("== \(title): \(rounds) pastes of \(Int(mib)) MiB each per owner, interleaved, owner already set")
    let peerMedian = Bench.median(rows[peer].times)
    for row in rows {
        let median = Bench.median(row.times)
        let spread = String(format: "%.0f-%.0f", (row.times.min() ?? 0) * 1000, (row.times.max() ?? 0) * 1000)
        let ratio = peerMedian / median
        print(String(format: "%-46@ median %6.0f ms (%@)  %6.0f MiB/s  x%.2f of %@  %@", row.label as NSString, median * 1000, spread,
                     mib / median, ratio, rows[peer].label as NSString, row.ok ? "all intact" : "some incomplete"))
    }
}

/// A desktop copy imported by pasteboardd, `rounds` times: the wall time until pbpaste sees it,
/// and from pasteboardd's log the time it took to read the data from the owner (fetch) and to
/// store it (write and flush the generation).
func imports(_ owner: [String], log: String) -> (wall: [Double], fetch: [Double], store: [Double]) {
    var wall: [Double] = [], fetch: [Double] = [], store: [Double] = []
    for _ in 0..<rounds {
        let before = Bench.shell("\(bin)/pbpaste --change-count").out
        let t0 = Bench.clock()
        guard let copy = try? Background(owner, stdin: data) else { break }
        let done = waitUntil(30) { Bench.shell("\(bin)/pbpaste --change-count").out != before }
        let t1 = Bench.clock()
        copy.stop()
        guard done else { continue }
        wall.append(t1 - t0)
        let line = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").last { $0.contains("msg=imported") } ?? ""
        func field(_ name: String) -> Double? {
            guard let range = line.range(of: name + "=") else { return nil }
            return Double(line[range.upperBound...].prefix { $0.isNumber }).map { $0 / 1000 }
        }
        if let f = field("fetchMilliseconds") { fetch.append(f) }
        if let s = field("storeMilliseconds") { store.append(s) }
        // The bridge takes the clipboard back when the owner goes: let it settle.
        usleep(300_000)
    }
    return (wall, fetch, store)
}

func reportImports(_ peer: String, _ peerTimes: [Double], _ result: (wall: [Double], fetch: [Double], store: [Double])) {
    func line(_ label: String, _ times: [Double]) -> String {
        let m = Bench.median(times)
        return String(format: "  %-44@ median %6.0f ms (%.0f-%.0f)  %6.0f MiB/s  x%.2f of %@", label as NSString, m * 1000,
                      (times.min() ?? 0) * 1000, (times.max() ?? 0) * 1000, mib / m, Bench.median(peerTimes) / m, peer as NSString)
    }
    print("import of a desktop copy by pasteboardd (\(result.wall.count) rounds):")
    print(line("read from the owner (our requestor)", result.fetch))
    print(line("stored (generation written and flushed)", result.store))
    print(line("copy started -> pbpaste sees it (wall)", result.wall))
}

// MARK: X11

if FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb") && FileManager.default.isExecutableFile(atPath: "/usr/bin/xclip") {
    // Xvfb picks a free display itself and writes its number (other X servers may run here).
    let server = try Background(["Xvfb", "-displayfd", "1", "-nolisten", "tcp"], output: work + "/display")
    _ = waitUntil { ((try? String(contentsOfFile: work + "/display", encoding: .utf8)) ?? "").hasSuffix("\n") }
    let display = ":" + ((try? String(contentsOfFile: work + "/display", encoding: .utf8)) ?? "").filter(\.isNumber)
    setenv("DISPLAY", display, 1)
    unsetenv("WAYLAND_DISPLAY")
    let paste = "xclip -selection clipboard -t text/plain -o"
    let rows = interleaved(peer: ("xclip owner -> xclip -o (peer)", {
        let owner = try? Background(["xclip", "-quiet", "-selection", "clipboard", "-t", "text/plain", "-i"], stdin: data)
        _ = waitUntil { Bench.shell("xclip -selection clipboard -t TARGETS -o 2>/dev/null").out.contains("text/plain") }
        return owner
    }), ours: ("pasteboardd owner -> xclip -o (ours)", {
        let bridge = try? Background(["\(bin)/pasteboardd", "run", "--backend", "x11"], log: work + "/x11.log")
        _ = waitUntil { Bench.shell("xclip -selection clipboard -t TARGETS -o 2>/dev/null").out.contains("public.utf8-plain-text") }
        return bridge
    }), paste: paste)
    // xclip -o's own paste without writing its output to a file: the part of the peer's time that
    // the owner and the X server take, which bounds any requestor (ours included). Measured before
    // the bridge starts: an xclip owner serves one INCR requestor at a time, and with the bridge
    // importing the same copy, xclip -o waited for ever.
    var discarded: [Double] = []
    if let owner = try? Background(["xclip", "-quiet", "-selection", "clipboard", "-t", "text/plain", "-i"], stdin: data) {
        _ = waitUntil { Bench.shell("xclip -selection clipboard -t TARGETS -o 2>/dev/null").out.contains("text/plain") }
        for _ in 0..<rounds {
            let t0 = Bench.clock()
            Bench.shell(paste + " > /dev/null 2>&1")
            discarded.append(Bench.clock() - t0)
        }
        owner.stop()
    }
    let bridge = try Background(["\(bin)/pasteboardd", "run", "--backend", "x11"], log: work + "/x11.log")
    _ = waitUntil { Bench.shell("xclip -selection clipboard -t TARGETS -o 2>/dev/null").out.contains("public.utf8-plain-text") }
    report("X11 (Xvfb), CLIPBOARD", rows, versus: 0)
    print(String(format: "  %-44@ median %6.0f ms (%.0f-%.0f)  %6.0f MiB/s", "xclip -o > /dev/null (no file written)" as NSString,
                 Bench.median(discarded) * 1000, (discarded.min() ?? 0) * 1000, (discarded.max() ?? 0) * 1000, mib / Bench.median(discarded)))
    let x11Imports = imports(["xclip", "-quiet", "-selection", "clipboard", "-t", "text/plain", "-i"], log: work + "/x11.log")
    reportImports("xclip -> xclip", rows[0].times, x11Imports)
    // The ratio above sets a read that ends in memory against xclip -o writing a 64 MiB file (and
    // starting a process); against xclip -o writing nowhere, only the process start is left over.
    print(String(format: "  read from the owner vs xclip -o > /dev/null: x%.2f", Bench.median(discarded) / Bench.median(x11Imports.fetch)))
    bridge.stop()
    server.stop()
} else {
    print("== X11: skipped (Xvfb or xclip not installed)")
}

// MARK: Wayland

if FileManager.default.isExecutableFile(atPath: "/usr/bin/sway") && FileManager.default.isExecutableFile(atPath: "/usr/bin/wl-paste") {
    let runtime = work + "/rt"
    try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
    chmod(runtime, 0o700)
    Bench.shell("chown nobody \(runtime)")
    try "output HEADLESS-1 resolution 800x600\n".write(toFile: work + "/sway.conf", atomically: true, encoding: .utf8)
    setenv("XDG_RUNTIME_DIR", runtime, 1)
    unsetenv("DISPLAY")
    // sway refuses root: it runs as nobody; the clients connect to its socket as root.
    let server = try Background(["HOME=\(work)", "WLR_BACKENDS=headless", "WLR_LIBINPUT_NO_DEVICES=1", "WLR_RENDERER=pixman",
                                 "setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "sway", "-c", work + "/sway.conf"],
                                log: work + "/sway.log")
    _ = waitUntil { ((try? FileManager.default.contentsOfDirectory(atPath: runtime)) ?? []).contains { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") } }
    if let socket = ((try? FileManager.default.contentsOfDirectory(atPath: runtime)) ?? []).first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }) {
        setenv("WAYLAND_DISPLAY", socket, 1)
        let paste = "wl-paste --no-newline --type text/plain"
        let rows = interleaved(peer: ("wl-copy owner -> wl-paste (peer)", {
            let owner = try? Background(["wl-copy", "--foreground", "--type", "text/plain"], stdin: data)
            _ = waitUntil { Bench.shell("wl-paste --list-types 2>/dev/null").out.contains("text/plain") }
            return owner
        }), ours: ("pasteboardd owner -> wl-paste (ours)", {
            let bridge = try? Background(["\(bin)/pasteboardd", "run", "--backend", "wayland"], log: work + "/wayland.log")
            _ = waitUntil { Bench.shell("wl-paste --list-types 2>/dev/null").out.contains("public.utf8-plain-text") }
            return bridge
        }), paste: paste)
        let bridge = try Background(["\(bin)/pasteboardd", "run", "--backend", "wayland"], log: work + "/wayland.log")
        _ = waitUntil { Bench.shell("wl-paste --list-types 2>/dev/null").out.contains("public.utf8-plain-text") }
        report("Wayland (headless sway, wlr-data-control)", rows, versus: 0)
        reportImports("wl-copy -> wl-paste", rows[0].times, imports(["wl-copy", "--foreground", "--type", "text/plain"], log: work + "/wayland.log"))
        bridge.stop()
    } else {
        print("== Wayland: sway did not start: \((try? String(contentsOfFile: work + "/sway.log", encoding: .utf8))?.suffix(300) ?? "")")
    }
    server.stop()
} else {
    print("== Wayland: skipped (sway or wl-clipboard not installed)")
}

// MARK: The pasteboard alone

print("== pbcopy / pbpaste on the device root (no display)")
var copies: [Double] = [], pasteTimes: [Double] = [], small: [Double] = [], smallPaste: [Double] = []
for _ in 0..<rounds {
    var t0 = Bench.clock()
    Bench.shell("\(bin)/pbcopy < \(data)")
    copies.append(Bench.clock() - t0)
    t0 = Bench.clock()
    Bench.shell("\(bin)/pbpaste > \(work)/out")
    pasteTimes.append(Bench.clock() - t0)
}
for _ in 0..<(rounds * 20) {
    small.append(Bench.spawnWall(["\(bin)/pbcopy", "-pboard", "find", "--change-count"]))
    smallPaste.append(Bench.spawnWall(["\(bin)/pbpaste", "-pboard", "find"]))
}
print(String(format: "pbcopy %d MiB: median %.0f ms (%.0f MiB/s, flushed to disk); pbpaste: median %.0f ms (%.0f MiB/s)",
             Int(mib), Bench.median(copies) * 1000, mib / Bench.median(copies), Bench.median(pasteTimes) * 1000, mib / Bench.median(pasteTimes)))
print(String(format: "pbcopy of nothing (whole process, one write, fsync): median %.2f ms; pbpaste of it: median %.2f ms",
             Bench.median(small) * 1000, Bench.median(smallPaste) * 1000))
