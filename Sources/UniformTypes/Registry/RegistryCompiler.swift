/// Turns declarations into the tables a ``TypeRegistry`` answers from: one winner per identifier,
/// dense numbers, parents, transitive supertypes and ranked tag indexes.
///
/// Precedence between declarations of one identifier (compared ignoring ASCII case): system
/// (the `UTIs/` catalog) over exported over imported; between equals, the declaration whose source
/// (bundle identifier or catalog file) sorts first, so the result never depends on the order apps
/// were registered in. Every declaration that lost is reported. Types made from the shared MIME
/// database (``SharedMIMEImport``) are system declarations placed after all others: between
/// claims of one tag they rank after the catalog's and, being the system's, before the apps'.
struct RegistryCompiler {
    typealias TypeID = TypeRegistry.TypeID

    var identifiers: [String] = []
    var declarations: [TypeDeclaration?] = []
    var parents: [[TypeID]] = []
    var ancestors: [[TypeID]] = []
    var tagIndex: [TagClass: [(tag: String, candidates: [TypeID])]] = [:]
    var diagnostics: [RegistryDiagnostic] = []
    /// Globs and magic for content typing, from the shared MIME database.
    var contentTyping = ContentTypingInput()

    /// Compiles declarations; with a shared MIME database, its types are merged in first
    /// (``SharedMIMEImport``: they come after the given declarations, so they rank after them).
    init(declarations given: [TypeDeclaration], mimeAliases: MIMEAliases = .init(), mimeDatabase: SharedMIMEDatabase? = nil) {
        var all = given
        if let mimeDatabase { (all, contentTyping) = SharedMIMEImport.merge(given, with: mimeDatabase) }
        // 1. One winner per identifier.
        var groups: [String: [TypeDeclaration]] = [:]
        var order: [String] = []
        for d in all {
            let key = d.normalizedIdentifier
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(d)
        }
        var winners: [TypeDeclaration] = []
        for key in order {
            let candidates = groups[key]!.sorted { a, b in
                a.kind != b.kind ? a.kind > b.kind
                    : a.source != b.source ? a.source < b.source : a.keyPath.description < b.keyPath.description
            }
            winners.append(candidates[0])
            for loser in candidates.dropFirst() where loser.source != candidates[0].source || loser.kind != candidates[0].kind {
                diagnostics.append(.overridden(identifier: loser.identifier, loser: loser.source, loserKind: loser.kind,
                                               winner: candidates[0].source, winnerKind: candidates[0].kind))
            }
        }

        // 2. Numbers: declared types first, then parents nothing declares.
        identifiers = winners.map(\.identifier)
        var numbers: [String: TypeID] = [:]
        for (i, d) in winners.enumerated() { numbers[d.normalizedIdentifier] = TypeID(i) }
        declarations = winners
        for d in winners {
            var list: [TypeID] = []
            for parent in d.conformsTo {
                let key = TypeIdentifierSyntax.normalized(parent)
                if key == d.normalizedIdentifier {
                    diagnostics.append(.selfConformance(identifier: d.identifier, source: d.source))
                    continue
                }
                if numbers[key] == nil {
                    numbers[key] = TypeID(identifiers.count)
                    identifiers.append(parent)
                    declarations.append(nil)
                    diagnostics.append(.undeclaredParent(identifier: d.identifier, parent: parent, source: d.source))
                }
                let id = numbers[key]!
                if !list.contains(id) { list.append(id) }
            }
            parents.append(list)
        }
        while parents.count < identifiers.count { parents.append([]) }

        // 3. Transitive closure, iteratively, visiting each node once per root so cycles end.
        var seen = [Int32](repeating: -1, count: identifiers.count)
        var cyclic: [TypeID] = []
        for root in 0..<identifiers.count {
            var stack = parents[root]
            var found: [TypeID] = []
            seen[root] = Int32(root)
            var inCycle = false
            while let next = stack.popLast() {
                if next == TypeID(root) { inCycle = true; continue }
                if seen[Int(next)] == Int32(root) { continue }
                seen[Int(next)] = Int32(root)
                found.append(next)
                stack.append(contentsOf: parents[Int(next)])
            }
            if inCycle { cyclic.append(TypeID(root)) }
            ancestors.append(found.sorted())
        }
        for id in cyclic {
            diagnostics.append(.cycle(identifier: identifiers[Int(id)], source: declarations[Int(id)]?.source ?? ""))
        }

        // 4. Tag indexes, best candidate first, in a stable order.
        var tables: [TagClass: [String: [TypeID]]] = [:]
        for (i, d) in winners.enumerated() {
            for (tagClass, tags) in d.tags {
                for tag in tags where !tag.isEmpty {
                    let key = tagClass.normalized(tag)
                    if tables[tagClass]?[key]?.contains(TypeID(i)) == true { continue }
                    tables[tagClass, default: [:]][key, default: []].append(TypeID(i))
                }
            }
        }
        // A MIME alias finds what its other name finds, when only one of the two is declared. A
        // canonical name several declared aliases stand for is resolved only when they agree.
        if let declared = tables[.mimeType] {
            var mime = declared
            var viaAliases: [String: [TypeID]] = [:]
            var ambiguous: Set<String> = []
            for (alias, canonical) in mimeAliases.pairs {
                if declared[alias] == nil, let found = declared[canonical] { mime[alias] = found }
                if declared[canonical] == nil, let found = declared[alias] {
                    if let earlier = viaAliases[canonical], earlier != found { ambiguous.insert(canonical) }
                    viaAliases[canonical] = found
                }
            }
            for (canonical, found) in viaAliases where !ambiguous.contains(canonical) { mime[canonical] = found }
            tables[.mimeType] = mime
        }
        for (tagClass, table) in tables {
            tagIndex[tagClass] = table.keys.sorted().map { tag in
                (tag, Self.ranked(table[tag]!, declarations: winners))
            }
        }
    }

    /// Orders the types claiming one tag as macOS answers them (``TagClaimOrder``).
    static func ranked(_ candidates: [TypeID], declarations: [TypeDeclaration]) -> [TypeID] {
        candidates.sorted { TagClaimOrder.precedes(declarations[Int($0)], at: Int($0), declarations[Int($1)], at: Int($1)) }
    }
}
