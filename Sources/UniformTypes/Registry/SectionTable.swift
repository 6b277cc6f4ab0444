/// The image's sections, one stored pair per section.
struct SectionTable: Sendable {
    let strings, types, pool, identifierTable, extensionTable, mimeTable, osTypeTable, pasteboardTable, diagnostics, fingerprint, closureRows, appRecords, contentTyping: (offset: Int, count: Int)

    /// Unpacks the sections in `RegistryImageLayout.Section` order from `read(index)`.
    init(_ read: (Int) -> (offset: Int, count: Int)) {
        (strings, types, pool, identifierTable, extensionTable) = (read(0), read(1), read(2), read(3), read(4))
        (mimeTable, osTypeTable, pasteboardTable, diagnostics, fingerprint) = (read(5), read(6), read(7), read(8), read(9))
        closureRows = read(10)
        appRecords = read(11)
        contentTyping = read(12)
    }

    @inline(__always)
    subscript(_ s: RegistryImageLayout.Section) -> (offset: Int, count: Int) {
        switch s {
        case .strings: strings
        case .types: types
        case .pool: pool
        case .identifierTable: identifierTable
        case .extensionTable: extensionTable
        case .mimeTable: mimeTable
        case .osTypeTable: osTypeTable
        case .pasteboardTable: pasteboardTable
        case .diagnostics: diagnostics
        case .fingerprint: fingerprint
        case .closureRows: closureRows
        case .appRecords: appRecords
        case .contentTyping: contentTyping
        }
    }
}
