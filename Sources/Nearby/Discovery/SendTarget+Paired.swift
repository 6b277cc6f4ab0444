import NearbyDevices

extension SendTarget {
    /// Where to reach a paired device: where its tag is announced now (DNS-SD, when `discover`),
    /// else the address it was last reached at. An address found is noted for next time.
    public static func reaching(_ device: PairedDevice, in folder: NearbyFolder, discover: Bool,
                                interfaces: [String]? = nil) throws -> SendTarget {
        if discover, let found = try DeviceFinder.find(device, interfaces: interfaces) {
            if var paired = try? PairedDevices.load(from: folder) {
                paired.noteAddress(SendTarget(host: found.host, port: found.port, expected: nil).address, for: device.fingerprint)
                try? paired.save(to: folder)
            }
            return SendTarget(host: found.host, port: found.port, expected: device.fingerprint, name: device.name)
        }
        guard let address = device.lastAddress else {
            throw NearbyError.connection("\(device.name) is not in reach and no address is known for it: give --to HOST:PORT")
        }
        let (host, port) = try parseAddress(address)
        return SendTarget(host: host, port: port, expected: device.fingerprint, name: device.name)
    }
}
