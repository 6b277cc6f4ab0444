import Synchronization
import SystemCalls

/// The activities the apps of one device root offer (each app's current one): a file per offering
/// process under `ROOT/Handoff/Current`, named `BUNDLE.PID.activity`, holding the
/// ``ActivityOffer`` and locked (`flock`) by its process for as long as the offer stands.
///
/// Why a lock and not a record of process ids: the kernel drops the lock when the process ends,
/// however it ends (SIGKILL too), so an offer is withdrawn with its process without anyone
/// cleaning up, and a reused pid is never taken for the old owner. The lock is taken on the
/// temporary file before it is renamed into place, so no reader ever sees a live offer unlocked.
public struct CurrentActivities: Sendable {
    /// `ROOT/Handoff/Current`.
    public let folder: String

    /// The offers of the device root at `root`.
    public init(root: String) { folder = root + "/Handoff/Current" }

    /// Offers `offer` in place of `previous` (this process's earlier offer, which must not be
    /// withdrawn afterwards: the new one took its name); the offer stands until the returned
    /// publication is withdrawn or the process ends.
    public func publish(_ offer: ActivityOffer, replacing previous: Publication? = nil) throws(HandoffError) -> Publication {
        let name = "\(offer.bundleIdentifier).\(offer.processIdentifier).activity"
        do {
            // Private to the user: an offer's userInfo is the app's state (the files are 0600 too).
            try FileSystem.makeDirectories(folder, permissions: 0o700)
            let directory = try OwnedDescriptor.openFolder(folder, followLinks: true)
            let temporary = try TemporaryFile(in: directory, prefix: "." + name + ".tmp-")
            do {
                guard try temporary.file.tryLock(.exclusive) else { throw HandoffError.system("\(folder): a new file was locked by another process") }
                try temporary.file.writeAll(offer.encoded())
                try directory.renameReplacing(temporary.name, to: directory, as: Array(name.utf8))
            } catch {
                try? directory.remove(temporary.name)
                throw error
            }
            previous?.supersede()
            return Publication(file: temporary.file, path: folder + "/" + name)
        } catch let error as HandoffError {
            throw error
        } catch {
            throw .system("\(folder)/\(name): \(error)")
        }
    }

    /// The offers whose processes still hold them, newest first. A file whose process ended is
    /// left out and removed; one that does not decode is left out.
    public func live() -> [ActivityOffer] {
        var offers: [ActivityOffer] = []
        for name in FileSystem.entries(of: folder) where name.hasSuffix(".activity") && !name.hasPrefix(".") {
            let path = folder + "/" + name
            guard let file = try? OwnedDescriptor.open(path, .readOnly) else { continue }
            guard let free = try? file.tryLock(.shared) else { continue }
            if free {
                // Its process ended. Removed only while the name still holds the file locked here:
                // the process that could write this name again is a new one with the same pid and app.
                if let held = try? file.status(), FileSystem.status(path)?.inode == held.inode { try? FileSystem.remove(path) }
                continue
            }
            if let bytes = try? file.readAll(), let offer = try? ActivityOffer.decode(bytes) { offers.append(offer) }
        }
        return offers.sorted { $0.madeCurrent > $1.madeCurrent }
    }
}

/// One offer standing: its file, locked while this object lives, until ``withdraw()``.
public final class Publication: Sendable {
    let file: OwnedDescriptor
    /// Where the offer is.
    public let path: String
    private let superseded = Mutex(false)

    init(file: OwnedDescriptor, path: String) {
        self.file = file
        self.path = path
    }

    /// Withdraws the offer (nothing when a newer offer of this process replaced it).
    public func withdraw() {
        superseded.withLock { done in
            if !done { try? FileSystem.remove(path) }
            done = true
        }
    }

    func supersede() { superseded.withLock { $0 = true } }
}
