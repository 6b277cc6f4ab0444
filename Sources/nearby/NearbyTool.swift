import Foundation
import AppRegistry
import Handlers
import Handoff
import Nearby
import PropertyLists
import SystemCalls
import ToolSupport
import UniformTypes

/// The verbs, each a few library calls and what they print.
struct NearbyTool: Sendable {
    let command: NearbyCommand
    let root: DeviceRoot
    let folder: NearbyFolder
    var json: Bool { command.flag(.json) }

    init(_ command: NearbyCommand) {
        self.command = command
        root = DeviceRoot.resolve(explicit: command[.root])
        folder = NearbyFolder(root: root)
    }

    /// The name this device gives itself.
    var deviceName: String { command[.name] ?? CurrentProcess.hostName() ?? "Linux device" }

    func run() throws -> Int32 {
        // A root named on the command line or in the environment must exist: a typo (`--root
        // ~/devcie`) would otherwise become a new device root with a private key of its own.
        // Only the user's default root is made on first use.
        guard root.origin == .userDefault || root.exists else {
            throw UsageError(root.absence + (Registration.similarFolder(to: root.path).map { " (did you mean \($0)?)" } ?? "")
                + (root.origin == .environment ? " (from $\(DeviceRoot.environmentVariable))" : ""), verb: command.verb.map { "\($0)" })
        }
        switch command.verb ?? .status {
        case .identity: return try identity()
        case .list: return try list()
        case .status: return try status()
        case .unpair: return try unpair()
        case .send: return try send()
        case .receive: return try receive()
        case .pair: return try pair()
        case .activities: return try activities()
        case .continue: return try continueActivity()
        case .streams: return try streams()
        }
    }

    func identity() throws -> Int32 {
        let identity = command.flag(.rotate) ? try DeviceIdentity.rotate(in: folder) : try DeviceIdentity.loadOrCreate(in: folder)
        if json {
            print(json: .dictionary(["fingerprint": .string(identity.fingerprint.hex), "certificate": .string(folder.certificate)]))
        } else {
            Output.line("\(identity.fingerprint)")
        }
        return 0
    }

    func list() throws -> Int32 {
        let paired = try PairedDevices.load(from: folder)
        let found = command.flag(.noDiscovery) ? [] : try DeviceFinder.inReach(paired: paired.devices, interfaces: interfaces, timeout: try timeout())
        let strangers = found.filter { $0.paired == nil }
        if json {
            var rows = paired.devices.map { device -> PropertyList in
                guard case .dictionary(var d) = Self.value(device) else { return Self.value(device) }
                if let seen = found.first(where: { $0.paired?.fingerprint == device.fingerprint }) {
                    d["inReach"] = .string(SendTarget(host: seen.host, port: seen.port, expected: nil).address)
                    d["accepts"] = .string(seen.accepts.rawValue)
                }
                return .dictionary(d)
            }
            rows += strangers.map { .dictionary(["name": .string($0.name ?? ""), "fingerprint": .string($0.fingerprint?.hex ?? ""),
                                                  "paired": .bool(false), "waitingToPair": .bool($0.waitingToPair), "accepts": .string($0.accepts.rawValue),
                                                  "inReach": .string(SendTarget(host: $0.host, port: $0.port, expected: nil).address)]) }
            print(json: .array(rows))
        } else {
            for device in paired.devices {
                let seen = found.first { $0.paired?.fingerprint == device.fingerprint }
                Output.line(TerminalText.row([device.name, "paired", "\(device.fingerprint.hex.prefix(16))…",
                    seen.map { "in reach at " + SendTarget(host: $0.host, port: $0.port, expected: nil).address + Self.accepting($0.accepts) }
                        ?? "not seen"]))
            }
            for stranger in strangers {
                let what = stranger.waitingToPair ? ["waiting to pair (nearby pair \(stranger.name ?? ""))"]
                    : ["not paired (everyone)", "\(stranger.fingerprint?.hex.prefix(16) ?? "")…"]
                Output.line(TerminalText.row([stranger.name ?? "?"] + what
                    + ["in reach at " + SendTarget(host: stranger.host, port: stranger.port, expected: nil).address]))
            }
        }
        return 0
    }

    /// An exit status a verb ends with, as an error value.
    struct ExitStatus: Error { var code: Int32 }

    /// The devices `activities` and `continue` ask: DEVICE (a paired device's name, or
    /// `HOST:PORT`), else every paired device in reach. Reported failures become exit status 2,
    /// and no paired device in reach 1.
    func pairedTargets() -> Result<[(name: String, target: SendTarget)], ExitStatus> {
        do {
            if let device = command.operands.first { return .success([(device, try resolveTarget(device))]) }
            let paired = try PairedDevices.load(from: folder)
            let found = command.flag(.noDiscovery) ? [] : try DeviceFinder.inReach(paired: paired.devices, interfaces: interfaces, timeout: try timeout())
            let targets = found.compactMap { seen in seen.paired.map { ($0.name, SendTarget(host: seen.host, port: seen.port, expected: $0.fingerprint)) } }
            guard !targets.isEmpty else {
                Self.report(NearbyError.connection("no paired device is in reach (nearby list)"), json: json)
                return .failure(ExitStatus(code: 1))
            }
            return .success(targets)
        } catch {
            Self.report(error, json: json)
            return .failure(ExitStatus(code: 2))
        }
    }

    /// `activities [DEVICE] [--watch]`: the activities each paired device in reach (or DEVICE)
    /// offers, newest first; with `--watch`, again at each change until the connections end.
    /// Exit status 0 when every device answered, 1 when no paired device is in reach, 2 on errors.
    func activities() throws -> Int32 {
        let targets: [(name: String, target: SendTarget)]
        switch pairedTargets() {
        case .success(let found): targets = found
        case .failure(let status): return status.code
        }
        let json = self.json, watch = command.flag(.watch), root = self.root, reached = targets
        return AsyncBridge.run {
            await withTaskGroup(of: Int32.self) { group in
                for (name, target) in reached {
                    group.addTask {
                        do {
                            try await ActivityWatcher(root: root).watch(target) { offers in
                                Self.show(offers, of: name, json: json)
                                return watch
                            }
                            return 0
                        } catch {
                            Self.report(error, json: json)
                            return 2
                        }
                    }
                }
                return await group.reduce(0) { max($0, $1) }
            }
        }
    }

    /// What one device answered `continue`: its offers, or why not.
    ///
    /// A named struct, not a `(String, Result<…>)` tuple, as the task group's child result: with
    /// the tuple, the release build (scripts/release-flags) got no child result at all out of
    /// the group, so `nearby continue` reported "offers no activity" for a device `nearby
    /// activities` listed; the debug build had them.
    struct DeviceOffers: Sendable {
        var name: String
        var offers: Result<[ActivityOffer], NearbyError>
    }

    /// `continue [DEVICE] [--type TYPE] [--app BUNDLE]`: takes the offers of DEVICE (else of the
    /// one paired device in reach that offers any), picks the newest (or the newest of `--type`)
    /// and continues it here (``Handoff/ActivityContinuation``). Exit status 0 when an app got it
    /// or its web page opened, 1 when nothing was offered or nothing here can continue it, 2 on
    /// errors.
    func continueActivity() throws -> Int32 {
        let targets: [(name: String, target: SendTarget)]
        switch pairedTargets() {
        case .success(let found): targets = found
        case .failure(let status): return status.code
        }
        let root = self.root, wanted = command[.type], reached = targets
        // Each device's offers now; a device that did not answer offers nothing, unless none did.
        let answers: [DeviceOffers] = AsyncBridge.run {
            await withTaskGroup(of: DeviceOffers.self) { group in
                for (name, target) in reached {
                    group.addTask {
                        do { return DeviceOffers(name: name, offers: .success(try await ContinuationClient(root: root).offers(of: target))) } catch {
                            return DeviceOffers(name: name, offers: .failure(.connection("\(name): \(error)")))
                        }
                    }
                }
                var answers: [DeviceOffers] = []
                for await answer in group { answers.append(answer) }
                return answers
            }
        }
        if answers.allSatisfy({ if case .failure = $0.offers { true } else { false } }), case .failure(let error)? = answers.first?.offers {
            Self.report(error, json: json)
            return 2
        }
        let offering = answers.compactMap { answer in
            ((try? answer.offers.get()) ?? []).first { wanted == nil || $0.activityType == wanted }.map { (device: answer.name, offer: $0) }
        }
        guard let chosen = offering.first else {
            let what = wanted.map { "no activity of type \($0)" } ?? "no activity"
            Self.report(NearbyError.declined("\(reached.map(\.name).joined(separator: ", ")) offer\(reached.count == 1 ? "s" : "") \(what)"), json: json)
            return 1
        }
        guard offering.count == 1 else {
            throw UsageError("several devices offer activities (\(offering.map(\.device).joined(separator: ", "))): name one", verb: "continue")
        }
        var continuation = ActivityContinuation(root: root, registry: try RegistryStore.forQuery(root: root))
        continuation.launch = !command.flag(.noLaunch)
        let outcome: ActivityContinuation.Outcome
        do { outcome = try continuation.continue(chosen.offer, from: chosen.device, in: command[.app]) } catch {
            Self.report(error, json: json)
            return 1
        }
        let offer = chosen.offer
        var event: [String: PropertyList] = ["event": .string("continued"), "device": .string(chosen.device),
                                             "activityType": .string(offer.activityType), "from": .string(offer.bundleIdentifier)]
        let line: String
        switch outcome {
        case .delivered(let app, let requestPath, let launched):
            event["app"] = .string(app)
            event["request"] = .string(requestPath)
            event["launched"] = .bool(launched != nil)
            line = "continued \(offer.activityType) from \(chosen.device) in \(app)" + (launched == nil ? " (not started: it takes the request when it next looks)" : "")
        case .deliveredToRunningApp(let app, let requestPath):
            event["app"] = .string(app)
            event["request"] = .string(requestPath)
            event["launched"] = .bool(false)
            line = "continued \(offer.activityType) from \(chosen.device) in \(app), which was running"
        case .openedWebpage(let url, _):
            event["webpageURL"] = .string(url)
            line = "no app here continues \(offer.activityType): opened \(url) in the browser"
        }
        // The offering app is told (userActivityWasContinued); it not being told does not undo
        // the continuation, so it is reported, not failed.
        if let target = reached.first(where: { $0.name == chosen.device })?.target {
            let told: String? = AsyncBridge.run {
                do { try await ContinuationClient(root: root).tellContinued(offer.identity, on: target); return nil } catch { return "\(error)" }
            }
            event["told"] = .bool(told == nil)
            if let told { Output.error("nearby: \(chosen.device) was not told that its activity was continued: \(told)") }
        }
        if json { print(json: .dictionary(.init(uniqueKeysWithValues: event.sorted { $0.key < $1.key }))) } else { Output.line(TerminalText.escaped(line)) }
        return 0
    }

    /// `streams DEVICE --app BUNDLE --process PID --made-current T`: the helper of a continuing
    /// app (`getContinuationStreams`), whose standard input and output are one socket to it. It
    /// writes the app an opened frame once the offering app took the streams (or a failed frame
    /// saying why, and exits 1), then relays until both directions finished (exit 0) or either
    /// ended without finishing (exit 1).
    func streams() throws -> Int32 {
        let local = ContinuationChannel.standardInput()
        func failed(_ reason: String) -> Int32 {
            try? local.write(.failed(reason))
            Output.error("nearby streams: \(reason)")
            return 1
        }
        guard let app = command[.app], let process = command[.process].flatMap(Int32.init), let time = command[.madeCurrent].flatMap(Double.init) else {
            throw UsageError("streams needs --app, --process and --made-current (the offer's)", verb: "streams")
        }
        let offer = ActivityOffer.Identity(bundleIdentifier: app, processIdentifier: process, madeCurrent: time)
        let target: SendTarget
        do { target = try resolveTarget(command.operands[0]) } catch { return failed("\(error)") }
        let root = self.root
        let outcome: String? = AsyncBridge.run {
            do {
                try await ContinuationClient(root: root).relayStreams(of: offer, on: target, local: local) { try local.write(.opened) }
                return nil
            } catch { return "\(error)" }
        }
        guard let outcome else { return 0 }
        return failed(outcome)
    }

    /// Prints one device's offers: a line each (or a JSON event).
    static func show(_ offers: [ActivityOffer], of device: String, json: Bool) {
        if json {
            print(json: .dictionary(["event": .string("activities"), "device": .string(device), "offers": .array(offers.map { offer in
                var d: [String: PropertyList] = ["activityType": .string(offer.activityType), "bundleIdentifier": .string(offer.bundleIdentifier),
                                                 "supportsContinuationStreams": .bool(offer.supportsContinuationStreams),
                                                 "userInfo": offer.userInfo]
                if let title = offer.title { d["title"] = .string(title) }
                if let url = offer.webpageURL { d["webpageURL"] = .string(url) }
                return .dictionary(.init(uniqueKeysWithValues: d.sorted { $0.key < $1.key }))
            })]))
            return
        }
        if offers.isEmpty { Output.line(TerminalText.row([device, "no activity"])) }
        for offer in offers {
            Output.line(TerminalText.row([device, offer.title ?? "(untitled)", offer.activityType, offer.bundleIdentifier]
                + (offer.webpageURL.map { [$0] } ?? [])))
        }
    }

    /// What `list` says a device in reach takes items from.
    static func accepting(_ accepts: DeviceFinder.Accepts) -> String {
        switch accepts {
        case .pairedDevices: " (takes items from its paired devices)"
        case .everyone: " (takes items from everyone, asking)"
        case .pairing: " (waiting to pair)"
        }
    }

    /// `--timeout`: the parser took only a positive number; bounded here so that a mistyped value
    /// is a usage error, not a command that hangs.
    func timeout() throws(UsageError) -> Double {
        guard let text = command[.timeout], let seconds = Double(text) else { return listTimeout.default }
        guard seconds <= listTimeout.maximum else {
            throw UsageError("--timeout takes at most \(Int(listTimeout.maximum)) seconds, not '\(text)'", verb: command.verb.map { "\($0)" } ?? "list")
        }
        return seconds
    }

    /// The interfaces named with --interface (`nil`: every multicast interface).
    var interfaces: [String]? { command.all(.interface).isEmpty ? nil : command.all(.interface) }

    func status() throws -> Int32 {
        let identity = try DeviceIdentity.loadOrCreate(in: folder)
        let paired = try PairedDevices.load(from: folder)
        let spooled = folder.unfinishedTransfers
        if json {
            print(json: .dictionary(["fingerprint": .string(identity.fingerprint.hex), "paired": .array(paired.devices.map(Self.value)),
                                     "unfinishedTransfers": .integer(Int64(spooled))]))
        } else {
            Output.line("identity: \(identity.fingerprint)")
            Output.line("paired: \(paired.devices.isEmpty ? "none" : paired.devices.map(\.name).joined(separator: ", "))")
            Output.line("unfinished incoming transfers: \(spooled)")
        }
        return 0
    }

    func unpair() throws -> Int32 {
        var paired = try PairedDevices.load(from: folder)
        let name = command.operands[0]
        guard paired.unpin(named: name) else { throw NearbyError.unknownDevice(name, known: paired.devices.map(\.name)) }
        try paired.save(to: folder)
        if json { print(json: .dictionary(["unpaired": .string(name)])) } else { Output.line("unpaired \(name)") }
        return 0
    }

    /// What an AirDrop send can and cannot vouch for, said before each one (docs/nearby.md, "A
    /// device in the middle").
    static let airDropStance = "note: AirDrop checks no certificate: the receiver is whoever answers to that name or address; "
        + "this send's connections must all show the first one's certificate"

    func send() throws -> Int32 {
        let items: [OutgoingItem]
        let transfer: @Sendable (_ items: [OutgoingItem], _ progress: @escaping @Sendable (SendProgress) -> Void) async throws -> SendReport
        do {
            guard let to = command[.to] else {
                throw UsageError("send needs --to: a paired device's name (nearby list), HOST:PORT, or with --localsend or --airdrop the device's name",
                                 verb: "send")
            }
            let registry = try RegistryStore.forQuery(root: root)
            let documents = Sheet.Document.typed(command.operands, registry: registry)
            var prepared: [OutgoingItem] = []
            for document in documents { prepared.append(try OutgoingItem(path: document.path, type: document.type.identifier)) }
            items = prepared
            if command.flag(.localSend) {
                transfer = try localSendTransfer(to: to)
            } else if let interface = command[.airDrop] {
                transfer = try airDropTransfer(to: to, interface: interface)
                // The person should know what AirDrop's protocol does not check before a file goes.
                if !json { Output.error(Self.airDropStance) }
            } else {
                let target = try resolveTarget(to)
                let sender = NearbySender(root: root, deviceName: deviceName, senderApp: command[.from] ?? "org.document-interchange.nearby")
                let app = command[.app]
                transfer = { items, progress in try await sender.send(items, to: target, targetApp: app, progress: progress) }
            }
        } catch {
            Self.report(error, json: json)
            return 2
        }
        let json = self.json
        let total = items.reduce(Int64(0)) { $0 + $1.size }
        let line = (!json && CurrentProcess.isTerminal(2)) ? ProgressLine(total: total) : nil
        let sizes = items.map(\.size)
        return AsyncBridge.run {
            do {
                let report = try await transfer(items) { event in
                    if json { print(json: Self.value(event)) }
                    switch event {
                    case .bytes(let item, let sent, _): line?.update(sent: sizes[..<item].reduce(0, +) + sent)
                    case .waiting: line?.waiting()
                    default: break
                    }
                }
                line?.finish()
                if json {
                    print(json: .dictionary(["event": .string("done"), "delivered": .integer(Int64(report.destinations.compactMap { $0 }.count)),
                                             "items": .integer(Int64(items.count)), "bytesSent": .integer(report.bytesSent),
                                             "bytesResumed": .integer(report.bytesResumed)]))
                } else {
                    for (item, destination) in zip(items, report.destinations) {
                        Output.line("\(item.name): " + (destination.map { "delivered (\($0))" } ?? "not delivered"))
                    }
                }
                return report.complete ? 0 : 1
            } catch let error as NearbyError {
                line?.finish()
                Self.report(error, json: json)
                if case .declined = error { return 1 }
                return 2
            } catch {
                line?.finish()
                Self.report(error, json: json)
                return 2
            }
        }
    }

    /// `send --airdrop IFACE --to NAME|[ADDRESS]:PORT`: an AirDrop receiver (OpenDrop) found on
    /// the interface by the name it gives in `Discover`, or reached by address (a link-local
    /// address takes the interface).
    func airDropTransfer(to: String, interface: String) throws -> @Sendable ([OutgoingItem], @escaping @Sendable (SendProgress) -> Void) async throws -> SendReport {
        var configured = AirDropSender(root: root, deviceName: deviceName)
        configured.senderApp = command[.from] ?? configured.senderApp
        let sender = configured
        if to.contains(":") {
            var (host, port) = try SendTarget.parseAddress(to)
            if host.hasPrefix("fe80"), !host.contains("%") { host += "%" + interface }
            let receiver = AirDropFound(name: to, host: host, port: port, identifier: "")
            return { items, progress in try await sender.send(items, to: receiver, progress: progress) }
        }
        return { items, progress in
            let found = try await sender.find(name: to, interface: interface)
            guard let receiver = found.first(where: { $0.name == to }) else {
                throw NearbyError.notFound(kind: "AirDrop receiver on \(interface)", name: to, heard: found.map(\.name))
            }
            return try await sender.send(items, to: receiver, progress: progress)
        }
    }

    /// `send --localsend --to ALIAS|HOST[:PORT]|http://HOST[:PORT]`: a LocalSend device found by
    /// its alias (LocalSend's multicast discovery), or reached by address (HTTPS unless the
    /// address says `http://`; LocalSend's port 53317 unless it names one).
    func localSendTransfer(to: String) throws -> @Sendable ([OutgoingItem], @escaping @Sendable (SendProgress) -> Void) async throws -> SendReport {
        var configured = LocalSendSender(root: root, deviceName: deviceName)
        configured.pin = command[.localSendPin]
        configured.acceptNewCertificate = command.flag(.newCertificate)
        let sender = configured
        let (root, name, interfaces, discovery) = (root, deviceName, interfaces, !command.flag(.noDiscovery))
        var text = Substring(to)
        var secure = true
        if text.hasPrefix("http://") { secure = false; text = text.dropFirst("http://".count) } else if text.hasPrefix("https://") { text = text.dropFirst("https://".count) }
        let colons = text.filter { $0 == ":" }.count
        let bareIPv4 = !text.isEmpty && text.allSatisfy { $0.isNumber || $0 == "." }
        if colons > 0 || bareIPv4 || !secure {
            // HOST:PORT and [V6]:PORT name the port; a bare address (IPv4, or IPv6 with its
            // colons) takes LocalSend's.
            let (host, port) = text.hasPrefix("[") || colons == 1 ? try SendTarget.parseAddress(String(text)) : (String(text), 53317)
            let target = LocalSendTarget(host: host, port: port, secure: secure)
            return { items, progress in try await sender.send(items, to: target, progress: progress) }
        }
        guard discovery else { throw UsageError("with --no-discovery a LocalSend device is reached by HOST[:PORT] only, not by its name '\(to)'", verb: "send") }
        let alias = String(text)
        return { items, progress in
            let found = try await LocalSendDiscovery.find(root: root, deviceName: name, alias: alias, interfaces: interfaces)
            guard let device = found.first(where: { $0.device.alias == alias }) else {
                throw NearbyError.notFound(kind: "LocalSend device", name: alias, heard: found.map(\.device.alias))
            }
            return try await sender.send(items, to: device.target, progress: progress)
        }
    }

    /// Calls `stop` when one of `signals` arrives, from a thread of its own that waits for it (a
    /// `read` of the descriptor cannot be cancelled, so nothing ever waits for this thread: the
    /// process ends with it still waiting when the receiver ends by itself).
    static func onSignal(_ signals: SignalDescriptor, _ stop: @escaping @Sendable () -> Void) {
        Thread.detachNewThread {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 128, alignment: 8)
            defer { buffer.deallocate() }
            _ = try? signals.descriptor.read(into: buffer)
            stop()
        }
    }

    /// Says why a send failed: on standard error, and with `--json` also as an `error` event (a
    /// program reading the events learns why without parsing standard error).
    static func report(_ error: any Error, json: Bool) {
        let text = ErrorText.of(error)
        if json { print(json: .dictionary(["event": .string("error"), "message": .string(text)])) }
        Output.error(TerminalText.escaped("nearby: \(text)"))
    }

    /// `--to`: a paired device's name (at its last address), or `HOST:PORT` with the pin of
    /// `--fingerprint` or of any paired device.
    func resolveTarget(_ to: String) throws -> SendTarget {
        let expected = try command[.fingerprint].map { text in
            guard let fingerprint = Fingerprint(hex: text) else { throw UsageError("--fingerprint takes 64 hex digits (nearby identity there shows them), not '\(text)'", verb: command.verb.map { "\($0)" }) }
            return fingerprint
        }
        let paired = try PairedDevices.load(from: folder)
        if let device = paired.device(named: to) {
            let (folder, discover, interfaces) = (folder, !command.flag(.noDiscovery), interfaces)
            let reached: Result<SendTarget, NearbyError> = AsyncBridge.run {
                do { return .success(try await SendTarget.reaching(device, in: folder, discover: discover, interfaces: interfaces)) }
                catch let error as NearbyError { return .failure(error) }
                catch { return .failure(.connection("\(error)")) }
            }
            return try reached.get()
        }
        guard to.contains(":") else {
            // Not paired: an everyone-mode device in reach by that name (as `nearby list` shows
            // it), reached at its announced address and held to its announced certificate.
            guard !command.flag(.noDiscovery) else { throw NearbyError.unknownDevice(to, known: paired.devices.map(\.name)) }
            let found = try DeviceFinder.inReach(paired: paired.devices, interfaces: interfaces, timeout: try timeout())
            let everyone = found.filter { $0.accepts == .everyone && $0.paired == nil }
            guard let device = everyone.first(where: { $0.name == to }), let fingerprint = device.fingerprint else {
                throw NearbyError.notFound(kind: "paired or everyone-mode device", name: to,
                                           heard: paired.devices.map { "\($0.name) (paired)" } + everyone.compactMap(\.name))
            }
            return SendTarget(host: device.host, port: device.port, expected: fingerprint, name: to)
        }
        let (host, port) = try SendTarget.parseAddress(to)
        return SendTarget(host: host, port: port, expected: expected)
    }

    func receive() throws -> Int32 {
        // SIGTERM (systemd, kill) and SIGINT end the receiver through its own return, so that its
        // announcement is withdrawn with goodbyes and peers forget it at once. Blocked first, on
        // the main thread, before any other thread starts (threads inherit the mask).
        let signals = try SignalDescriptor(SignalDescriptor.termination)
        let mode = command[.mode].flatMap(ReceiveMode.init(rawValue:)) ?? .paired
        if mode == .off {
            if json { print(json: .dictionary(["event": .string("off")])) } else { Output.line("receiving is off") }
            return 0
        }
        var configuration = ReceiverConfiguration(root: root, mode: mode, downloads: command[.downloads] ?? DownloadFolder.path())
        configuration.autoAccept = command.flag(.autoAccept)
        configuration.launchApps = !command.flag(.noLaunch)
        if let minutes = command[.minutes].flatMap(Double.init) {
            guard minutes > 0 else { throw UsageError("--minutes takes more than 0 minutes, not '\(command[.minutes] ?? "")'", verb: "receive") }
            configuration.everyoneMinutes = minutes
        }
        if let text = command[.askTimeout] {
            guard let seconds = Double(text), seconds > 0, seconds <= 3600 else {
                throw UsageError("--ask-timeout takes more than 0 and at most 3600 seconds, not '\(text)'", verb: "receive")
            }
            configuration.askTimeout = seconds
        }
        if let asks = command[.asksPerMinute].flatMap(Int.init) {
            configuration.asksPerPeer = asks
            configuration.askWindow = 60
        }
        if let host = command[.listen] { configuration.host = host }
        configuration.port = command[.port].flatMap(Int.init) ?? defaultPort
        configuration.announces = !command.flag(.noDiscovery)
        configuration.interfaces = interfaces
        configuration.deviceName = deviceName
        if mode == .everyone, command[.localSend] != "off" {
            var localSend = LocalSendSettings()
            localSend.secure = command[.localSend] != "http"
            if let text = command[.localSendPort] {
                guard let port = Int(text), (0...65535).contains(port) else { throw UsageError("--localsend-port takes a port from 0 to 65535, not '\(text)'", verb: "receive") }
                localSend.port = port
                if port != 0 { localSend.multicastPort = port }
            }
            localSend.pin = command[.localSendPin]
            localSend.multicast = !command.flag(.noDiscovery)
            configuration.localSend = localSend
        }
        if let interface = command[.airDrop] {
            guard mode == .everyone else { throw UsageError("--airdrop \(interface): AirDrop's protocol is spoken in everyone-mode only (add --mode everyone)", verb: "receive") }
            var airDrop = AirDropSettings(interface: interface)
            if let text = command[.airDropPort] {
                guard let port = Int(text), (0...65535).contains(port) else { throw UsageError("--airdrop-port takes a port from 0 to 65535, not '\(text)'", verb: "receive") }
                airDrop.port = port
            }
            configuration.airDrop = airDrop
        }
        let json = self.json
        // Who is asked about an unpaired sender: the person at this terminal, else the desktop
        // user through a notification, else nobody (declined).
        let prompt: (@Sendable (IncomingAsk) async -> Bool)? = CurrentProcess.isTerminal(0) && !json ? TerminalPrompt.ask
            : DesktopPrompt.isAvailable ? DesktopPrompt.prompt(timeout: configuration.askTimeout) : nil
        let settings = configuration
        return AsyncBridge.run {
            do {
                let receiver = try await NearbyReceiver(settings, prompt: prompt) { event in ReceiverOutput.show(event, json: json) }
                // It ends by itself (everyone-mode's minutes, or a failure that closed it) or at a
                // signal; either way the process then exits.
                let serving = Task { try await receiver.run() }
                Self.onSignal(signals) { serving.cancel() }
                try await serving.value
                return 0
            } catch is CancellationError {
                return 0
            } catch {
                Output.error("nearby: \(error)")
                return 2
            }
        }
    }

    /// `pair --wait` / `pair --show-code` (B: wait for one device, findable by name meanwhile),
    /// or `pair DEVICE|--to HOST:PORT [--code CODE]` (A): by comparing digits, or by the code.
    func pair() throws -> Int32 {
        let side = Pairing.Side(root: root, name: deviceName, receivePort: defaultPort)
        let json = self.json
        let waiting = command.flag(.wait) || command.flag(.showCode)
        if waiting {
            guard !(command.flag(.wait) && command.flag(.showCode)) else { throw NearbyError.pairing("--wait and --show-code exclude each other") }
            guard command[.code] == nil, command[.to] == nil, command.operands.isEmpty else {
                throw NearbyError.pairing("the waiting device takes no DEVICE, --to or --code: give those on the other device")
            }
        }
        let discoverable = !command.flag(.noDiscovery)
        let interfaces = self.interfaces
        let port = command[.port].flatMap(Int.init) ?? defaultPort + 1
        if command.flag(.showCode) {
            let code = PairingCode.random()
            return Self.finishing(json: json) {
                try await Pairing.showCode(side, code: code, port: port, discoverable: discoverable, interfaces: interfaces) { port in
                    if json { print(json: .dictionary(["event": .string("code"), "code": .string(code.digits), "port": .integer(Int64(port))])) }
                    else { Output.line("code: \(code)\nwaiting on port \(port) for a device to pair (there: nearby pair \(side.name) --code \(code))") }
                }
            }
        }
        if command.flag(.wait) {
            return Self.finishing(json: json) {
                try await Pairing.waitToCompare(side, port: port, discoverable: discoverable, interfaces: interfaces, listening: { port in
                    if json { print(json: .dictionary(["event": .string("waiting"), "port": .integer(Int64(port))])) }
                    else { Output.line("waiting on port \(port) for a device to pair (there: nearby pair \(side.name))") }
                }, confirm: { await ComparisonPrompt.ask($0, json: json) })
            }
        }
        guard let target = command.operands.first ?? command[.to] else {
            throw NearbyError.pairing("give --wait or --show-code on one device, and its name (or --to HOST:PORT) on the other")
        }
        let (host, peerPort): (String, Int)
        if let to = command[.to] {
            (host, peerPort) = try SendTarget.parseAddress(to)
        } else {
            guard discoverable else { throw NearbyError.pairing("with --no-discovery, give --to HOST:PORT") }
            guard let found = try DeviceFinder.waitingToPair(named: target, interfaces: interfaces) else {
                throw NearbyError.pairing("no device called '\(target)' is waiting to pair (nearby pair --wait or --show-code there; or --to HOST:PORT)")
            }
            (host, peerPort) = (found.host, found.port)
        }
        let name = command.operands.first
        if let typed = command[.code] {
            guard let code = PairingCode(typed: typed) else { throw NearbyError.pairing("'\(typed)' is not an eight-digit code") }
            return Self.finishing(json: json) { try await Pairing.pair(side, code: code, host: host, port: peerPort, name: name) }
        }
        return Self.finishing(json: json) {
            try await Pairing.compare(side, host: host, port: peerPort, name: name) { await ComparisonPrompt.ask($0, json: json) }
        }
    }

    /// Runs a pairing and prints the device paired (exit 0), or the error (exit 1).
    static func finishing(json: Bool, _ pairing: @escaping @Sendable () async throws -> PairedDevice) -> Int32 {
        AsyncBridge.run {
            do {
                paired(try await pairing(), json: json)
                return 0
            } catch {
                Output.error("nearby: \(error)")
                return 1
            }
        }
    }

    static func paired(_ device: PairedDevice, json: Bool) {
        if json { print(json: value(device)) } else { Output.line("paired with \(device.name) (\(device.fingerprint))") }
    }

    static func value(_ device: PairedDevice) -> PropertyList {
        var d: [String: PropertyList] = ["name": .string(device.name), "fingerprint": .string(device.fingerprint.hex), "paired": .bool(true)]
        if let address = device.lastAddress { d["address"] = .string(address) }
        return .dictionary(.init(uniqueKeysWithValues: d.sorted { $0.key < $1.key }))
    }

    static func value(_ event: SendProgress) -> PropertyList {
        switch event {
        case .connected(let fingerprint): .dictionary(["event": .string("connected"), "fingerprint": .string(fingerprint.hex)])
        case .waiting: .dictionary(["event": .string("waiting")])
        case .answered(let accepted, let held):
            .dictionary(["event": .string("answered"), "accepted": .bool(accepted), "held": .array(held.map { .integer($0) })])
        case .bytes(let item, let sent, let total):
            .dictionary(["event": .string("progress"), "item": .integer(Int64(item)), "bytes": .integer(sent), "total": .integer(total)])
        case .delivered(let item, let destination):
            .dictionary(["event": .string("delivered"), "item": .integer(Int64(item)), "destination": .string(destination)])
        }
    }
}

/// Prints a value as one line of JSON.
func print(json value: PropertyList) {
    let bytes = (try? JSONPropertyListWriter().write(value)) ?? Array("{}".utf8)
    Output.line(String(decoding: bytes, as: UTF8.self))
}
