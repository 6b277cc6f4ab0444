import Notifications
import Synchronization
import SystemCalls
import ToolSupport

/// Runs notifyutil's commands in order, then reports notifications until every counted
/// registration is done. Deliveries reach the main thread through a pipe, so lines are printed
/// in one place and in order.
struct NotifyutilRun {
    var command: NotifyutilCommandLine
    let center = NotifyCenter.shared

    /// What kind of registration -w and -# make.
    enum RegistrationType: String, Sendable, Hashable {
        case port, file, check, signal, dispatch, plain
    }

    /// A registration being reported.
    struct Watch {
        var name: String
        var type: RegistrationType
        var signal: Int32
        /// Posts still to report; `nil` for -w (no end).
        var remaining: Int?
    }

    func run() -> Int32 {
        let meaning = Dictionary(notifyutilOptions.map { ($0.option.name, $0.command) }, uniquingKeysWith: { first, _ in first })
        let commands = command.sequence.compactMap { given in meaning[given.name].map { ($0, given.values) } }
        let quiet = commands.contains { $0.0 == .quiet }
        let verbose = commands.contains { $0.0 == .verbose }
        let pause = Double(commands.last { $0.0 == .pause }.flatMap { Int($0.1.first ?? "") } ?? 100) / 1000
        var type = RegistrationType.port
        var signal: Int32 = 1
        var watches: [Int32: Watch] = [:]
        var fileDescriptor: Int32?
        let wakes: Pipe
        do { wakes = try Pipe() } catch { Output.error("notifyutil: \(error)"); return 1 }
        let writer = wakes.write
        // Signals are blocked before any thread starts (the center's delivery thread inherits
        // the mask), so that a delivered signal is read from the descriptor, never its default
        // action.
        var blocked: [Int32] = []
        for (kind, values) in commands where kind == .registrationType(.signal) { blocked.append(values.first.flatMap(Int32.init) ?? 1) }
        let signalSource = blocked.isEmpty ? nil : try? SignalDescriptor(Array(Set(blocked)))
        // A state that is not a number is a usage error, found before anything is done.
        for (kind, values) in commands where kind == .setState && (values.count != 2 || Int64(values[1]) == nil) {
            Output.error("notifyutil: the value following -s \(Self.shown(values.first ?? "")) must be a 64-bit integer, not '\(Self.shown(values.last ?? ""))'")
            return 1
        }
        var held: [NotificationToken] = []
        defer { for token in held { try? center.cancel(token) } }
        for (kind, values) in commands {
            let key = values.first ?? ""
            switch kind {
            case .quiet, .verbose, .pause, .accepted:
                continue
            case .registrationType(let chosen):
                type = chosen
                if chosen == .signal, let number = values.first.flatMap(Int32.init) { signal = number }
            case .post:
                do {
                    try center.post(key)
                    if pause > 0 { Clock.sleep(pause) }
                } catch { Output.line("\(Self.shown(key)): \(Self.reason(error))") }
            case .watch, .watchCount:
                let name = kind == .watchCount ? (values.count > 1 ? values[1] : key) : key
                let count = kind == .watchCount ? Int(key) : nil
                if watches.values.contains(where: { $0.name == name }) {
                    Output.error("Already watching for \(name)")
                    continue
                }
                do {
                    let token: NotificationToken
                    switch type {
                    case .port, .dispatch:
                        token = try center.register(name) { token in
                            let bigEndian = UInt32(bitPattern: token.rawValue).bigEndian
                            _ = try? withUnsafeBytes(of: bigEndian) { try writer.writeAll($0) }
                        }
                    case .file:
                        let made = try center.registerFileDescriptor(name, reusing: fileDescriptor)
                        fileDescriptor = made.descriptor
                        token = made.token
                    case .check, .plain:
                        token = try type == .check ? center.registerCheck(name) : center.registerPlain(name)
                        _ = try center.check(token)
                    case .signal:
                        token = try center.registerSignal(name, signal: signal)
                        _ = try center.check(token)
                    }
                    if count == 0 { try? center.cancel(token); continue }
                    watches[token.rawValue] = Watch(name: name, type: type, signal: signal, remaining: count)
                } catch {
                    Output.line("\(Self.shown(name)): \(Self.reason(error))")
                }
            case .getState:
                do {
                    let token = try center.registerPlain(key)
                    let value = try center.state(of: token)
                    try center.cancel(token)
                    Output.line("\(key) \(value)")
                } catch { Output.line("\(Self.shown(key)): \(Self.reason(error))") }
            case .setState:
                guard values.count == 2, let number = Int64(values[1]) else { continue }
                do {
                    // Kept until notifyutil exits, as on macOS: a name's state lives while a
                    // registration holds it, so a later -g of this run reads it back.
                    let token = try center.registerPlain(key)
                    try center.setState(UInt64(bitPattern: number), for: token)
                    held.append(token)
                } catch { Output.line("\(Self.shown(key)): \(Self.reason(error))") }
            }
        }
        if watches.isEmpty { return 0 }
        return report(&watches, wakes: wakes.read, fileDescriptor: fileDescriptor, signalSource: signalSource, quiet: quiet, verbose: verbose)
    }

    /// A name as a message shows it: control characters escaped, and at most 64 characters
    /// (a 100 KB name is not echoed back).
    static func shown(_ name: String) -> String {
        let escaped = TerminalText.escaped(name)
        return escaped.count <= 64 ? escaped : String(escaped.prefix(64)) + "… (\(name.utf8.count) bytes)"
    }

    /// macOS's status word (`Invalid Name`), and the rule broken when the name is the problem.
    static func reason(_ error: NotificationError) -> String {
        if case .invalidName(_, let why) = error { return "\(error.status) (\(why); a name is at most \(NotificationName.maximumLength) bytes, without NUL)" }
        return "\(error.status)"
    }

    /// Waits for deliveries and prints them until every counted registration is done.
    private func report(_ watches: inout [Int32: Watch], wakes: OwnedDescriptor, fileDescriptor: Int32?, signalSource: SignalDescriptor?,
                        quiet: Bool, verbose: Bool) -> Int32 {
        let polled = watches.values.contains { $0.type == .check || $0.type == .plain }
        var sources = [wakes]
        if let signalSource { sources.append(signalSource.descriptor) }
        let fileSource = fileDescriptor.flatMap(center.readEnd(of:))
        if let fileSource { sources.append(fileSource) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)
        defer { buffer.deallocate() }
        while watches.values.contains(where: { $0.remaining != 0 }) {
            let ready = (try? Poll.readable(sources, timeout: polled ? 0.1 : nil)) ?? []
            var fired: [Int32] = []
            for (index, source) in sources.enumerated() where index < ready.count && ready[index] {
                if let signalSource, source === signalSource.descriptor {
                    _ = try? source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<128]))
                    if !quiet { Output.line("SIGNAL") }
                    for (token, watch) in watches where watch.type == .signal {
                        if (try? center.check(NotificationToken(rawValue: token))) == true { fired.append(token) }
                    }
                    continue
                }
                guard let count = try? source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<4096])) else { continue }
                var offset = 0
                while offset + 4 <= count {
                    fired.append(Int32(bitPattern: UInt32(bigEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self))))
                    offset += 4
                }
            }
            if polled {
                for (token, watch) in watches where watch.type == .check || watch.type == .plain {
                    if (try? center.check(NotificationToken(rawValue: token))) == true { fired.append(token) }
                }
            }
            for token in fired {
                guard var watch = watches[token], watch.remaining != 0 else { continue }
                if !quiet { Output.line(line(for: NotificationToken(rawValue: token), watch, verbose: verbose)) }
                if let remaining = watch.remaining {
                    watch.remaining = remaining - 1
                    if remaining - 1 == 0 { try? center.cancel(NotificationToken(rawValue: token)) }
                }
                watches[token] = watch
            }
        }
        return 0
    }

    private func line(for token: NotificationToken, _ watch: Watch, verbose: Bool) -> String {
        guard verbose else { return watch.name }
        let now = Clock.system.now()
        let seconds = Int(now)
        let millis = Int((now - Double(seconds)) * 1000)
        let state = (try? center.state(of: token)).map { String($0) } ?? ": \(NotifyStatus.invalidToken)"
        let millisText = String(millis)
        return "\(seconds).\(String(repeating: "0", count: 3 - millisText.count))\(millisText) \(watch.name) \(state) \(watch.type.rawValue)"
    }
}
