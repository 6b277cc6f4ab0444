import PropertyLists
import SystemCalls

/// The paired devices a running receiver sees in reach (`ROOT/Nearby/InReach.plist`, 0600,
/// replaced atomically). The receiver's discovery watch writes it as announcements come and go,
/// and again every ``refreshInterval``; the chooser reads it, so that the sheet offers the paired
/// devices in reach (as iOS's sheet shows the AirDrop people in reach) without a browse of its
/// own, which would hold the sheet up to 1.5 s.
///
/// The record speaks only while its writer lives: ``live(in:now:)`` ignores a record whose
/// process is gone, by its id and start time (a receiver killed with `kill -9` cannot remove
/// it), or that has not been
/// refreshed for ``staleAfter`` seconds. Without a live record nobody knows what is in reach.
public struct DevicesInReach: Sendable, Hashable {
    /// A paired device seen in reach.
    public struct Entry: Sendable, Hashable {
        /// Its certificate's fingerprint (which paired device it is).
        public var fingerprint: Fingerprint
        /// Where its announcement says it listens (`HOST:PORT`).
        public var address: String

        /// An entry.
        public init(fingerprint: Fingerprint, address: String) {
            self.fingerprint = fingerprint
            self.address = address
        }
    }

    /// How often the watch writes the record when nothing changes, so that readers can tell a
    /// live record from one left behind.
    public static let refreshInterval: Double = 30
    /// A record older than this is left behind (three refreshes missed).
    public static let staleAfter: Double = 3 * refreshInterval

    /// The process that keeps the record (its id and start time: a later process that got the
    /// same id is not it).
    public var watcher: ProcessIdentity
    /// When it last wrote the record (seconds since 1970).
    public var refreshed: Double
    /// The paired devices in reach, one entry each.
    public var devices: [Entry]

    /// A record.
    public init(watcher: ProcessIdentity, refreshed: Double, devices: [Entry]) {
        self.watcher = watcher
        self.refreshed = refreshed
        self.devices = devices
    }

    /// Whether the device with `fingerprint` is in reach.
    public func contains(_ fingerprint: Fingerprint) -> Bool { devices.contains { $0.fingerprint == fingerprint } }

    /// The record in `folder` when a receiver keeps it now: its process runs and it was refreshed
    /// at most ``staleAfter`` seconds before `now`. `nil` when there is none, it is left behind,
    /// or it cannot be read (then nobody can say what is in reach).
    public static func live(in folder: NearbyFolder, now: Double = Clock.system.now()) -> DevicesInReach? {
        guard let record = try? load(from: folder) else { return nil }
        guard record.refreshed > now - staleAfter, record.refreshed < now + staleAfter else { return nil }
        return record.watcher.isRunning ? record : nil
    }

    /// The record stored in `folder` (`nil` when there is none).
    public static func load(from folder: NearbyFolder) throws(NearbyError) -> DevicesInReach? {
        guard FileSystem.exists(folder.inReach) else { return nil }
        let value: PropertyList
        do { value = try PropertyListReader.read(contentsOf: folder.inReach).value } catch {
            throw .corruptState(path: folder.inReach, detail: "\(error)")
        }
        guard case .dictionary(let top) = value, case .integer(let watcher)? = top["Watcher"], let pid = Int32(exactly: watcher),
              case .integer(let start)? = top["WatcherStart"],
              case .real(let refreshed)? = top["Refreshed"], case .array(let entries)? = top["Devices"] else {
            throw .corruptState(path: folder.inReach, detail: "needs Watcher, WatcherStart, Refreshed and Devices")
        }
        var devices: [Entry] = []
        for (index, entry) in entries.enumerated() {
            guard case .dictionary(let d) = entry, case .data(let bytes)? = d["Fingerprint"], let fingerprint = Fingerprint(bytes: bytes),
                  case .string(let address)? = d["Address"] else {
                throw .corruptState(path: folder.inReach, detail: "Devices[\(index)] needs a 32-byte Fingerprint and an Address")
            }
            devices.append(Entry(fingerprint: fingerprint, address: address))
        }
        return DevicesInReach(watcher: ProcessIdentity(id: pid, start: start), refreshed: refreshed, devices: devices)
    }

    /// Stores the record in `folder`. Not flushed to disk: after a power loss it is worthless
    /// anyway (its writer is gone).
    public func save(to folder: NearbyFolder) throws(NearbyError) {
        try folder.create()
        let entries: [PropertyList] = devices.map {
            .dictionary(["Address": .string($0.address), "Fingerprint": .data($0.fingerprint.bytes)])
        }
        let top: PropertyList = .dictionary(["Devices": .array(entries), "Refreshed": .real(refreshed), "Watcher": .integer(Int64(watcher.id)),
                                      "WatcherStart": .integer(watcher.start)])
        let bytes: [UInt8]
        do { bytes = try XMLPropertyListWriter().write(top) } catch { throw .corruptState(path: folder.inReach, detail: "\(error)") }
        do { try AtomicFile.write(bytes, to: folder.inReach, permissions: 0o600, durable: false) } catch { throw .system(error) }
    }

    /// Removes the record from `folder` when `watcher` wrote it, or it cannot be read (worth
    /// nothing to anyone): its receiver stops. Another receiver's on the same root stays.
    public static func remove(from folder: NearbyFolder, writtenBy watcher: ProcessIdentity) {
        do {
            guard let record = try load(from: folder), record.watcher == watcher else { return }
        } catch {
            // Unreadable: removed as well.
        }
        try? FileSystem.remove(folder.inReach)
    }
}
