import AppRegistry
import SystemCalls
import UniformTypes

/// The pasteboards of a device root, shared by every process that uses the root:
/// `ROOT/Pasteboards/NAME/` per pasteboard (see ``Pasteboard`` for the guarantees).
///
/// ```swift
/// let store = PasteboardStore(root: DeviceRoot.resolve(explicit: nil))
/// try store.general().setItems([PasteboardItem(text: "hello")])
/// let board = try store.pasteboard(named: "com.example.editor.transfer", create: true, for: app)
/// ```
public struct PasteboardStore: Sendable {
    /// The device root.
    public let root: DeviceRoot
    /// What one pasteboard may hold.
    public var limits: PasteboardLimits
    /// Type conformance and MIME mapping, from the root's registry.
    public let types: PasteboardTypeMatcher
    /// Where "now" comes from (expiration dates).
    public var clock: Clock

    /// The pasteboards of `root`; `types` defaults to the root's registry, read on first need.
    public init(root: DeviceRoot, limits: PasteboardLimits = PasteboardLimits(), types: PasteboardTypeMatcher? = nil, clock: Clock = .system) {
        self.root = root
        self.limits = limits
        self.types = types ?? .device(root)
        self.clock = clock
    }

    /// `ROOT/Pasteboards`.
    public var folder: String { root.path + "/Pasteboards" }

    func storage(_ name: PasteboardName) -> PasteboardFolder {
        PasteboardFolder(path: folder + "/" + name.folderName, name: name)
    }

    /// A root named on the command line must exist before anything is written to it.
    func checkRootForWriting() throws(PasteboardError) {
        if root.origin == .explicit && !root.exists { throw .rootMissing(root.path) }
    }

    /// The general pasteboard.
    public func general(for client: PasteboardClient = .user) -> Pasteboard { Pasteboard(name: .general, store: self, client: client) }

    /// The find pasteboard.
    public func find(for client: PasteboardClient = .user) -> Pasteboard { Pasteboard(name: .find, store: self, client: client) }

    /// The pasteboard `name` (`UIPasteboard(name:create:)`): `nil` when it does not exist (or the
    /// client may not see it) and `create` is false. A new named pasteboard belongs to the client
    /// and lives `lifetime` (default: as long as its creator's processes for an app, persistent for
    /// the user); `appGroup` lets that group's members see it too.
    /// - Throws: ``PasteboardError/nameTaken(_:)`` when `create` is true and the name belongs to a
    ///   pasteboard the client may not see; `invalidName`; system errors.
    public func pasteboard(named name: PasteboardName, create: Bool, lifetime: PasteboardLifetime? = nil, sharedWith appGroup: String? = nil,
                           for client: PasteboardClient = .user) throws(PasteboardError) -> Pasteboard? {
        try name.validate()
        let board = Pasteboard(name: name, store: self, client: client)
        if name.isSystem { return board }
        if let current = try storage(name).current()?.generation, !current.isGone {
            guard current.owner.isVisible(to: client, name: name) else {
                if create { throw .nameTaken(name) }
                return nil
            }
            return board
        }
        guard create else { return nil }
        try checkRootForWriting()
        let chosen = lifetime ?? (client.isUser ? .persistent : .creatorProcesses)
        try storage(name).withWriteLock { (session) throws(PasteboardError) in
            let current = try? storage(name).current()?.generation
            if let current, !current.isGone {
                // Created by someone else meanwhile.
                guard current.owner.isVisible(to: client, name: name) else { throw .nameTaken(name) }
                return
            }
            var next = Generation(name: name)
            next.changeCount = max(current?.changeCount ?? 0, session.recordedCount)
            next.written = clock.now()
            next.lifetime = chosen
            next.owner = PasteboardOwner(bundleIdentifier: client.bundleIdentifier, teamIdentifier: client.teamIdentifier, appGroup: appGroup)
            next.processes = [ProcessRecord(process: client.process, boot: BootIdentity.current)]
            try storage(name).commit(next, data: [], in: session)
        }
        return board
    }

    /// A new pasteboard with a unique name (`withUniqueName()`): it lives as long as the client's
    /// processes.
    public func pasteboardWithUniqueName(for client: PasteboardClient = .user, sharedWith appGroup: String? = nil) throws(PasteboardError) -> Pasteboard {
        var generator = SystemRandomNumberGenerator()
        while true {
            let name = PasteboardName("unique." + String(generator.next(), radix: 36))
            if try storage(name).current() == nil {
                if let board = try pasteboard(named: name, create: true, lifetime: .creatorProcesses, sharedWith: appGroup, for: client) {
                    return board
                }
            }
        }
    }

    /// Removes the pasteboard `name` (`remove(withName:)`). Its change count is kept, so a
    /// pasteboard made again under the name counts on from there. Removing one that does not
    /// exist does nothing.
    /// - Throws: ``PasteboardError/systemPasteboard(_:)``, `notFound` when the client may not see it.
    public func remove(named name: PasteboardName, for client: PasteboardClient = .user) throws(PasteboardError) {
        try name.validate()
        if name.isSystem { throw .systemPasteboard(name) }
        guard let current = try storage(name).current()?.generation, !current.removed else { return }
        guard current.owner.isVisible(to: client, name: name) else { throw .notFound(name) }
        try tombstone(name)
    }

    /// Writes a removal (no items, the change count one higher) unless it is removed already.
    func tombstone(_ name: PasteboardName, onlyIfGone: Bool = false) throws(PasteboardError) {
        try storage(name).withWriteLock { (session) throws(PasteboardError) in
            guard let current = try storage(name).current()?.generation, !current.removed else { return }
            if onlyIfGone && !current.isGone { return }
            var next = Generation(name: name)
            next.changeCount = current.changeCount + 1
            next.removed = true
            next.written = clock.now()
            next.owner = current.owner
            try storage(name).commit(next, data: [], in: session)
        }
    }

    /// The pasteboards that exist and that `client` may see, system ones first, then by name.
    public func names(visibleTo client: PasteboardClient = .user) throws(PasteboardError) -> [PasteboardName] {
        var named: [PasteboardName] = []
        var system: [PasteboardName] = []
        for entry in FileSystem.entries(of: folder) where !entry.hasPrefix(".") {
            let guess = PasteboardName.decode(folderName: entry)
            let path = folder + "/" + entry
            guard let mapping = try? MappedFile(path: path + "/content") else { continue }
            let bytes = UnsafeRawBufferPointer(start: mapping.base, count: mapping.count)
            guard let generation = try? Generation.decode(bytes, path: path + "/content"), !generation.isGone,
                  guess == nil || guess == generation.name, generation.owner.isVisible(to: client, name: generation.name) else { continue }
            if generation.name.isSystem { system.append(generation.name) } else { named.append(generation.name) }
        }
        return PasteboardName.system.filter(system.contains) + named.sorted()
    }

    /// Removes the creator-lifetime pasteboards whose processes have all ended (what the desktop
    /// bridge does from time to time; readers already see them as absent). The names removed.
    @discardableResult
    public func removeAbandoned() throws(PasteboardError) -> [PasteboardName] {
        var removed: [PasteboardName] = []
        for entry in FileSystem.entries(of: folder) where entry.hasPrefix("n-") || entry.hasPrefix("h-") {
            let path = folder + "/" + entry + "/content"
            guard let mapping = try? MappedFile(path: path),
                  let generation = try? Generation.decode(UnsafeRawBufferPointer(start: mapping.base, count: mapping.count), path: path),
                  !generation.removed, generation.isGone else { continue }
            try tombstone(generation.name, onlyIfGone: true)
            removed.append(generation.name)
        }
        return removed
    }
}
