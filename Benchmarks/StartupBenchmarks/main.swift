// Start-up of every query tool as a whole process, each against a C hello-world in the same run:
// the tools a script or a file manager starts once per question (uti, openin, openurl, plutil,
// defaults, notifyutil, pbpaste), on a device root with the sample apps registered. Spawns are
// interleaved (hello, tool, hello, tool, …) so that the machine's drift falls on both; each round
// gives a ratio of medians, and the line prints the rounds' lowest, median and highest ratio.
//
//   read -ra flags < <(bash scripts/release-flags)   (the flags the installed tools are built with)
//   swift build -c release "${flags[@]}" --product uti   (and each tool below, one --product per call)
//   swift run -c release "${flags[@]}" StartupBenchmarks [--starts N] [--rounds N]
//
// Needs gcc. The tools are read from the folder this program was built into, settled in the page
// cache as an installed program is (Bench.settle), and each command is checked to succeed first.
import BenchmarkSupport
import Foundation

let starts = Bench.option("--starts", 200)
let rounds = Bench.option("--rounds", 5)
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let products = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
let work = root.appendingPathComponent(".build/bench-startup")
try? FileManager.default.removeItem(at: work)
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)

func tool(_ name: String) -> String { products.appendingPathComponent(name).path }
let samples = root.appendingPathComponent("Samples")
let device = work.appendingPathComponent("device").path
let plist = samples.appendingPathComponent("Apps/Notes.app/Info.plist").path
let photo = samples.appendingPathComponent("Documents/photo.png").path

// The device: the sample apps registered, one defaults key, one pasteboard string.
let apps = ((try? FileManager.default.contentsOfDirectory(atPath: samples.appendingPathComponent("Apps").path)) ?? [])
    .filter { $0.hasSuffix(".app") }.sorted().map { samples.appendingPathComponent("Apps/" + $0).path }
let setup = [
    "'\(tool("uti"))' --root '\(device)' register --create-root " + apps.map { "'\($0)'" }.joined(separator: " "),
    "'\(tool("defaults"))' --root '\(device)' write com.example.notes fontSize -int 14",
    "echo hello | '\(tool("pbcopy"))' --root '\(device)'",
]
for command in setup where Bench.shell(command + " >/dev/null 2>&1").status != 0 {
    print("set-up failed: \(command)\n(build the tools first: swift build -c release --product NAME, one per tool)")
    exit(1)
}

let commands: [(name: String, argv: [String])] = [
    ("uti conforms", [tool("uti"), "--root", device, "conforms", "public.png", "public.data"]),
    ("uti for-extension", [tool("uti"), "--root", device, "for-extension", "png"]),
    ("openin --list", [tool("openin"), "--root", device, "--list", photo]),
    ("openurl --list", [tool("openurl"), "--root", device, "--list", "mailto:someone@example.com"]),
    ("plutil -lint", [tool("plutil"), "-lint", plist]),
    ("defaults read", [tool("defaults"), "--root", device, "read", "com.example.notes", "fontSize"]),
    ("notifyutil -g", [tool("notifyutil"), "-g", "org.document-interchange.bench"]),
    ("pbpaste", [tool("pbpaste"), "--root", device]),
]
for (name, argv) in commands {
    let check = Bench.shell(argv.map { "'\($0)'" }.joined(separator: " ") + " >/dev/null 2>&1")
    if check.status != 0 { print("\(name): exits \(check.status); fix that before timing it"); exit(1) }
}
let hello = Bench.helloWorld(in: work.path)
Bench.settle([hello] + Set(commands.map { $0.argv[0] }).sorted())

print(String(format: "start-up, %d rounds of %d interleaved starts each (ratio of medians per round: lowest / median / highest)", rounds, starts))
var over = 0
for (name, argv) in commands {
    var ratios: [Double] = [], toolTimes: [Double] = [], helloTimes: [Double] = []
    for _ in 0..<rounds {
        var t: [Double] = [], h: [Double] = []
        for _ in 0..<starts {
            h.append(Bench.spawnWall([hello]))
            t.append(Bench.spawnWall(argv))
        }
        ratios.append(Bench.median(t) / Bench.median(h))
        toolTimes.append(Bench.median(t)); helloTimes.append(Bench.median(h))
    }
    let mid = Bench.median(ratios)
    if mid > 2 { over += 1 }
    let label = name.count < 18 ? name + String(repeating: " ", count: 18 - name.count) : name
    print("  " + label + String(format: " %.2f ms, C hello %.2f ms: %.2fx / %.2fx / %.2fx (target <= 2x)",
                                Bench.median(toolTimes) * 1000, Bench.median(helloTimes) * 1000,
                                ratios.min() ?? .nan, mid, ratios.max() ?? .nan) + (mid > 2 ? "  OVER" : ""))
}
print(over == 0 ? "every query tool starts within 2x a C hello-world (median round)" : "\(over) tool(s) over 2x")
