import SystemCalls

/// The document portal (`org.freedesktop.portal.Documents`, served by `xdg-document-portal`):
/// how a sandboxed app (Flatpak, Snap) is given one file without a copy. The file is exported
/// into the portal's FUSE mount (`/run/user/UID/doc/DOC-ID/NAME`) and the app is granted access
/// to that document only; it opens the same bytes the user chose.
public struct DocumentPortal: Sendable {
    /// The portal's bus name, object path and interface.
    public static let busName = "org.freedesktop.portal.Documents"
    public static let objectPath = "/org/freedesktop/portal/documents"
    public static let interface = "org.freedesktop.portal.Documents"

    /// What the app may do with a document.
    public enum Permission: String, Sendable, Hashable, CaseIterable {
        case read, write, grantPermissions = "grant-permissions", delete
    }

    /// `AddFull` flags: reuse an existing export of the same file (1), and export only when the
    /// app cannot reach the file by itself (4) — what the OpenURI portal uses.
    public static let addFlags: UInt32 = 1 | 4

    /// The bus the portal is on.
    public let bus: SessionBus

    /// A portal on `bus`.
    public init(bus: SessionBus) { self.bus = bus }

    /// Exports `path` and grants `appID` the `permissions` on it.
    /// - Returns: the path the app opens (inside the portal's mount), or `path` itself when the
    ///   portal says the app can reach the file without an export.
    /// - Throws: ``BusError`` when the portal is not running or refuses.
    public func grant(_ path: String, to appID: String, permissions: [Permission] = [.read, .write]) throws(BusError) -> String {
        let file: OwnedDescriptor
        do { file = try OwnedDescriptor.open(path, .readOnly, options: .pathOnly) } catch {
            throw BusError(name: "org.document-interchange.CannotOpen", message: "\(error)")
        }
        guard bus.canPassFileDescriptors else {
            throw BusError(name: "org.document-interchange.NoDescriptorPassing", message: "the session bus connection cannot pass file descriptors")
        }
        let reply = try file.withRaw { (raw: Int32) throws(BusError) -> [BusValue] in
            try bus.call(destination: Self.busName, path: Self.objectPath, interface: Self.interface, method: "AddFull",
                         arguments: [.fileDescriptors([raw]), .uint32(Self.addFlags), .string(appID), .strings(permissions.map(\.rawValue))])
        }
        guard reply.count >= 1, case .strings(let ids) = reply[0], let id = ids.first else {
            throw BusError(name: "org.document-interchange.UnexpectedReply", message: "AddFull answered \(reply)")
        }
        if id.isEmpty { return path }
        var mountPoint: [UInt8]?
        if reply.count >= 2, case .dictionary(let extra) = reply[1], case .bytes(let bytes)? = extra["mountpoint"] { mountPoint = bytes }
        if mountPoint == nil {
            let answer = try bus.call(destination: Self.busName, path: Self.objectPath, interface: Self.interface, method: "GetMountPoint", arguments: [])
            if case .bytes(let bytes)? = answer.first { mountPoint = bytes }
        }
        guard var mount = mountPoint else { throw BusError(name: "org.document-interchange.UnexpectedReply", message: "no mount point") }
        while mount.last == 0 { mount.removeLast() }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return String(decoding: mount, as: UTF8.self) + "/" + id + "/" + name
    }
}
