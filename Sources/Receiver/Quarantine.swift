import Handlers
import OpenRequests
import SystemCalls

extension InboxMover {
    /// Moves a refused entry (whatever it is: a link is moved, not followed) into
    /// `Library/Quarantine/`, never replacing anything, and records why, with the sender and
    /// annotation of its open request (whose file then goes: it is in the manifest).
    func quarantine(_ refusal: Refusal, from inbox: OwnedDescriptor) -> Outcome {
        let folder: OwnedDescriptor
        do {
            try FileSystem.makeDirectories(container.quarantine)
            folder = try OwnedDescriptor.openFolder(container.quarantine)
        } catch { return .refused(refusal.reason) }
        for attempt in 0..<FreeName.attempts {
            let candidate = EntryNames.free(refusal.name, attempt)
            do { try inbox.rename(refusal.name, to: folder, as: candidate) } catch {
                if error.errno == .fileExists { continue }
                return .refused(refusal.reason)
            }
            // The entry may have been swapped since it was judged (case 21): what was moved
            // must be what was refused, else it goes back to the Inbox for a fresh look.
            guard Self.holds(candidate, in: folder, refusal.judged) else {
                Self.giveBack(candidate, from: folder, to: inbox, as: refusal.name)
                return .deferred("replaced while it was being quarantined")
            }
            try? folder.sync()
            try? inbox.sync()
            let stored = DisplayName.of(candidate)
            do {
                try manifest?.recordQuarantine(name: refusal.name, storedAs: stored, status: refusal.judged, type: refusal.type,
                                               reason: refusal.reason, request: refusal.request?.request, time: clock.now())
                if let request = refusal.request { try? FileSystem.remove(request.path) }
            } catch {
                logger.error("quarantine not recorded", metadata: ["name": "\(stored)", "error": "\(error)"])
            }
            return .quarantined(refusal.reason, storedAs: stored)
        }
        return .refused(refusal.reason)
    }
}
