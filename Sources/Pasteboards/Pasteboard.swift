import SystemCalls

/// One pasteboard of a device root, as seen by one client (`UIPasteboard` / `NSPasteboard`).
///
/// Guarantees (docs/pasteboards.md), for any number of processes on the same root:
/// - A write replaces the whole item set at once: a reader sees the item set before it or after
///   it, never part of one, and never a half-written representation.
/// - The change count grows by one per write (and per removal), never goes back: it is stored
///   with the items, so it survives restarts and reboots, and a removed pasteboard made again
///   counts on.
/// - A writer killed with SIGKILL at any point leaves the previous item set or the next one.
/// - Writers are serialised by a lock, so concurrent `addItems` lose nothing.
public struct Pasteboard: Sendable {
    /// The pasteboard's name.
    public let name: PasteboardName
    /// Where it is stored.
    public let store: PasteboardStore
    /// Who is asking.
    public let client: PasteboardClient

    /// The pasteboard `name` of `store` as seen by `client` (use the store's calls, which check
    /// that a named pasteboard exists).
    init(name: PasteboardName, store: PasteboardStore, client: PasteboardClient) {
        self.name = name
        self.store = store
        self.client = client
    }

    // MARK: Reading

    /// What the pasteboard holds now, as one snapshot: read several things from one snapshot so
    /// that they agree with each other.
    /// - Throws: ``PasteboardError/notFound(_:)`` when the client may not see it; a damaged file.
    public func contents() throws(PasteboardError) -> PasteboardContents {
        let read = try store.storage(name).current()
        if let generation = read?.generation, !name.isSystem, !generation.isGone, !generation.owner.isVisible(to: client, name: name) {
            throw .notFound(name)
        }
        return PasteboardContents(generation: read?.generation, name: name, mapping: read?.mapping, dataStart: read?.dataStart ?? 0,
                                  matcher: store.types, now: store.clock.now())
    }

    /// The change count (`changeCount`): 0 for a pasteboard never written.
    public func changeCount() throws(PasteboardError) -> Int { try contents().changeCount }

    /// Every item, copied out (`items`).
    public func items() throws(PasteboardError) -> [PasteboardItem] { try contents().items }

    /// Every type, each once (`types`).
    public func types() throws(PasteboardError) -> [String] { try contents().types }

    /// The bytes of the first representation answering `type` (`data(forPasteboardType:)`).
    public func data(forPasteboardType type: String) throws(PasteboardError) -> [UInt8]? {
        try contents().data(forPasteboardType: type)
    }

    /// The first text (`string`).
    public func string() throws(PasteboardError) -> String? { try contents().string }

    // MARK: Writing

    /// Replaces the items (`setItems(_:options:)`); the new change count.
    @discardableResult
    public func setItems(_ items: [PasteboardItem], options: PasteboardWriteOptions = PasteboardWriteOptions()) throws(PasteboardError) -> Int {
        try replaceItems { _ in (items, options) }
    }

    /// Appends items after the current ones (`addItems(_:)`), keeping the options of the write
    /// that made them; the new change count.
    @discardableResult
    public func addItems(_ items: [PasteboardItem]) throws(PasteboardError) -> Int {
        try replaceItems { current in ((current?.items ?? []) + items, current?.options ?? PasteboardWriteOptions()) }
    }

    /// Replaces the items with one item of one representation (`setData(_:forPasteboardType:)`).
    @discardableResult
    public func setData(_ data: [UInt8], forPasteboardType type: String, options: PasteboardWriteOptions = PasteboardWriteOptions()) throws(PasteboardError) -> Int {
        try setItems([PasteboardItem(representations: [PasteboardRepresentation(type: type, data: data)])], options: options)
    }

    /// Replaces the items with one UTF-8 text item (`string = …`).
    @discardableResult
    public func setString(_ text: String, options: PasteboardWriteOptions = PasteboardWriteOptions()) throws(PasteboardError) -> Int {
        try setItems([PasteboardItem(text: text)], options: options)
    }

    /// Removes every item (`NSPasteboard.clearContents()`); the new change count.
    @discardableResult
    public func clearContents() throws(PasteboardError) -> Int { try setItems([]) }

    /// The one write path: under the lock, `makeItems` gets what is there now (`nil` when nothing
    /// is, or it expired or went away) and says what comes next.
    func replaceItems(_ makeItems: (PasteboardContents?) throws(PasteboardError) -> ([PasteboardItem], PasteboardWriteOptions)) throws(PasteboardError) -> Int {
        try name.validate()
        try store.checkRootForWriting()
        let folder = store.storage(name)
        return try folder.withWriteLock { (session) throws(PasteboardError) -> Int in
            // A damaged generation is replaced (its items are lost; the lock file keeps the count).
            let read: (generation: Generation, mapping: MappedFile, dataStart: Int)?
            do throws(PasteboardError) { read = try folder.current() } catch {
                guard case .damaged = error else { throw error }
                read = nil
            }
            let current = read?.generation
            let alive = current.map { !$0.isGone } ?? false
            if let current, alive, !name.isSystem, !current.owner.isVisible(to: client, name: name) { throw .notFound(name) }
            let now = store.clock.now()
            let snapshot = read.map { PasteboardContents(generation: $0.generation, name: name, mapping: $0.mapping, dataStart: $0.dataStart,
                                                         matcher: store.types, now: now) }
            let (items, options) = try makeItems(snapshot.flatMap { $0.numberOfItems > 0 ? $0 : nil })
            try check(items)
            var next = Generation(name: name)
            next.changeCount = max(current?.changeCount ?? 0, session.recordedCount) + 1
            next.written = now
            next.options = options
            if name.isSystem {
                next.lifetime = .persistent
            } else if let current, alive {
                next.lifetime = current.lifetime
                next.owner = current.owner
                next.processes = current.processes.filter(\.isRunning)
                if current.lifetime == .creatorProcesses && client.bundleIdentifier == current.owner.bundleIdentifier,
                   !next.processes.contains(where: { $0.process == client.process }) {
                    next.processes.append(ProcessRecord(process: client.process, boot: BootIdentity.current))
                }
            } else {
                // Written after it went away: made again, by this client.
                next.lifetime = client.isUser ? .persistent : .creatorProcesses
                next.owner = PasteboardOwner(bundleIdentifier: client.bundleIdentifier, teamIdentifier: client.teamIdentifier)
                next.processes = [ProcessRecord(process: client.process, boot: BootIdentity.current)]
            }
            var offset: Int64 = 0
            next.items = items.map { item in
                item.representations.map { representation in
                    defer { offset += Int64(representation.data.count) }
                    return StoredRepresentation(type: representation.type, offset: offset, length: Int64(representation.data.count))
                }
            }
            try folder.commit(next, data: items.map { $0.representations.map(\.data) }, in: session)
            return Int(next.changeCount)
        }
    }

    /// Checks items against the store's limits and the rules for types.
    func check(_ items: [PasteboardItem]) throws(PasteboardError) {
        let limits = store.limits
        if items.count > limits.maximumItems { throw .tooMany(name, what: "items", count: items.count, limit: limits.maximumItems) }
        var total: Int64 = 0
        for (index, item) in items.enumerated() {
            if item.representations.count > limits.maximumRepresentations {
                throw .tooMany(name, what: "representations in item \(index)", count: item.representations.count, limit: limits.maximumRepresentations)
            }
            var seen: Set<String> = []
            for representation in item.representations {
                let type = representation.type
                if type.isEmpty { throw .invalidType(type, reason: "a type cannot be empty") }
                if type.utf8.count > limits.maximumTypeLength {
                    throw .invalidType(String(type.prefix(40)) + "…", reason: "longer than \(limits.maximumTypeLength) bytes")
                }
                if type.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) { throw .invalidType(type, reason: "it holds a control character") }
                if !seen.insert(type.lowercased()).inserted { throw .duplicateType(type, item: index) }
                total += Int64(representation.data.count)
            }
        }
        if total > limits.maximumBytes { throw .tooLarge(name, bytes: total, limit: limits.maximumBytes) }
    }
}
