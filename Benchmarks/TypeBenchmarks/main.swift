// Type-engine benchmarks: our registry against GLib's content types in the same run, `uti`
// process start-up against a C hello-world, `gio mime` and `xdg-mime`, registry rebuild time and
// query memory, with the catalog, 1,000 generated apps and this machine's shared MIME database;
// content typing (name + data, data only) against `g_content_type_guess` on the same files.
//
//   swift run -c release TypeBenchmarks [--starts N] [--rounds N]
//
// Needs gcc, pkg-config, libglib2.0-dev, libglib2.0-bin (gio), xdg-utils, shared-mime-info.
import AppRegistry
import BenchmarkSupport
import Foundation
import PropertyLists
import UniformTypeIdentifiers
import UniformTypes

let arguments = CommandLine.arguments
let option = Bench.option
let starts = option("--starts", 300)
let rounds = option("--rounds", 5)

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let peers = root.deletingLastPathComponent().appendingPathComponent("shared/peers/mime")
let work = root.appendingPathComponent(".build/bench-types")
let products = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)

@discardableResult func shell(_ command: String) -> (status: Int32, out: String) { Bench.shell(command) }
let median = Bench.median
func clock(_ id: clockid_t) -> Double { Bench.clock(id) }

// 1. A device root with the catalog and 1,000 apps, each exporting three types and claiming documents.
let device = DeviceRoot(path: work.appendingPathComponent("device").path)
let catalog = root.appendingPathComponent("UTIs").path
if !FileManager.default.fileExists(atPath: device.appsDirectory + "/App0999.app/Info.plist") {
    for i in 0..<1000 {
        let dir = "\(device.appsDirectory)/App\(String(format: "%04d", i)).app"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let declarations: [PropertyList] = (0..<3).map { j in
            .dictionary([
                "UTTypeIdentifier": .string("com.example.app\(i).type\(j)"),
                "UTTypeConformsTo": .array(j == 0 ? [.string("public.data"), .string("public.content")] : [.string("com.example.app\(i).type0")]),
                "UTTypeDescription": .string("App \(i) document \(j)"),
                "UTTypeTagSpecification": .dictionary(["public.filename-extension": .array([.string("a\(i)t\(j)")]),
                                                       "public.mime-type": .array([.string("application/x-app\(i)-\(j)")])]),
            ])
        }
        let plist: PropertyList = .dictionary([
            "CFBundleIdentifier": .string("com.example.app\(i)"),
            "UTExportedTypeDeclarations": .array(declarations),
            "CFBundleDocumentTypes": .array([.dictionary(["CFBundleTypeRole": .string("Editor"),
                "LSItemContentTypes": .array([.string("com.example.app\(i).type0"), .string("public.plain-text")])])]),
        ])
        try Data(BinaryPropertyListWriter().write(plist)).write(to: URL(fileURLWithPath: dir + "/Info.plist"))
    }
}

// 2. Rebuild time.
var rebuilds: [Double] = []
for _ in 0..<5 {
    let t0 = clock(CLOCK_MONOTONIC)
    _ = try RegistryStore.rebuild(root: device, catalog: catalog)
    rebuilds.append(clock(CLOCK_MONOTONIC) - t0)
}
let registry = try RegistryStore.open(root: device, catalog: catalog)
print("registry: \(registry.typeCount) types from the catalog, 1,000 apps and the shared MIME database (\(SharedMIMEDatabase.mimeDirectories().joined(separator: ", "))); \(try FileManager.default.attributesOfItem(atPath: device.registryFile)[.size]!) bytes")
print(String(format: "rebuild (read every plist, compile, write, rename): median %.1f ms of 5 (target <= 500 ms)", median(rebuilds) * 1000))

// 3. GLib peer: conformance and guess-by-name, in its own process.
shell("python3 '\(peers.path)/make_corpus.py' '\(work.path)/corpus' 200 > /dev/null")
let builtGIO = shell("gcc -O2 -o '\(work.path)/gio_bench' '\(peers.path)/gio_bench.c' $(pkg-config --cflags --libs gio-2.0 gio-unix-2.0) 2>&1").status == 0
@MainActor func gioRates() -> [String: Double] {
    var rates: [String: Double] = [:]
    for line in shell("'\(work.path)/gio_bench' '\(work.path)/corpus'").out.split(separator: "\n") {
        let parts = line.split(separator: " ")
        if parts.count >= 2, let v = Double(parts[1]) { rates[String(parts[0])] = v }
    }
    return rates
}

// Our workload: 200,000 pairs, half a type and one of its supertypes, half random.
var generator = SystemRandomNumberGenerator()
let count = registry.typeCount
var pairs: [(TypeRegistry.TypeID, TypeRegistry.TypeID)] = []
for i in 0..<200_000 {
    let a = TypeRegistry.TypeID(Int.random(in: 0..<count, using: &generator))
    let supers = registry.supertypes(of: a)
    let b = i % 2 == 0 && !supers.isEmpty ? supers.randomElement(using: &generator)! : TypeRegistry.TypeID(Int.random(in: 0..<count, using: &generator))
    pairs.append((a, b))
}
let names = (try? String(contentsOfFile: work.path + "/corpus/names.txt", encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
let extensions = names.map { FileTypeDetector.filenameExtension(of: $0) ?? "" }

@MainActor func ourConformsRate() -> Double {
    var hits = 0, ops = 0
    let r = registry, work = pairs   // locals: no global access in the loop, as in the C peer
    let c0 = clock(CLOCK_THREAD_CPUTIME_ID)
    while clock(CLOCK_THREAD_CPUTIME_ID) - c0 < 1 {
        work.withUnsafeBufferPointer { buffer in
            for (a, b) in buffer where r.conforms(a, to: b) { hits += 1 }
        }
        ops += work.count
    }
    precondition(hits > 0)
    return Double(ops) / (clock(CLOCK_THREAD_CPUTIME_ID) - c0)
}
// Content typing: the peer's files (64 B to 4 KiB, read once), name + data and data only.
let sniffFiles: [(name: String, data: [UInt8])] = ((try? FileManager.default.contentsOfDirectory(atPath: work.path + "/corpus/files")) ?? []).sorted().map {
    let path = work.path + "/corpus/files/" + $0
    return (path, Array(((try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()).prefix(4096)))
}
@MainActor func ourGuessRate(withName: Bool) -> Double {
    var ops = 0, named = 0
    let detector = FileTypeDetector(registry: registry), files = sniffFiles
    let c0 = clock(CLOCK_THREAD_CPUTIME_ID)
    while clock(CLOCK_THREAD_CPUTIME_ID) - c0 < 1 {
        for f in files {
            let answer = f.data.withUnsafeBytes { detector.guess(name: withName ? f.name : nil, content: $0) }
            if answer.matchedMIMEType != nil { named += 1 }
        }
        ops += files.count
    }
    precondition(named > 0 || files.isEmpty)
    return Double(ops) / (clock(CLOCK_THREAD_CPUTIME_ID) - c0)
}

@MainActor func ourExtensionRate() -> Double {
    var ops = 0, found = 0
    let data = UTType("public.data", in: registry)
    let c0 = clock(CLOCK_THREAD_CPUTIME_ID)
    while clock(CLOCK_THREAD_CPUTIME_ID) - c0 < 1 {
        for ext in extensions { if UTType(filenameExtension: ext, conformingTo: data, in: registry)?.isDeclared == true { found += 1 } }
        ops += extensions.count
    }
    precondition(found > 0)
    return Double(ops) / (clock(CLOCK_THREAD_CPUTIME_ID) - c0)
}

/// Apple's API: `UTType(filenameExtension:)` without a registry, answered by the default registry
/// (a lock and a clock read per call on top of the value lookup).
@MainActor func appleExtensionRate() -> Double {
    var ops = 0, found = 0
    let c0 = clock(CLOCK_THREAD_CPUTIME_ID)
    while clock(CLOCK_THREAD_CPUTIME_ID) - c0 < 1 {
        for ext in extensions { if UTType(filenameExtension: ext)?.isDeclared == true { found += 1 } }
        ops += extensions.count
    }
    precondition(found > 0)
    return Double(ops) / (clock(CLOCK_THREAD_CPUTIME_ID) - c0)
}

/// The engine's own lookup, which answers a type number (no UTType value is built).
@MainActor func ourEngineExtensionRate() -> Double {
    var ops = 0, found = 0
    let r = registry, names = extensions
    let data = r.publicData
    let c0 = clock(CLOCK_THREAD_CPUTIME_ID)
    while clock(CLOCK_THREAD_CPUTIME_ID) - c0 < 1 {
        for ext in names where r.firstType(tag: ext, tagClass: .filenameExtension, conformingTo: data) != nil { found += 1 }
        ops += extensions.count
    }
    precondition(found > 0)
    return Double(ops) / (clock(CLOCK_THREAD_CPUTIME_ID) - c0)
}

DefaultTypeRegistry.use(root: device, catalog: catalog)

// `--profile conforms|extension|engine|apple`: only that loop, for `perf record`.
if let i = arguments.firstIndex(of: "--profile"), i + 1 < arguments.count {
    let loop: @MainActor () -> Double = switch arguments[i + 1] {
    case "conforms": ourConformsRate
    case "engine": ourEngineExtensionRate
    case "apple": appleExtensionRate
    default: ourExtensionRate
    }
    for _ in 0..<5 { _ = loop() }
    exit(0)
}

var conformsRatios: [Double] = [], extensionRatios: [Double] = [], engineRatios: [Double] = [], appleRatios: [Double] = []
var guessRatios: [Double] = [], dataRatios: [Double] = []
var lastOurs = (0.0, 0.0, 0.0, 0.0), lastGIO: [String: Double] = [:], lastGuess = (0.0, 0.0)
for _ in 0..<rounds {
    let ours = (ourConformsRate(), ourExtensionRate(), ourEngineExtensionRate(), appleExtensionRate())
    let guess = (ourGuessRate(withName: true), ourGuessRate(withName: false))
    guard builtGIO else { break }
    let gio = gioRates()
    if let g = gio["is_a_mixed_pairs_per_cpu_s"] { conformsRatios.append(ours.0 / g) }
    if let g = gio["guess_by_name_per_cpu_s"] {
        extensionRatios.append(ours.1 / g); engineRatios.append(ours.2 / g); appleRatios.append(ours.3 / g)
    }
    if let g = gio["guess_name_plus_data_preloaded_per_cpu_s"] { guessRatios.append(guess.0 / g) }
    if let g = gio["guess_data_only_preloaded_per_cpu_s"] { dataRatios.append(guess.1 / g) }
    lastOurs = ours
    lastGIO = gio
    lastGuess = guess
}
print(String(format: "conformance: ours %.1f M/s, g_content_type_is_a %.2f M/s: %.0fx (median of %d rounds; target >= 50x)",
             lastOurs.0 / 1e6, (lastGIO["is_a_mixed_pairs_per_cpu_s"] ?? .nan) / 1e6, median(conformsRatios), conformsRatios.count))
let declaredShare = Double(extensions.filter { registry.firstType(tag: $0, tagClass: .filenameExtension, conformingTo: registry.publicData) != nil }.count) / Double(max(extensions.count, 1))
print(String(format: "type for an extension (%d names from shared-mime-info's globs, %.0f%% claimed by a declared type here):", extensions.count, declaredShare * 100))
print(String(format: "  engine lookup (type number): ours %.2f M/s, g_content_type_guess (name) %.2f M/s: %.1fx (target >= 10x)",
             lastOurs.2 / 1e6, (lastGIO["guess_by_name_per_cpu_s"] ?? .nan) / 1e6, median(engineRatios)))
print(String(format: "  UTType(filenameExtension:, in: registry) value: ours %.2f M/s: %.1fx", lastOurs.1 / 1e6, median(extensionRatios)))
print(String(format: "  UTType(filenameExtension:) (Apple's API, default registry): ours %.2f M/s: %.1fx", lastOurs.3 / 1e6, median(appleRatios)))
print(String(format: "content typing (%d files of 64 B-4 KiB): name + data ours %.0f k/s, g_content_type_guess %.0f k/s: %.1fx; data only ours %.0f k/s, GIO %.0f k/s: %.1fx",
             sniffFiles.count, lastGuess.0 / 1e3, (lastGIO["guess_name_plus_data_preloaded_per_cpu_s"] ?? .nan) / 1e3, median(guessRatios),
             lastGuess.1 / 1e3, (lastGIO["guess_data_only_preloaded_per_cpu_s"] ?? .nan) / 1e3, median(dataRatios)))

// 4. Process start: interleaved spawns, medians.
let spawnWall = Bench.spawnWall
let helloPath = Bench.helloWorld(in: work.path)
let uti = products.appendingPathComponent("uti").path
Bench.settle([uti])
let gioPath = shell("command -v gio").out.trimmingCharacters(in: .whitespacesAndNewlines)
let xdgMime = shell("command -v xdg-mime").out.trimmingCharacters(in: .whitespacesAndNewlines)
_ = FileManager.default.createFile(atPath: work.path + "/sample.txt", contents: Data("hello\n".utf8))
var c: [Double] = [], ours: [Double] = [], gioTimes: [Double] = [], xdgTimes: [Double] = []
for i in 0..<starts {
    c.append(spawnWall([helloPath]))
    ours.append(spawnWall([uti, "--root", device.path, "conforms", "public.png", "public.data"]))
    if !gioPath.isEmpty, i % 5 == 0 { gioTimes.append(spawnWall([gioPath, "mime", "text/plain"])) }
    if !xdgMime.isEmpty, i % 10 == 0 { xdgTimes.append(spawnWall([xdgMime, "query", "filetype", work.path + "/sample.txt"])) }
}
print(String(format: "uti conforms public.png public.data (catalog + 1,000 apps): %.2f ms; C hello %.2f ms: %.2fx C (target <= 2x)",
             median(ours) * 1000, median(c) * 1000, median(ours) / median(c)))
if !gioTimes.isEmpty { print(String(format: "gio mime text/plain %.2f ms: uti is %.1fx faster", median(gioTimes) * 1000, median(gioTimes) / median(ours))) }
if !xdgTimes.isEmpty { print(String(format: "xdg-mime query filetype %.2f ms: uti is %.1fx faster", median(xdgTimes) * 1000, median(xdgTimes) / median(ours))) }

// 5. Memory of a query process against a hello-world.
func maxRSS(_ command: String) -> Double {
    Double(shell("/usr/bin/time -f %M \(command) 2>&1 >/dev/null").out.split(separator: "\n").last.map(String.init) ?? "") ?? .nan
}
let rssOurs = median((0..<5).map { _ in maxRSS("'\(uti)' --root '\(device.path)' conforms public.png public.data") })
let rssHello = median((0..<5).map { _ in maxRSS("'\(helloPath)'") })
print(String(format: "query process peak memory %.1f MB, C hello %.1f MB: %.1f MB more (target <= 10 MB)",
             rssOurs / 1024, rssHello / 1024, (rssOurs - rssHello) / 1024))
