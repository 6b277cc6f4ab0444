import SystemCalls

/// What one pasteboard held at one change count: a snapshot that later writes do not change
/// (the generation file it reads from is mapped, and writers only ever replace the file).
///
/// Representation bytes are read from the mapping on request, so listing types or the change
/// count costs nothing for a large item.
public struct PasteboardContents: Sendable {
    /// The pasteboard.
    public let name: PasteboardName
    /// The change count of this generation (0 for a pasteboard never written).
    public let changeCount: Int
    /// The options of the write that made it.
    public let options: PasteboardWriteOptions
    /// How long the pasteboard lives.
    public let lifetime: PasteboardLifetime
    /// Who owns it.
    public let owner: PasteboardOwner
    /// Whether the write's expiration date has passed: then it has no items.
    public let isExpired: Bool
    /// When it was written, in seconds since 1970 (0 when never).
    public let written: Double

    let stored: [[StoredRepresentation]]
    let mapping: MappedFile?
    let dataStart: Int
    let matcher: PasteboardTypeMatcher

    init(generation: Generation?, name: PasteboardName, mapping: MappedFile?, dataStart: Int, matcher: PasteboardTypeMatcher, now: Double) {
        self.name = name
        self.changeCount = Int(generation?.changeCount ?? 0)
        self.options = generation?.options ?? PasteboardWriteOptions()
        self.lifetime = generation?.lifetime ?? .persistent
        self.owner = generation?.owner ?? PasteboardOwner()
        self.written = generation?.written ?? 0
        let expired = generation?.options.expirationDate.map { now >= $0 } ?? false
        self.isExpired = expired
        self.stored = expired || generation?.isGone == true ? [] : generation?.items ?? []
        self.mapping = mapping
        self.dataStart = dataStart
        self.matcher = matcher
    }

    /// How many items (`numberOfItems`).
    public var numberOfItems: Int { stored.count }

    /// The types of item `index`, in the writer's order.
    public func types(inItem index: Int) -> [String] {
        stored.indices.contains(index) ? stored[index].map(\.type) : []
    }

    /// Every type on the pasteboard, each once, in order of first appearance (`types`).
    public var types: [String] {
        var seen: Set<String> = []
        var result: [String] = []
        for item in stored { for representation in item where seen.insert(representation.type.lowercased()).inserted { result.append(representation.type) } }
        return result
    }

    /// Whether item `index` (any item when `nil`) has a representation answering one of `types`.
    public func contains(pasteboardTypes types: [String], inItem index: Int? = nil) -> Bool {
        let items = index.map { [$0] } ?? Array(stored.indices)
        return items.contains { item in types.contains { representationIndex(of: $0, inItem: item) != nil } }
    }

    /// Which representation of item `index` answers a request for `type`: the same type if the
    /// item has it, else the first (in the writer's order) that conforms to it.
    public func representationIndex(of type: String, inItem index: Int) -> Int? {
        guard stored.indices.contains(index) else { return nil }
        let item = stored[index]
        if let exact = item.firstIndex(where: { PasteboardType.same($0.type, type) }) { return exact }
        return item.firstIndex { matcher.conforms($0.type, to: type) }
    }

    /// The first item with a representation answering `type`, and which representation.
    public func firstMatch(for type: String) -> (item: Int, representation: Int)? {
        for item in stored.indices {
            if let representation = representationIndex(of: type, inItem: item) { return (item, representation) }
        }
        return nil
    }

    /// The bytes for `type` in item `index` (the first item that has it when `nil`).
    public func data(forPasteboardType type: String, inItem index: Int? = nil) -> [UInt8]? {
        withBytes(forPasteboardType: type, inItem: index) { Array($0) }
    }

    /// Calls `body` with the bytes for `type` in item `index` (the first item that has it when
    /// `nil`) straight from the mapped file, without copying; `nil` when no representation answers.
    public func withBytes<R>(forPasteboardType type: String, inItem index: Int? = nil, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R? {
        let found: (item: Int, representation: Int)?
        if let index { found = representationIndex(of: type, inItem: index).map { (index, $0) } } else { found = firstMatch(for: type) }
        guard let found else { return nil }
        return try withBytes(item: found.item, representation: found.representation, body)
    }

    /// Calls `body` with the bytes of one representation.
    public func withBytes<R>(item: Int, representation: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let entry = stored[item][representation]
        guard let mapping, entry.length > 0 else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeRawBufferPointer(start: mapping.base + dataStart + Int(entry.offset), count: Int(entry.length)))
    }

    /// The size in bytes of one representation.
    public func byteCount(item: Int, representation: Int) -> Int { Int(stored[item][representation].length) }

    /// Item `index`, every representation copied out.
    public func item(at index: Int) -> PasteboardItem {
        PasteboardItem(representations: stored[index].indices.map { r in
            PasteboardRepresentation(type: stored[index][r].type, data: withBytes(item: index, representation: r) { Array($0) })
        })
    }

    /// Every item, copied out (`items`).
    public var items: [PasteboardItem] { stored.indices.map(item(at:)) }

    /// The first text on the pasteboard (`string`): a representation conforming to `public.text`
    /// read as UTF-8, preferring `public.utf8-plain-text`.
    public var string: String? {
        let bytes = data(forPasteboardType: PasteboardType.utf8PlainText) ?? data(forPasteboardType: PasteboardType.text)
        return bytes.map { String(decoding: $0, as: UTF8.self) }
    }
}
