import PropertyLists
import SystemCalls

/// The devices paired with this one (`ROOT/Nearby/Paired.plist`, 0600, replaced atomically):
/// the only certificates a paired-mode receiver lets in, and the only ones a sender accepts.
public struct PairedDevices: Sendable {
    /// The devices, in the order they were paired.
    public private(set) var devices: [PairedDevice]

    /// No devices.
    public init() { devices = [] }

    /// The paired devices stored in `folder` (none when the file does not exist).
    public static func load(from folder: NearbyFolder) throws(NearbyError) -> PairedDevices {
        guard FileSystem.exists(folder.paired) else { return PairedDevices() }
        let value: PropertyList
        do { value = try PropertyListReader.read(contentsOf: folder.paired).value } catch {
            throw .corruptState(path: folder.paired, detail: "\(error)")
        }
        guard case .dictionary(let top) = value, case .array(let entries)? = top["Devices"] else {
            throw .corruptState(path: folder.paired, detail: "no Devices array")
        }
        var result = PairedDevices()
        for (index, entry) in entries.enumerated() {
            guard case .dictionary(let d) = entry, case .string(let name)? = d["Name"], case .data(let bytes)? = d["Fingerprint"],
                  let fingerprint = Fingerprint(bytes: bytes) else {
                throw .corruptState(path: folder.paired, detail: "Devices[\(index)] needs a Name and a 32-byte Fingerprint")
            }
            var time = 0.0
            if case .real(let t)? = d["PairedAt"] { time = t }
            var address: String?
            if case .string(let a)? = d["LastAddress"] { address = a }
            var key: [UInt8]?
            if case .data(let k)? = d["DiscoveryKey"] { key = k }
            result.devices.append(PairedDevice(name: name, fingerprint: fingerprint, pairedAt: time, lastAddress: address, discoveryKey: key))
        }
        return result
    }

    /// Stores the list in `folder`.
    public func save(to folder: NearbyFolder) throws(NearbyError) {
        try folder.create()
        let entries: [PropertyList] = devices.map { device in
            var d: [String: PropertyList] = ["Name": .string(device.name), "Fingerprint": .data(device.fingerprint.bytes),
                                             "PairedAt": .real(device.pairedAt)]
            if let address = device.lastAddress { d["LastAddress"] = .string(address) }
            if let key = device.discoveryKey { d["DiscoveryKey"] = .data(key) }
            return .dictionary(.init(uniqueKeysWithValues: d.sorted { $0.key < $1.key }))
        }
        let bytes: [UInt8]
        do { bytes = try XMLPropertyListWriter().write(.dictionary(["Devices": .array(entries)])) } catch {
            throw .corruptState(path: folder.paired, detail: "\(error)")
        }
        do { try AtomicFile.write(bytes, to: folder.paired, permissions: 0o600) } catch { throw .system(error) }
    }

    /// The device called `name`.
    public func device(named name: String) -> PairedDevice? { devices.first { $0.name == name } }

    /// The device whose certificate has `fingerprint`.
    public func device(with fingerprint: Fingerprint) -> PairedDevice? { devices.first { $0.fingerprint == fingerprint } }

    /// Adds or replaces the device with that name; an older entry for the same certificate under
    /// another name goes (one name per certificate).
    public mutating func pin(_ device: PairedDevice) {
        devices.removeAll { $0.name == device.name || $0.fingerprint == device.fingerprint }
        devices.append(device)
    }

    /// Removes the device called `name`; whether it was there.
    @discardableResult
    public mutating func unpin(named name: String) -> Bool {
        let before = devices.count
        devices.removeAll { $0.name == name }
        return devices.count != before
    }

    /// Records where the device was reached.
    public mutating func noteAddress(_ address: String, for fingerprint: Fingerprint) {
        guard let i = devices.firstIndex(where: { $0.fingerprint == fingerprint }) else { return }
        devices[i].lastAddress = address
    }
}
