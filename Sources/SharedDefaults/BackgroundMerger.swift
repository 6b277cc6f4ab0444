import Synchronization
import SystemCalls

/// Merges the journals this process wrote into their property lists once its writes pause, so
/// that the property list (what `plutil` reads) is current soon after, without a merge (a file
/// written and flushed: milliseconds) in the path of any `set`. One thread, started when there is
/// work and ending when there is none.
final class BackgroundMerger: Sendable {
    static let shared = BackgroundMerger()

    /// How long writes must pause before a merge, in seconds.
    static let idleBeforeMerge = 0.05

    private struct Pending: Sendable {
        var stores: [ObjectIdentifier: SuiteStore] = [:]
        var running = false
    }
    private let pending = Mutex(Pending())

    /// Asks for `store` to be merged once its writes pause.
    func schedule(_ store: SuiteStore) {
        let start = pending.withLock { p -> Bool in
            p.stores[ObjectIdentifier(store)] = store
            if p.running { return false }
            p.running = true
            return true
        }
        guard start else { return }
        do { try BackgroundThread.start { self.run() } } catch {
            pending.withLock { $0.running = false }
        }
    }

    private func run() {
        while true {
            Clock.sleep(Self.idleBeforeMerge)
            let stores = pending.withLock { p -> [SuiteStore]? in
                if p.stores.isEmpty { p.running = false; return nil }
                return Array(p.stores.values)
            }
            guard let stores else { return }
            let now = Clock.monotonic()
            for store in stores {
                let (due, pendingWrites) = store.mergeIsDue(idle: Self.idleBeforeMerge, now: now)
                if due { do { try store.merge() } catch { store.record(error) } }
                if !pendingWrites || due {
                    pending.withLock { p in
                        if !store.mergeIsDue(idle: .infinity, now: now).pending { p.stores[ObjectIdentifier(store)] = nil }
                    }
                }
            }
        }
    }
}
