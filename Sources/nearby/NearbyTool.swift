import AppRegistry
import Handlers
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
        switch command.verb ?? .status {
        case .identity: return try identity()
        case .list: return try list()
        case .status: return try status()
        case .unpair: return try unpair()
        case .send: return try send()
        case .receive: return try receive()
        case .pair: return try pair()
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
                }
                return .dictionary(d)
            }
            rows += strangers.map { .dictionary(["name": .string($0.name ?? ""), "fingerprint": .string($0.fingerprint?.hex ?? ""),
                                                  "paired": .bool(false), "inReach": .string(SendTarget(host: $0.host, port: $0.port, expected: nil).address)]) }
            print(json: .array(rows))
        } else {
            for device in paired.devices {
                let seen = found.first { $0.paired?.fingerprint == device.fingerprint }
                Output.line(TerminalText.escaped("\(device.name)\tpaired\t\(device.fingerprint.hex.prefix(16))…\t"
                    + (seen.map { "in reach at " + SendTarget(host: $0.host, port: $0.port, expected: nil).address } ?? "not seen")))
            }
            for stranger in strangers {
                Output.line(TerminalText.escaped("\(stranger.name ?? "?")\tnot paired (everyone)\t\(stranger.fingerprint?.hex.prefix(16) ?? "")…\t"
                    + "in reach at " + SendTarget(host: stranger.host, port: stranger.port, expected: nil).address))
            }
        }
        return 0
    }

    /// `--timeout`: the parser took only a positive number; bounded here so that a mistyped value
    /// is a usage error, not a command that hangs.
    func timeout() throws(UsageError) -> Double {
        guard let text = command[.timeout], let seconds = Double(text) else { return listTimeout.default }
        guard seconds <= listTimeout.maximum else {
            throw UsageError("--timeout takes at most \(Int(listTimeout.maximum)) seconds, not '\(text)'", verb: "list")
        }
        return seconds
    }

    /// The interfaces named with --interface (`nil`: every multicast interface).
    var interfaces: [String]? { command.all(.interface).isEmpty ? nil : command.all(.interface) }

    func status() throws -> Int32 {
        let identity = try DeviceIdentity.loadOrCreate(in: folder)
        let paired = try PairedDevices.load(from: folder)
        let spooled = FileSystem.entries(of: folder.spool).count
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

    func send() throws -> Int32 {
        guard let to = command[.to] else { throw NearbyError.badAddress("(no --to)") }
        let target = try resolveTarget(to)
        let registry = try RegistryStore.forQuery(root: root)
        let documents = Sheet.Document.typed(command.operands, registry: registry)
        var prepared: [OutgoingItem] = []
        for document in documents { prepared.append(try OutgoingItem(path: document.path, type: document.type.identifier)) }
        let items = prepared
        let sender = NearbySender(root: root, deviceName: deviceName, senderApp: command[.from] ?? "org.document-interchange.nearby")
        let json = self.json
        let total = items.reduce(Int64(0)) { $0 + $1.size }
        let line = (!json && CurrentProcess.isTerminal(2)) ? ProgressLine(total: total) : nil
        let sizes = items.map(\.size)
        let app = command[.app]
        return AsyncBridge.run {
            do {
                let report = try await sender.send(items, to: target, targetApp: app) { event in
                    if json { print(json: Self.value(event)) }
                    if case .bytes(let item, let sent, _) = event { line?.update(sent: sizes[..<item].reduce(0, +) + sent) }
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
                Output.error("nearby: \(error)")
                if case .declined = error { return 1 }
                return 2
            } catch {
                line?.finish()
                Output.error("nearby: \(error)")
                return 2
            }
        }
    }

    /// `--to`: a paired device's name (at its last address), or `HOST:PORT` with the pin of
    /// `--fingerprint` or of any paired device.
    func resolveTarget(_ to: String) throws -> SendTarget {
        let expected = try command[.fingerprint].map { text in
            guard let fingerprint = Fingerprint(hex: text) else { throw NearbyError.badAddress("--fingerprint \(text): not 64 hex digits") }
            return fingerprint
        }
        let paired = try PairedDevices.load(from: folder)
        if let device = paired.device(named: to) {
            return try SendTarget.reaching(device, in: folder, discover: !command.flag(.noDiscovery), interfaces: interfaces)
        }
        guard to.contains(":") else { throw NearbyError.unknownDevice(to, known: paired.devices.map(\.name)) }
        let (host, port) = try SendTarget.parseAddress(to)
        return SendTarget(host: host, port: port, expected: expected)
    }

    func receive() throws -> Int32 {
        let mode = command[.mode].flatMap(ReceiveMode.init(rawValue:)) ?? .paired
        if mode == .off {
            if json { print(json: .dictionary(["event": .string("off")])) } else { Output.line("receiving is off") }
            return 0
        }
        var configuration = ReceiverConfiguration(root: root, mode: mode, downloads: command[.downloads] ?? DownloadFolder.path())
        configuration.autoAccept = command.flag(.autoAccept)
        configuration.launchApps = !command.flag(.noLaunch)
        if let minutes = command[.minutes].flatMap(Double.init) {
            guard minutes > 0 else { throw NearbyError.badAddress("--minutes \(minutes): must be more than 0") }
            configuration.everyoneMinutes = minutes
        }
        if let host = command[.listen] { configuration.host = host }
        configuration.port = command[.port].flatMap(Int.init) ?? defaultPort
        configuration.announces = !command.flag(.noDiscovery)
        configuration.interfaces = interfaces
        configuration.deviceName = deviceName
        let json = self.json
        // Who is asked about an unpaired sender: the person at this terminal, else the desktop
        // user through a notification, else nobody (declined).
        let prompt: (@Sendable (IncomingAsk) async -> Bool)? = CurrentProcess.isTerminal(0) && !json ? TerminalPrompt.ask
            : DesktopPrompt.isAvailable ? DesktopPrompt.prompt(timeout: configuration.askTimeout) : nil
        let settings = configuration
        return AsyncBridge.run {
            do {
                let receiver = try await NearbyReceiver(settings, prompt: prompt) { event in ReceiverOutput.show(event, json: json) }
                try await receiver.run()
                return 0
            } catch {
                Output.error("nearby: \(error)")
                return 2
            }
        }
    }

    /// `pair --show-code` (B: print a code, wait for one device) or `pair [DEVICE] --code CODE --to HOST:PORT` (A).
    func pair() throws -> Int32 {
        let side = Pairing.Side(root: root, name: deviceName, receivePort: defaultPort)
        let json = self.json
        if command.flag(.showCode) {
            guard command[.code] == nil else { throw NearbyError.pairing("--show-code and --code exclude each other") }
            let code = PairingCode.random()
            let port = command[.port].flatMap(Int.init) ?? defaultPort + 1
            return AsyncBridge.run {
                do {
                    let device = try await Pairing.showCode(side, code: code, port: port) { port in
                        if json { print(json: .dictionary(["event": .string("code"), "code": .string(code.digits), "port": .integer(Int64(port))])) }
                        else { Output.line("code: \(code)\nwaiting on port \(port) for a device to pair (nearby pair --code \(code) --to HOST:\(port))") }
                    }
                    Self.paired(device, json: json)
                    return 0
                } catch {
                    Output.error("nearby: \(error)")
                    return 1
                }
            }
        }
        guard let typed = command[.code] else { throw NearbyError.pairing("give --show-code on one device and --code CODE on the other") }
        guard let code = PairingCode(typed: typed) else { throw NearbyError.pairing("'\(typed)' is not an eight-digit code") }
        guard let to = command[.to] else { throw NearbyError.pairing("--to HOST:PORT: where the device showing the code listens") }
        let (host, port) = try SendTarget.parseAddress(to)
        let name = command.operands.first
        return AsyncBridge.run {
            do {
                let device = try await Pairing.pair(side, code: code, host: host, port: port, name: name)
                Self.paired(device, json: json)
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
