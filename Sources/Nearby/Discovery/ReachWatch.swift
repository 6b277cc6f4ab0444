import AppRegistry
import MulticastDNS
import Synchronization
import SystemCalls

/// Keeps ``DevicesInReach`` while a receiver announces: browses for paired devices' announcements
/// on the receiver's interfaces (so it sends nothing where the receiver does not already speak),
/// and writes which are in reach at each change and every ``DevicesInReach/refreshInterval``.
/// The record goes when the watch ends.
struct ReachWatch: Sendable {
    /// The device root whose paired list says whom to recognise, and where the record goes.
    var root: DeviceRoot
    /// The interfaces browsed on (`nil`: every multicast interface), the receiver's.
    var interfaces: [String]?
    /// How often the record is written when nothing changes.
    var refreshInterval = DevicesInReach.refreshInterval
    /// How long the browser looks before the first record: until then there is none, and readers
    /// offer every paired device rather than none (`nearby list` browses as long by default).
    var firstLook = 1.5

    /// Watches until cancelled. A browser that cannot start is reported through `failed` and
    /// leaves no record, so that readers do not think a device out of reach.
    func run(failed: @escaping @Sendable (String) -> Void) async {
        let folder = NearbyFolder(root: root)
        let browser: MulticastBrowser
        do { browser = try MulticastBrowser(type: Announcement.serviceType, interfaces: interfaces) } catch {
            failed("the devices in reach cannot be watched: \(error)")
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
            return
        }
        // One writer at a time, each writing the browser's list as it is then, so that an older
        // list never replaces a newer one.
        let writing = Mutex(())
        let record: @Sendable () -> Void = {
            writing.withLock { _ in
                do { try Self.record(browser.services, in: folder) } catch { failed("\(folder.inReach): \(error)") }
            }
        }
        // Cancelled meanwhile: nothing was written, and the loops below end at once.
        try? await Task.sleep(for: .seconds(firstLook))
        if !Task.isCancelled { record() }
        // A device paired meanwhile may have announced itself already: recorded at the pairing,
        // not at the next announcement or refresh (30 s).
        let pairings = try? PairingChanges.stream(folder)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for await _ in browser.events { record() } }
            if let pairings {
                group.addTask {
                    for await _ in pairings { record() }
                    // Ended only by cancellation: returning first would stop the browser.
                    while (try? await Task.sleep(for: .seconds(3600))) != nil {}
                }
            }
            group.addTask {
                while (try? await Task.sleep(for: .seconds(refreshInterval))) != nil { record() }
            }
            // Cancellation ends the sleep; the browser's events end only when it stops.
            await group.next()
            browser.stop()
        }
        writing.withLock { _ in DevicesInReach.remove(from: folder, writtenBy: .current) }
    }

    /// Writes which paired devices `services` shows (the paired list read now: pairing may
    /// change while the receiver runs).
    static func record(_ services: [ResolvedService], in folder: NearbyFolder) throws(NearbyError) {
        let paired = try PairedDevices.load(from: folder).devices
        let now = Clock.system.now()
        var entries: [DevicesInReach.Entry] = []
        for service in services {
            guard let found = DeviceFinder.identify(service, paired: paired, now: now), let device = found.paired,
                  !entries.contains(where: { $0.fingerprint == device.fingerprint }) else { continue }
            let address = SendTarget(host: found.host, port: found.port, expected: nil).address
            entries.append(DevicesInReach.Entry(fingerprint: device.fingerprint, address: address))
        }
        try DevicesInReach(watcher: .current, refreshed: now, devices: entries).save(to: folder)
    }
}
