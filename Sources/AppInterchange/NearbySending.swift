import NearbyDevices
import PropertyLists
import SystemCalls

/// A paired nearby device as an app sees it: AirDrop's contacts, the devices this one can send to.
public struct NearbyDevice: Sendable, Hashable {
    /// The name it was paired under (what `send(documents:toNearbyDevice:)` takes).
    public var name: String
    /// Its certificate's SHA-256, hex.
    public var fingerprint: String
    /// Where it is in reach (`HOST:PORT`): as this device's running receiver sees it now
    /// (`DevicesInReach`), or where it was seen just now when looked for. `nil` when not seen, or
    /// when nobody knows (no receiver runs and nobody looked).
    public var inReach: String?
}

/// What sending documents to a nearby device did.
public struct NearbySendReport: Sendable, Hashable {
    /// The device.
    public var device: String
    /// Per document, in order, where the other device put it (an app's bundle identifier, or
    /// `downloads`); `nil` for one not delivered.
    public var destinations: [String?]
    /// Whether every document was delivered.
    public var complete: Bool { destinations.allSatisfy { $0 != nil } }
}

extension InterchangeApp {
    /// The paired devices this app can send to, from the device root's paired list, with
    /// ``NearbyDevice/inReach`` from what this device's running receiver sees (if one runs).
    /// - Parameter lookingAround: look for them on the network instead (DNS-SD, about 1.5 s,
    ///   through `nearby list`), for when no receiver runs.
    public func nearbyDevices(lookingAround: Bool = false) throws(InterchangeError) -> [NearbyDevice] {
        let paired: PairedDevices
        do { paired = try PairedDevices.load(from: NearbyFolder(root: root)) } catch { throw .nearby(device: nil, reason: "\(error)") }
        let reach = lookingAround ? nil : DevicesInReach.live(in: NearbyFolder(root: root))
        var devices = paired.devices.map { device in
            NearbyDevice(name: device.name, fingerprint: device.fingerprint.hex,
                         inReach: reach?.devices.first { $0.fingerprint == device.fingerprint }?.address)
        }
        guard lookingAround, !devices.isEmpty else { return devices }
        // The tool, not the library: discovery lives in Nearby, above this library (it delivers
        // through the chooser), as the sheet's nearby row also runs the tool.
        let finished = try Self.runNearby(["nearby", "list", "--root", root.path, "--json"], device: nil)
        guard finished.status == 0, case .array(let rows)? = try? PropertyListReader.read(finished.output, options: Self.jsonOptions).value else {
            throw .nearby(device: nil, reason: "nearby list exited with status \(finished.status)")
        }
        for case .dictionary(let row) in rows {
            guard case .string(let fingerprint)? = row["fingerprint"], case .string(let address)? = row["inReach"] else { continue }
            if let index = devices.firstIndex(where: { $0.fingerprint == fingerprint }) { devices[index].inReach = address }
        }
        return devices
    }

    /// Sends the documents at `paths` to the paired device `name`, into `app` there if it is
    /// registered and opens them (else the app the device ranks first for each, else its download
    /// folder); this app is the sender named in the open requests. Returns when every document was
    /// delivered or refused (through `nearby send`, whose resume and checks apply).
    /// - Parameter lookingAround: find the device on the network first (else its last address).
    @discardableResult
    public func send(documents paths: [String], toNearbyDevice name: String, app: String? = nil,
                     lookingAround: Bool = true) throws(InterchangeError) -> NearbySendReport {
        guard !paths.isEmpty else { throw .nearby(device: name, reason: "no documents to send") }
        var command = ["nearby", "send", "--root", root.path, "--to", name, "--from", bundleIdentifier, "--json"]
        if let app { command += ["--app", app] }
        if !lookingAround { command.append("--no-discovery") }
        let finished = try Self.runNearby(command + ["--"] + paths, device: name)
        var destinations = [String?](repeating: nil, count: paths.count)
        var failure: String?
        for line in finished.output.split(separator: UInt8(ascii: "\n")) {
            guard case .dictionary(let event)? = try? PropertyListReader.read(Array(line), options: Self.jsonOptions).value,
                  case .string(let kind)? = event["event"] else { continue }
            if kind == "delivered", case .integer(let item)? = event["item"], case .string(let destination)? = event["destination"],
               destinations.indices.contains(Int(item)) {
                destinations[Int(item)] = destination
            } else if kind == "error", case .string(let message)? = event["message"] {
                failure = message
            }
        }
        let report = NearbySendReport(device: name, destinations: destinations)
        guard finished.status == 0 || finished.status == 1 && failure == nil && destinations.contains(where: { $0 != nil }) else {
            throw .nearby(device: name, reason: failure ?? "nearby send exited with status \(finished.status)")
        }
        return report
    }

    static var jsonOptions: PropertyListReadOptions {
        var options = PropertyListReadOptions()
        options.readsJSON = true
        return options
    }

    static func runNearby(_ command: [String], device: String?) throws(InterchangeError) -> Spawn.Finished {
        guard Environment.findExecutable("nearby") != nil else { throw .nearby(device: device, reason: "the nearby tool is not installed (scripts/install)") }
        do { return try Spawn.run(command) } catch { throw .system(error) }
    }
}
