import OrderedCollections
import PropertyLists
import Synchronization
import SystemCalls

/// The engine behind ``SharedDefaults``: one suite's values as this process last saw them, kept
/// in step with the files every process shares.
///
/// - A read compares the shared sequence word with the one seen last (no system call); only when
///   it moved does it read what was appended to the journal since (under the shared lock).
/// - A write appends one record to the journal (one `write`, under the shared lock), bumps the
///   sequence and wakes sleeping observers: when it returns, every other process's next read
///   sees it, and it survives the writer being killed (it is in the kernel's page cache).
/// - A merge (``merge()``: `synchronize()`, or in the background once writes pause) folds the
///   journal into the property list under the exclusive lock: a new file written, flushed and
///   renamed over the old, then the journal emptied. Only then does a change survive a power loss.
final class SuiteStore: Sendable {
    let location: DefaultsLocation
    let state = Mutex(State())

    struct State: Sendable {
        var files: SuiteFiles?
        var values: OrderedDictionary<String, PropertyList> = [:]
        var seenSequence: UInt32 = 0
        var generation: UInt64 = .max
        var journalOffset = 0
        /// Where the journal ended at the last look (torn bytes included).
        var journalEnd = 0
        var propertyListStatus: FileStatus?
        /// Keys changed by refreshes since observers last asked (kept only while observed).
        var changedKeys: Set<String> = []
        var observed = false
        var lastError: SharedDefaultsError?
        /// Whether a failure happened that no `synchronize()` has reported yet.
        var failureUnreported = false
        /// When this process last appended (monotonic seconds), and whether a merge is due.
        var lastAppend = 0.0
        var unmerged = false
        /// Bytes this object appended since its last merge: a writer that never pauses still
        /// merges once it has written ``mergeAfterBytes``.
        var appendedSinceMerge = 0
    }

    init(_ location: DefaultsLocation) { self.location = location }

    /// Calls `body` with the values as they are now.
    func withValues<R>(_ body: (borrowing OrderedDictionary<String, PropertyList>) -> R) -> R {
        state.withLock { s in
            if s.files == nil || s.files!.sequence != s.seenSequence { refresh(&s) }
            return body(s.values)
        }
    }

    /// Appends `record` and applies it here.
    func append(_ record: JournalRecord) throws(SharedDefaultsError) {
        let bytes = record.encoded()
        guard bytes.count <= JournalRecord.headerSize + JournalRecord.maximumPayload else {
            throw .valueTooLarge(key: record.key ?? "the domain", bytes: bytes.count)
        }
        try state.withLock { (s) throws(SharedDefaultsError) in
            let files = try openedFiles(&s)
            do throws(SystemCallError) {
                try files.control.lock(.shared)
                defer { files.control.unlock() }
                try files.journal.writeAll(bytes)
            } catch {
                s.lastError = .system(error)
                throw .system(error)
            }
            FaultInjection.checkpoint("defaults-appended")
            files.announceChange(merged: false)
            record.apply(to: &s.values)
            s.lastAppend = Clock.monotonic()
            s.unmerged = true
            s.appendedSinceMerge += bytes.count
        }
        BackgroundMerger.shared.schedule(self)
    }

    /// A writer that never pauses merges after this many bytes of its own records, so that the
    /// journal a new process must read stays short.
    static let mergeAfterBytes = 1 << 20

    /// Reads the current values (under the exclusive lock), changes them with `body`, and appends
    /// the records it returns: a read-modify-write no other process can interleave with.
    func update(_ body: (OrderedDictionary<String, PropertyList>) throws(SharedDefaultsError) -> [JournalRecord]) throws(SharedDefaultsError) {
        try state.withLock { (s) throws(SharedDefaultsError) in
            let files = try openedFiles(&s)
            do throws(SystemCallError) { try files.control.lock(.exclusive) } catch { throw .system(error) }
            defer { files.control.unlock() }
            try load(&s, files: files)
            let records = try body(s.values)
            for record in records {
                do throws(SystemCallError) { try files.journal.writeAll(record.encoded()) } catch { throw .system(error) }
                record.apply(to: &s.values)
            }
            if !records.isEmpty {
                files.announceChange(merged: false)
                s.unmerged = true
                s.lastAppend = Clock.monotonic()
            }
        }
        BackgroundMerger.shared.schedule(self)
    }

    /// Folds the journal into the property list, flushed to the disk; the values afterwards.
    @discardableResult
    func merge() throws(SharedDefaultsError) -> OrderedDictionary<String, PropertyList> {
        try state.withLock { (s) throws(SharedDefaultsError) -> OrderedDictionary<String, PropertyList> in
            let files = try openedFiles(&s)
            do throws(SystemCallError) { try files.control.lock(.exclusive) } catch { throw .system(error) }
            defer { files.control.unlock() }
            // Not retried on its own when it fails (an unreadable property list stays so): the
            // next write asks again.
            s.unmerged = false
            s.appendedSinceMerge = 0
            try load(&s, files: files)
            removeStaleTemporaryFiles()
            guard s.journalEnd > 0 || s.propertyListStatus == nil && !s.values.isEmpty else { return s.values }
            do throws(SystemCallError) {
                try AtomicFile.write(BinaryPropertyListWriter().write(.dictionary(s.values)), to: location.propertyList, permissions: 0o600)
                FaultInjection.checkpoint("defaults-merged")
                try files.journal.truncate(to: 0)
            } catch {
                s.lastError = .system(error)
                throw .system(error)
            }
            files.announceChange(merged: true)
            s.generation = files.generation
            s.seenSequence = files.sequence
            s.journalOffset = 0
            s.journalEnd = 0
            s.propertyListStatus = FileSystem.status(location.propertyList)
            return s.values
        }
    }

    /// Removes the suite: the journal emptied and the property list deleted, under the exclusive
    /// lock (`defaults delete DOMAIN`). The shared file stays: other processes may have it mapped.
    func removeAll() throws(SharedDefaultsError) {
        try state.withLock { (s) throws(SharedDefaultsError) in
            let files = try openedFiles(&s)
            do throws(SystemCallError) {
                try files.control.lock(.exclusive)
                defer { files.control.unlock() }
                try files.journal.truncate(to: 0)
                if FileSystem.exists(location.propertyList) { try FileSystem.remove(location.propertyList) }
                try FileSystem.syncFolder(location.folder)
            } catch { throw .system(error) }
            files.announceChange(merged: true)
            s.values = [:]
            s.generation = files.generation
            s.seenSequence = files.sequence
            s.journalOffset = 0
            s.journalEnd = 0
            s.propertyListStatus = nil
            s.unmerged = false
        }
    }

    /// Keys changed by other processes since the last call (observers).
    func takeChangedKeys() -> Set<String> {
        state.withLock { s in
            s.observed = true
            if s.files == nil || s.files!.sequence != s.seenSequence { refresh(&s) }
            defer { s.changedKeys = [] }
            return s.changedKeys
        }
    }

    /// Whether a merge is due: this object wrote and has not written for `idle` seconds, or has
    /// written ``mergeAfterBytes`` since its last merge.
    func mergeIsDue(idle: Double, now: Double) -> (due: Bool, pending: Bool) {
        state.withLock { s in (s.unmerged && (now - s.lastAppend >= idle || s.appendedSinceMerge >= Self.mergeAfterBytes), s.unmerged) }
    }

    /// The last error a read, a write or a background merge met.
    var lastError: SharedDefaultsError? { state.withLock { $0.lastError } }

    /// Keeps `error` as the last error; `reported` when the caller is telling its own caller now.
    func record(_ error: SharedDefaultsError, reported: Bool = false) {
        state.withLock { s in
            s.lastError = error
            if !reported { s.failureUnreported = true }
        }
    }

    /// Whether a failure happened since the last call that no one was told of.
    func takeUnreportedFailure() -> Bool { state.withLock { s in defer { s.failureUnreported = false }; return s.failureUnreported } }

    /// The open files, opened on first use.
    func files() throws(SharedDefaultsError) -> SuiteFiles { try state.withLock { (s) throws(SharedDefaultsError) in try openedFiles(&s) } }

    // MARK: Internals (the state's lock is held)

    private func openedFiles(_ s: inout State) throws(SharedDefaultsError) -> SuiteFiles {
        if let files = s.files { return files }
        let files = try SuiteFiles(location)
        s.files = files
        return files
    }

    /// Catches up with the files under the shared lock; a failure is kept in `lastError` and
    /// the values stay as they were.
    private func refresh(_ s: inout State) {
        do {
            let files = try openedFiles(&s)
            do { try files.control.lock(.shared) } catch { throw SharedDefaultsError.system(error) }
            defer { files.control.unlock() }
            try load(&s, files: files)
        } catch let error as SharedDefaultsError {
            s.lastError = error
        } catch {}
    }

    /// Reloads the property list when it was merged or replaced, then applies what was appended
    /// to the journal since the last look. The caller holds the lock.
    private func load(_ s: inout State, files: SuiteFiles) throws(SharedDefaultsError) {
        let sequence = files.sequence
        let generation = files.generation
        let status = FileSystem.status(location.propertyList)
        let before = s.observed ? s.values : [:]
        var touched: Set<String>? = []
        if generation != s.generation || !Self.same(status, s.propertyListStatus) {
            s.values = try readPropertyList(status)
            s.journalOffset = 0
            s.generation = generation
            s.propertyListStatus = status
            touched = nil
        }
        let bytes: [UInt8]
        do { bytes = try files.journalBytes(from: s.journalOffset) } catch { throw .system(error) }
        var position = 0
        scan: while position < bytes.count {
            switch JournalRecord.decode(bytes[...], from: position) {
            case .record(let record, let next):
                record.apply(to: &s.values)
                if let key = record.key { touched?.insert(key) } else { touched = nil }
                position = next
            case .damaged(let next): position = next
            case .incomplete: break scan
            }
        }
        s.journalEnd = s.journalOffset + bytes.count
        s.journalOffset += position
        s.seenSequence = sequence
        if s.observed { s.changedKeys.formUnion(Self.changes(from: before, to: s.values, among: touched)) }
    }

    private func readPropertyList(_ status: FileStatus?) throws(SharedDefaultsError) -> OrderedDictionary<String, PropertyList> {
        guard status != nil else { return [:] }
        let value: PropertyList
        do { value = try PropertyListReader.read(contentsOf: .init(location.propertyList)).value } catch {
            throw .unreadableStore(path: location.propertyList, reason: error.description)
        }
        guard case .dictionary(let values) = value else { throw .notADictionary(path: location.propertyList, found: value.typeNameWithArticle) }
        return values
    }

    /// Temporary files left by a merge whose process was killed: only a merge (holding the
    /// exclusive lock, as the caller does) makes them, so any present now is abandoned.
    private func removeStaleTemporaryFiles() {
        let prefix = "." + location.suite + ".plist.tmp-"
        for name in FileSystem.entries(of: location.folder) where name.hasPrefix(prefix) {
            try? FileSystem.remove(location.folder + "/" + name)
        }
    }

    private static func same(_ a: FileStatus?, _ b: FileStatus?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let a?, let b?): a.isSameFile(as: b)
        default: false
        }
    }

    private static func changes(from old: OrderedDictionary<String, PropertyList>, to new: OrderedDictionary<String, PropertyList>,
                                among keys: Set<String>?) -> Set<String> {
        let candidates = keys ?? Set(old.keys).union(new.keys)
        return candidates.filter { old[$0] != new[$0] }
    }
}
