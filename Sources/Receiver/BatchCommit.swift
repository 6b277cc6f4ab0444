import Handlers
import OpenRequests
import SystemCalls

extension InboxMover {
    /// Journals, renames (or copies) and flushes a batch of admitted entries: one journal
    /// transaction, the renames, one flush per folder, one completion transaction.
    func commit(_ batch: [ReadyEntry], from inbox: OwnedDescriptor, to target: OwnedDescriptor) -> [EntryOutcome] {
        guard !batch.isEmpty else { return [] }
        var ids: [Int64?] = Array(repeating: nil, count: batch.count)
        if let manifest {
            do {
                ids = try manifest.beginMoves(batch.map {
                    MoveIntent(name: $0.name, planned: DisplayName.of($0.name), status: $0.status, sha256: $0.sha256,
                               request: $0.request?.request, type: $0.type)
                })
            } catch {
                return batch.map { EntryOutcome(name: $0.name, outcome: .deferred("\(error)")) }
            }
            FaultInjection.checkpoint("intent")
        }
        let journaled = ids.compactMap { $0 }
        Self.inFlight.withLock { $0.formUnion(journaled) }
        defer { Self.inFlight.withLock { $0.subtract(journaled) } }
        var outcomes: [Outcome] = []
        var crossing: [Int] = []   // on another file system: copied below
        for (k, item) in batch.enumerated() {
            if let renamed = rename(item.name, expecting: item.status, from: inbox, to: target) {
                if case .moved = renamed { FaultInjection.checkpoint("renamed") }
                outcomes.append(renamed)
            } else {
                crossing.append(k)
                outcomes.append(.deferred("not copied"))
            }
        }
        var copies: [Int: FinishedCopy] = [:]
        if !crossing.isEmpty {
            let batchStart = Int(clock.now() * 1e6)
            let tokens = Dictionary(uniqueKeysWithValues: crossing.map { k in (k, ids[k].map { String($0) } ?? "p\(CurrentProcess.id)-\(batchStart)-\(k)") })
            // Claims first, made durable together: after a power loss the original is under its
            // claim, where recovery looks for it once the copy is complete.
            var claimed: [Int] = []
            for k in crossing {
                if let failure = claim(batch[k], token: tokens[k]!, in: inbox) { outcomes[k] = .deferred(failure) } else { claimed.append(k) }
            }
            if !claimed.isEmpty {
                do { try inbox.sync() } catch {
                    for k in claimed {
                        Self.giveBack(EntryNames.claim(tokens[k]!), from: inbox, to: inbox, as: batch[k].name)
                        outcomes[k] = .deferred("flushing the Inbox failed: \(error.errno)")
                    }
                    claimed = []
                }
            }
            for k in claimed {
                switch copy(batch[k], token: tokens[k]!, from: inbox, to: target) {
                case .done(let done): copies[k] = done; outcomes[k] = .moved(done.stored); FaultInjection.checkpoint("renamed")
                case .failed(let why): outcomes[k] = .deferred(why)
                }
            }
        }
        let movedAny = outcomes.contains { if case .moved = $0 { true } else { false } }
        if movedAny {
            do { try target.sync() } catch {
                // Renamed but not known durable: the rows stay `moving`, settled by the next start.
                return zip(batch, outcomes).map { item, outcome in
                    if case .moved = outcome { return EntryOutcome(name: item.name, outcome: .deferred("moved, but flushing the working folder failed")) }
                    return EntryOutcome(name: item.name, outcome: outcome)
                }
            }
        }
        FaultInjection.checkpoint("flushed")
        if !copies.isEmpty {
            // The copies are durable under their final names: journal those names before the
            // Inbox copies go, so that recovery keeps the copy and removes the original.
            if let manifest {
                do {
                    try manifest.transaction { () throws(ReceiverError) in
                        for (k, done) in copies { if let id = ids[k] { try manifest.markCopied(id, storedAs: done.stored) } }
                    }
                } catch {
                    for k in copies.keys { outcomes[k] = .deferred("copied, but the journal could not record it: \(error)") }
                    return zip(batch, outcomes).map { EntryOutcome(name: $0.name, outcome: $1) }
                }
                FaultInjection.checkpoint("copied")
            }
            for done in copies.values {
                try? target.remove(done.partial)
                try? inbox.remove(done.claim)
            }
            try? target.sync()
        }
        try? inbox.sync()
        if let manifest {
            let now = clock.now()
            try? manifest.transaction { () throws(ReceiverError) in
                for (k, outcome) in outcomes.enumerated() {
                    guard let id = ids[k] else { continue }
                    if case .moved(let stored) = outcome { try manifest.finish(id, storedAs: stored, time: now) } else { try manifest.finish(id, storedAs: nil, time: now) }
                }
            }
            // The requests of stored documents are in the manifest now.
            for (item, outcome) in zip(batch, outcomes) {
                if case .moved = outcome, let request = item.request { try? FileSystem.remove(request.path) }
            }
        }
        return zip(batch, outcomes).map { EntryOutcome(name: $0.name, outcome: $1) }
    }

    /// `renameat2(RENAME_NOREPLACE)` into the working folder under the name or the first free
    /// `name-N`; `nil` when the two folders are on different file systems (`EXDEV`).
    /// A rename moves whatever the name holds now: when that is not the file that was checked
    /// (swapped for a link or another file since, case 21), it goes back to the Inbox.
    func rename(_ name: [UInt8], expecting judged: FileStatus, from inbox: OwnedDescriptor, to target: OwnedDescriptor) -> Outcome? {
        for attempt in 0..<FreeName.attempts {
            let candidate = EntryNames.free(name, attempt)
            do {
                try inbox.rename(name, to: target, as: candidate)
            } catch {
                switch error.errno {
                case .fileExists: continue
                case .noSuchFileOrDirectory: return .deferred("gone during the move (another receiver took it)")
                case .improperLink: return nil
                default: return .deferred("cannot rename: \(error.errno)")
                }
            }
            guard Self.holds(candidate, in: target, judged) else {
                Self.giveBack(candidate, from: target, to: inbox, as: name)
                return .deferred("replaced during the move")
            }
            return .moved(DisplayName.of(candidate))
        }
        return .deferred("no free name in the working folder")
    }

    /// Whether `name` in `folder` is the file `judged` describes, not followed (``FileStatus/isSameFile(as:)``).
    static func holds(_ name: [UInt8], in folder: OwnedDescriptor, _ judged: FileStatus) -> Bool {
        guard let now = try? folder.status(of: name) else { return false }
        return now.isSameFile(as: judged)
    }

    /// Moves `name` back into the Inbox under `original` or its first free `original-N`.
    static func giveBack(_ name: [UInt8], from folder: OwnedDescriptor, to inbox: OwnedDescriptor, as original: [UInt8]) {
        for attempt in 0..<FreeName.attempts {
            do {
                try folder.rename(name, to: inbox, as: EntryNames.free(original, attempt))
                return
            } catch {
                if error.errno != .fileExists { return }
            }
        }
    }
}
