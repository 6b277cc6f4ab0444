// Multicast DNS from inside a lab host, for MulticastDNSTests (Fixtures/mdns-lab.sh runs it with
// `lab.sh exec hN`). One JSON object a line on standard output, with the wall-clock time, so the
// script can compare times across processes:
//   mdns-probe publish --interface eth0 --type T --name N --port P --host-label L [--txt k=v]…
//                      [--update-after S --update-txt k=v…] [--duration S]
//       publishes until SIGTERM/SIGINT or the duration ends, then says goodbye
//   mdns-probe browse --interface eth0 --type T [--duration S]     every event until then
//   mdns-probe lookup --interface eth0 --type T --timeout S        one-shot browse, one line
//   mdns-probe first --interface eth0 --type T --timeout S         browses until the first
//       addition and stops the browser from inside that event's callback; "first", then "done"
//   every command takes --backend automatic|avahi|built-in (default built-in); publish
//   and browse say which one runs ("backend", "fallback") at the start and whenever it or the
//   published names change (checked every 20 ms)
//   mdns-probe churn --interface eth0 --times N                    starts and stops a responder
//       and a browser N times; the descriptors and threads before and after
import MulticastDNS
import Synchronization
import SystemCalls
#if canImport(Glibc)
import Glibc
#endif

func json(_ fields: [(String, String)]) -> String {
    "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
}

func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        default:
            if scalar.value < 0x20 { out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16) } else { out.unicodeScalars.append(scalar) }
        }
    }
    return out + "\""
}

func emit(_ fields: [(String, String)]) {
    print(json([("time", String(Clock.system.now()))] + fields))
    fflush(nil)
}

func describe(_ service: ResolvedService) -> [(String, String)] {
    [("name", quoted(service.name)), ("type", quoted(service.type.description)), ("host", quoted(service.host.description)),
     ("port", String(service.port)), ("interface", quoted(service.interface)),
     ("addresses", "[" + service.addresses.map { quoted($0.description) }.joined(separator: ",") + "]"),
     ("txt", "{" + service.txt.dictionary.sorted { $0.key < $1.key }.map { "\(quoted($0.key)):\(quoted($0.value))" }.joined(separator: ",") + "}")]
}

func fail(_ message: String) -> Never {
    emit([("event", quoted("error")), ("message", quoted(message))])
    exit(1)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else { fail("usage: mdns-probe publish|browse|lookup|churn --interface NAME …") }
let options: [String: [String]] = {
    var parsed: [String: [String]] = [:]
    var index = 1
    while index < arguments.count {
        let key = arguments[index]
        guard key.hasPrefix("--"), index + 1 < arguments.count else { fail("expected --option value at \(key)") }
        parsed[String(key.dropFirst(2)), default: []].append(arguments[index + 1])
        index += 2
    }
    return parsed
}()
func option(_ name: String) -> String? { options[name]?.last }
let interfaces = options["interface"]
let type = option("type") ?? "_di-nearby._tcp"
let duration = option("duration").flatMap(Double.init)
// Built-in unless asked: the lab tests of the built-in engine must not reach a daemon on the
// machine's own system bus (which would publish on the machine's network).
let backend: DiscoveryBackend = switch option("backend") {
case nil, "built-in": .builtIn
case "automatic": .automatic
case "avahi": .avahi
case let other?: fail("unknown backend \(other): automatic, avahi or built-in")
}

func txt(_ values: [String]) throws -> TXTRecord {
    try TXTRecord(values.map { pair in
        let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
        return (key: parts[0], value: parts.count > 1 ? parts[1] : nil)
    })
}

/// Waits for SIGTERM or SIGINT (blocked before any thread starts, so no thread takes them) or
/// `seconds`, whichever comes first.
func waitForTermination(_ signals: SignalDescriptor, _ seconds: Double?) {
    _ = try? Poll.readable([signals.descriptor], timeout: seconds)
}

/// Like waitForTermination, and meanwhile emits a "backend" line whenever `state` changes.
func watch(_ signals: SignalDescriptor, _ seconds: Double?, _ last: inout [(String, String)], _ state: () -> [(String, String)]) -> Bool {
    let end = seconds.map { Clock.monotonic() + $0 }
    while true {
        let now = state()
        if now.map({ $0.0 + "=" + $0.1 }) != last.map({ $0.0 + "=" + $0.1 }) {
            emit([("event", quoted("backend"))] + now)
            last = now
        }
        let slice = min(0.02, end.map { max(0, $0 - Clock.monotonic()) } ?? 0.02)
        if (try? Poll.readable([signals.descriptor], timeout: slice))?.first == true { return true }
        if let end, Clock.monotonic() >= end { return false }
    }
}

func responderState(_ responder: MulticastResponder) -> [(String, String)] {
    [("backend", quoted(responder.backend.description)), ("fallback", responder.fallbackReason.map(quoted) ?? "null"),
     ("names", "[" + responder.instances.map { quoted($0.name) }.joined(separator: ",") + "]"),
     ("problem", responder.problem.map(quoted) ?? "null")]
}

func descriptorsAndThreads() -> (Int, Int) {
    // The folder's own descriptor is counted both times.
    let fds = (try? OwnedDescriptor.openFolder("/proc/self/fd").entryNames())?.count ?? -1
    let tasks = (try? OwnedDescriptor.openFolder("/proc/self/task").entryNames())?.count ?? -1
    return (fds, tasks)
}

do throws(MulticastDNSError) {
    let signals: SignalDescriptor
    do { signals = try SignalDescriptor(SignalDescriptor.termination) } catch { throw .system(error) }
    switch command {
    case "publish":
        guard let name = option("name"), let port = option("port").flatMap(UInt16.init), let host = option("host-label") else {
            fail("publish needs --name, --port and --host-label")
        }
        let instance: ServiceInstance
        do { instance = try ServiceInstance(name: name, type: type, port: port, txt: try txt(options["txt"] ?? []), hostLabel: host) }
        catch let error as MulticastDNSError { throw error } catch { fail("\(error)") }
        let start = Clock.system.now()
        let responder = try MulticastResponder(instances: [instance], interfaces: interfaces, backend: backend)
        var last = responderState(responder)
        emit([("event", quoted("started")), ("since", String(start)), ("interfaces", "[" + responder.interfaces.map(quoted).joined(separator: ",") + "]")] + last)
        var terminated = false
        if let after = option("update-after").flatMap(Double.init) {
            terminated = watch(signals, after, &last) { responderState(responder) }
            let updated: ServiceInstance
            do { updated = try ServiceInstance(name: name, type: type, port: port, txt: try txt(options["update-txt"] ?? []), hostLabel: host) }
            catch let error as MulticastDNSError { throw error } catch { fail("\(error)") }
            responder.update([updated])
            emit([("event", quoted("updated"))])
        }
        if !terminated { _ = watch(signals, duration, &last) { responderState(responder) } }
        responder.stop()
        emit([("event", quoted("stopped"))])
    case "browse":
        let start = Clock.system.now()
        let browser = try MulticastBrowser(type: type, interfaces: interfaces, backend: backend) { event in
            let kind = switch event { case .added: "added"; case .updated: "updated"; case .removed: "removed" }
            emit([("event", quoted(kind))] + describe(event.service))
        }
        let state = { [("backend", quoted(browser.backend.description)), ("fallback", browser.fallbackReason.map(quoted) ?? "null")] }
        var last = state()
        emit([("event", quoted("browsing")), ("since", String(start))] + last)
        _ = watch(signals, duration, &last, state)
        browser.stop()
        emit([("event", quoted("stopped"))])
    case "lookup":
        let found = try MulticastBrowser.browse(type: type, interfaces: interfaces, timeout: option("timeout").flatMap(Double.init) ?? 1, backend: backend)
        emit([("event", quoted("found")), ("services", "[" + found.map { json(describe($0)) }.joined(separator: ",") + "]")])
    case "first":
        // The browser, for its own callback to stop (set before any instance is published).
        let slot = Mutex<MulticastBrowser?>(nil)
        let stopped = Mutex(false)
        let browser = try MulticastBrowser(type: type, interfaces: interfaces, backend: backend) { event in
            guard case .added(let service) = event, let browser = slot.withLock({ $0 }) else { return }
            browser.stop()
            stopped.withLock { $0 = true }
            emit([("event", quoted("first"))] + describe(service))
        }
        slot.withLock { $0 = browser }
        emit([("event", quoted("browsing")), ("backend", quoted(browser.backend.description))])
        let end = Clock.monotonic() + (option("timeout").flatMap(Double.init) ?? 5)
        while !stopped.withLock({ $0 }) && Clock.monotonic() < end { Clock.sleep(0.01) }
        let inCallback = stopped.withLock { $0 }
        browser.stop()
        slot.withLock { $0 = nil }
        emit([("event", quoted("done")), ("stopped_in_callback", String(inCallback))])
    case "churn":
        let times = option("times").flatMap(Int.init) ?? 20
        let instance = try ServiceInstance(name: "churn", type: type, port: 9, hostLabel: "churn")
        let before = descriptorsAndThreads()
        for _ in 0..<times {
            let responder = try MulticastResponder(instances: [instance], interfaces: interfaces, backend: backend)
            let browser = try MulticastBrowser(type: type, interfaces: interfaces, backend: backend)
            browser.stop()
            responder.stop()
        }
        // A detached thread may still be between its last line and its exit for a moment.
        var after = descriptorsAndThreads()
        for _ in 0..<100 where after != before {
            Clock.sleep(0.01)
            after = descriptorsAndThreads()
        }
        emit([("event", quoted("churned")), ("times", String(times)), ("fds_before", String(before.0)), ("fds_after", String(after.0)),
              ("threads_before", String(before.1)), ("threads_after", String(after.1))])
    default:
        fail("unknown command \(command)")
    }
} catch {
    fail(error.description)
}
