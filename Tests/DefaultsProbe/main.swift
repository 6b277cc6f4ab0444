// A process that writes, reads or observes one shared-defaults suite, for the tests and the
// benchmark that need real processes. Every mode takes FOLDER SUITE first (the suite's files are
// FOLDER/SUITE.plist…). Times are CLOCK_MONOTONIC nanoseconds, comparable across processes.
//
//   write FOLDER SUITE ME K         set K keys kME_1…kME_K (value i); exit without synchronize()
//   hammer FOLDER SUITE ME START    for i = START… forever: set wME_(i % 512) = i, then print "i"
//                                   (the acknowledgement); every 256 sets, synchronize() (a
//                                   merge, which a kill may interrupt); until killed
//   tick FOLDER SUITE N GAP_US      set "tick" = the time of the set, N times, GAP_US apart
//   poll FOLDER SUITE N             read "tick" in a loop (no other call) until N new values were
//                                   seen; print the median and p90 of (seen - set) in µs
//   observe FOLDER SUITE N          the same through observe(): woken, not polling
//   set-latency FOLDER SUITE N      time N sets in this process: median, p90, p99 in µs
//   read-latency FOLDER SUITE N     time N reads of an unchanged suite: median in ns
//   quiet-reads FOLDER SUITE N CHANGE  read every key N times between the lines "begin" and
//                                   "end" (for strace); with CHANGE 1 another object of this
//                                   process sets a key right after "begin"
//   tally FOLDER SUITE P K          how many of the P×K keys of `write` are missing
//   dump FOLDER SUITE               every key and value, sorted, one a line
//   merge FOLDER SUITE              synchronize(), timed in ms; exit 1 when it fails
//   suite-name SUITE KEY VALUE      (no FOLDER) SharedDefaults(suiteName:) as a launched app
import PropertyLists
import SharedDefaults
import SystemCalls

let arguments = Array(CommandLine.arguments.dropFirst())
// suite-name SUITE KEY VALUE: as an app started by the launcher (its environment names the app
// and the root), SharedDefaults(suiteName:) with nothing else; set KEY, synchronize, print "set",
// or "nil" when the initializer gives none.
if arguments.first == "suite-name", arguments.count == 4 {
    guard let suite = SharedDefaults(suiteName: arguments[1]) else { print("nil"); CurrentProcess.exit(0) }
    suite.set(arguments[3], forKey: arguments[2])
    _ = suite.synchronize()
    print("set")
    CurrentProcess.exit(0)
}
guard arguments.count >= 3 else {
    print("usage: defaults-probe MODE FOLDER SUITE …")
    CurrentProcess.exit(2)
}
let defaults: SharedDefaults
do {
    defaults = SharedDefaults(location: try DefaultsLocation(suite: arguments[2], folder: arguments[1]))
} catch {
    print("defaults-probe: \(error)")
    CurrentProcess.exit(2)
}
func number(_ i: Int) -> Int { Int(arguments[i])! }
@Sendable func nanoseconds() -> Int64 { Int64(Clock.monotonic() * 1e9) }
func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}
func say(_ line: String) {
    var bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeMutableBytes { FileDescriptorOutput.write($0) }
}

switch arguments[0] {
case "write":
    let me = number(3), k = number(4)
    for i in 1...k { defaults.set(.integer(Int64(i)), forKey: "k\(me)_\(i)") }
    if let error = defaults.lastError { say("error: \(error)"); CurrentProcess.exit(1) }
case "hammer":
    let me = number(3)
    var i = number(4)
    while true {
        do { try defaults.save(.integer(Int64(i)), forKey: "w\(me)_\(i % 512)") } catch {
            say("error: \(error)")
            CurrentProcess.exit(1)
        }
        say(String(i))
        if i % 256 == 0, !defaults.synchronize() { say("error: \(defaults.lastError.map { "\($0)" } ?? "merge failed")") }
        i += 1
    }
case "tick":
    let n = number(3), gap = Double(number(4)) / 1e6
    for _ in 0..<n {
        defaults.set(.integer(nanoseconds()), forKey: "tick")
        Clock.sleep(gap)
    }
case "poll":
    let n = number(3)
    var last = defaults.object(forKey: "tick")
    var latencies: [Double] = []
    let deadline = Clock.monotonic() + 60
    while latencies.count < n && Clock.monotonic() < deadline {
        let now = defaults.object(forKey: "tick")
        if now != last, case .integer(let sent)? = now {
            latencies.append(Double(nanoseconds() - sent) / 1e3)
            last = now
        }
    }
    say("poll seen \(latencies.count) median \(percentile(latencies, 0.5)) p90 \(percentile(latencies, 0.9)) us")
case "observe":
    let n = number(3)
    let seen = Latencies()
    let observation: DefaultsObservation
    do {
        observation = try defaults.observe { change in
            guard change.keys.contains("tick"), case .integer(let sent)? = defaults.object(forKey: "tick") else { return }
            seen.add(Double(nanoseconds() - sent) / 1e3)
        }
    } catch {
        say("error: \(error)")
        CurrentProcess.exit(1)
    }
    say("ready")
    let deadline = Clock.monotonic() + 60
    while seen.count < n && Clock.monotonic() < deadline { Clock.sleep(0.001) }
    observation.cancel()
    let values = seen.values
    say("observe seen \(values.count) median \(percentile(values, 0.5)) p90 \(percentile(values, 0.9)) us")
case "set-latency":
    let n = number(3)
    var times: [Double] = []
    times.reserveCapacity(n)
    for i in 0..<n {
        let start = nanoseconds()
        defaults.set(.integer(Int64(i)), forKey: "latency\(i % 64)")
        times.append(Double(nanoseconds() - start) / 1e3)
    }
    say("set median \(percentile(times, 0.5)) p90 \(percentile(times, 0.9)) p99 \(percentile(times, 0.99)) us")
case "read-latency":
    let n = number(3)
    defaults.set(.integer(1), forKey: "read")
    _ = defaults.synchronize()
    _ = defaults.object(forKey: "read")
    let start = nanoseconds()
    var found = 0
    for _ in 0..<n where defaults.object(forKey: "read") != nil { found += 1 }
    say("read median \(Double(nanoseconds() - start) / Double(n)) ns (\(found) found)")
case "quiet-reads":
    let n = number(3)
    let keys = Array(defaults.persistentDomain().keys)
    say("begin")
    if number(4) == 1, let other = try? DefaultsLocation(suite: arguments[2], folder: arguments[1]) {
        SharedDefaults(location: other).set(.integer(Int64(n)), forKey: "changed")
    }
    var found = 0
    for _ in 0..<n { for key in keys where defaults.object(forKey: key) != nil { found += 1 } }
    say("end")
    say("found \(found)")
case "tally":
    let p = number(3), k = number(4)
    var missing = 0
    for w in 0..<p { for i in 1...k where defaults.object(forKey: "k\(w)_\(i)") != .integer(Int64(i)) { missing += 1 } }
    say("missing \(missing) of \(p * k)")
case "dump":
    for (key, value) in defaults.persistentDomain().sorted(by: { $0.key < $1.key }) { say("\(key)=\(value)") }
case "merge":
    let start = nanoseconds()
    let merged = defaults.synchronize()
    say("merge ms \(Double(nanoseconds() - start) / 1e6)")
    if !merged { say("error: \(defaults.lastError.map { "\($0)" } ?? "unknown")"); CurrentProcess.exit(1) }
default:
    say("unknown mode \(arguments[0])")
    CurrentProcess.exit(2)
}
CurrentProcess.exit(0)
