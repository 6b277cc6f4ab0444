import AppRegistry
import SystemCalls

/// Whether the file systems an ask's items pass through have room for them, checked when the ask
/// comes, before a byte is sent: the spool's, which holds every item while it arrives, and each
/// destination's that is another file system (a download folder on its own disk), which gets a
/// copy at delivery. A full destination found only after the upload cost the whole transfer and
/// told the sender "closed before confirming item 0".
enum FreeSpace {
    /// Why the items do not fit (the folder and the figures), or `nil` when they do, each
    /// file system keeping ``ReceiverConfiguration/spaceMargin`` free beyond them.
    /// - Parameters:
    ///   - sizes: the items' declared sizes; `destinations`: where each goes.
    static func shortfall(sizes: [Int64], destinations: [Destination], configuration: ReceiverConfiguration) throws(NearbyError) -> AskRefusal? {
        let folder = NearbyFolder(root: configuration.root)
        try folder.create()
        // Bytes needed per file system (by device), with a folder on it to name and to ask.
        var needs: [UInt64: (folder: String, bytes: Int64)] = [:]
        let spoolDevice = try device(of: folder.spool)
        needs[spoolDevice] = (folder.spool, sizes.reduce(Int64(0)) { $0 &+ $1 })
        for (size, destination) in zip(sizes, destinations) {
            let path = destination.folder(root: configuration.root)
            let device = try device(of: path)
            guard device != spoolDevice else { continue }  // moved there by a rename: no second copy
            needs[device, default: (path, 0)].bytes &+= size
        }
        for (_, need) in needs.sorted(by: { $0.value.folder < $1.value.folder }) where need.bytes > 0 {
            let free: Int64
            do { free = try FileSystem.availableBytes(existing(need.folder)) } catch { throw NearbyError.system(error) }
            if free < need.bytes &+ configuration.spaceMargin {
                return .noSpace(folder: need.folder, asked: need.bytes, free: free)
            }
        }
        return nil
    }

    /// The file system `path` is (or would be, once made) on.
    static func device(of path: String) throws(NearbyError) -> UInt64 {
        do { return try FileSystem.statusOrError(existing(path)).device } catch { throw NearbyError.system(error) }
    }

    /// `path`, or its nearest ancestor that exists (a folder made at delivery is on its parent's
    /// file system).
    static func existing(_ path: String) -> String {
        var current = path
        while !FileSystem.exists(current), let slash = current.lastIndex(of: "/"), slash != current.startIndex {
            current = String(current[..<slash])
        }
        return FileSystem.exists(current) ? current : "/"
    }
}

extension Destination {
    /// The folder an item delivered here lands in (made at delivery when it does not exist yet).
    func folder(root: DeviceRoot) -> String {
        switch self {
        case .app(let app): (try? AppContainer(bundleIdentifier: app.bundleIdentifier, on: root))?.inbox ?? root.path
        case .downloads(let folder): folder
        }
    }
}
