import Synchronization
import SystemCalls

/// A change to a suite seen by an observer: the keys whose values differ from what this
/// process last saw (set, changed or removed, by another process or another object).
public struct DefaultsChange: Sendable, Hashable {
    /// The keys, sorted.
    public var keys: [String]
}

/// An observation started by ``SharedDefaults/observe(_:)``; it ends when ``cancel()`` is called
/// or this object is released.
public final class DefaultsObservation: Sendable {
    private let cancelled = Atomic(false)

    init() {}

    /// Stops the observation: the handler is not called again once this returns (a call in
    /// progress finishes).
    public func cancel() { cancelled.store(true, ordering: .sequentiallyConsistent) }

    var isCancelled: Bool { cancelled.load(ordering: .sequentiallyConsistent) }

    deinit { cancel() }
}

extension SharedDefaults {
    /// Calls `handler` on a thread of its own whenever other processes (or other objects of this
    /// process) change the suite, typically within tens of microseconds of their `set`: the
    /// thread sleeps on the suite's shared sequence word (a futex) and writers wake it.
    /// - Returns: the observation; keep it, and cancel it (or let it go) to stop.
    /// - Throws: ``SharedDefaultsError/system(_:)`` when the suite's files or the thread cannot
    ///   be set up.
    public func observe(_ handler: @escaping @Sendable (DefaultsChange) -> Void) throws(SharedDefaultsError) -> DefaultsObservation {
        let files = try store.files()
        _ = store.takeChangedKeys()
        let observation = DefaultsObservation()
        let store = self.store
        do {
            try BackgroundThread.start { [weak observation] in
                Self.watch(store, files: files, handler: handler) { observation?.isCancelled ?? true }
            }
        } catch { throw .system(error) }
        return observation
    }

    /// The observer's loop: sleep while the sequence word holds what was last seen (counting
    /// ourselves among the sleepers, so that writers know to wake us), then report the changes.
    private static func watch(_ store: SuiteStore, files: SuiteFiles, handler: @Sendable (DefaultsChange) -> Void,
                              isCancelled: () -> Bool) {
        var seen = files.sequence
        while !isCancelled() {
            files.shared.add32(1, at: SharedCounter.waitersOffset)
            // Sleeps only while the word still holds `seen`; a bounded wait lets a cancelled
            // observation end within a quarter second.
            try? files.shared.wait(at: SharedCounter.sequenceOffset, whileEqualTo: seen, timeout: 0.25)
            files.shared.subtract32(1, at: SharedCounter.waitersOffset)
            let now = files.sequence
            guard now != seen, !isCancelled() else { continue }
            seen = now
            let keys = store.takeChangedKeys()
            if !keys.isEmpty { handler(DefaultsChange(keys: keys.sorted())) }
        }
    }
}
