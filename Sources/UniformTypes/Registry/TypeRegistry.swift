/// Every known type with its conformance graph and tag indexes, built once from declarations.
///
/// Identifiers are interned to dense integers; each type's transitive supertypes are precomputed
/// (a sorted array, so a conformance test is a binary search in a handful of entries), and
/// extension and MIME tags have hash indexes ordered by preference.
///
/// Precedence between declarations of one identifier (compared case-insensitively): system
/// (the `UTIs/` catalog) over exported over imported; between equals, the declaration whose source
/// (bundle identifier or catalog file) sorts first, so the answer never depends on the order apps
/// were registered in. Every declaration that lost is listed in ``diagnostics``.
public final class TypeRegistry: Sendable {
    /// A dense type number.
    public typealias TypeID = Int32

    /// Identifiers as declared, by type number. Parents that nothing declares have numbers too.
    public let identifiers: [String]
    /// The winning declaration by type number; `nil` for a parent nothing declares.
    public let declarations: [TypeDeclaration?]
    /// Direct parents by type number, in declared order, without self-references.
    public let parents: [[TypeID]]
    /// Transitive supertypes by type number, sorted, without the type itself.
    public let ancestors: [[TypeID]]
    /// What was wrong in the declarations: cycles, self-conformance, undeclared parents, conflicts.
    public let diagnostics: [RegistryDiagnostic]

    let numbers: [String: TypeID]
    let tagIndex: [TagClass: [String: [TypeID]]]

    /// Builds the registry from declarations in any order.
    public init(declarations all: [TypeDeclaration]) {
        var problems: [RegistryDiagnostic] = []

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
                a.kind != b.kind ? a.kind > b.kind : a.source != b.source ? a.source < b.source : a.keyPath.description < b.keyPath.description
            }
            winners.append(candidates[0])
            for loser in candidates.dropFirst() where loser.source != candidates[0].source || loser.kind != candidates[0].kind {
                problems.append(.overridden(identifier: loser.identifier, loser: loser.source, loserKind: loser.kind,
                                            winner: candidates[0].source, winnerKind: candidates[0].kind))
            }
        }

        // 2. Numbers: declared types first, then parents nothing declares.
        var identifiers = winners.map(\.identifier)
        var numbers: [String: TypeID] = [:]
        for (i, d) in winners.enumerated() { numbers[d.normalizedIdentifier] = TypeID(i) }
        var declarations: [TypeDeclaration?] = winners
        var parents: [[TypeID]] = []
        for d in winners {
            var list: [TypeID] = []
            for parent in d.conformsTo {
                let key = TypeIdentifierSyntax.normalized(parent)
                if key == d.normalizedIdentifier {
                    problems.append(.selfConformance(identifier: d.identifier, source: d.source))
                    continue
                }
                if numbers[key] == nil {
                    numbers[key] = TypeID(identifiers.count)
                    identifiers.append(parent)
                    declarations.append(nil)
                    problems.append(.undeclaredParent(identifier: d.identifier, parent: parent, source: d.source))
                }
                let id = numbers[key]!
                if !list.contains(id) { list.append(id) }
            }
            parents.append(list)
        }
        while parents.count < identifiers.count { parents.append([]) }

        // 3. Transitive closure, iteratively (no recursion depth to exhaust), visiting each node once
        //    per root so a cycle cannot loop.
        var ancestors: [[TypeID]] = []
        ancestors.reserveCapacity(identifiers.count)
        var seen = [Int32](repeating: -1, count: identifiers.count)
        var cyclic: Set<TypeID> = []
        for root in 0..<identifiers.count {
            var stack = parents[root]
            var found: [TypeID] = []
            seen[root] = Int32(root)
            while let next = stack.popLast() {
                if next == TypeID(root) { cyclic.insert(TypeID(root)); continue }
                if seen[Int(next)] == Int32(root) { continue }
                seen[Int(next)] = Int32(root)
                found.append(next)
                stack.append(contentsOf: parents[Int(next)])
            }
            ancestors.append(found.sorted())
        }
        for id in cyclic.sorted() {
            problems.append(.cycle(identifier: identifiers[Int(id)], source: declarations[Int(id)]?.source ?? ""))
        }

        // 4. Tag indexes, best candidate first.
        var tagIndex: [TagClass: [String: [TypeID]]] = [:]
        for (i, d) in winners.enumerated() {
            for (tagClass, tags) in d.tags {
                for tag in tags where !tag.isEmpty {
                    tagIndex[tagClass, default: [:]][tagClass.normalized(tag), default: []].append(TypeID(i))
                }
            }
        }
        for (tagClass, table) in tagIndex {
            for (tag, candidates) in table where candidates.count > 1 {
                tagIndex[tagClass]![tag] = Self.ranked(candidates, tag: tag, tagClass: tagClass, declarations: winners)
            }
        }

        self.identifiers = identifiers
        self.declarations = declarations
        self.parents = parents
        self.ancestors = ancestors
        self.numbers = numbers
        self.tagIndex = tagIndex
        self.diagnostics = problems
    }

    /// Orders the types claiming one tag as macOS prefers them: public types first; then types
    /// whose preferred (first) tag it is; then system over exported over imported; then identifier.
    static func ranked(_ candidates: [TypeID], tag: String, tagClass: TagClass, declarations: [TypeDeclaration]) -> [TypeID] {
        func key(_ id: TypeID) -> (Int, Int, Int, String) {
            let d = declarations[Int(id)]
            let position = d.tags[tagClass]?.firstIndex { tagClass.normalized($0) == tag } ?? Int.max
            return (d.normalizedIdentifier.hasPrefix("public.") ? 0 : 1, position, -d.kind.rawValue, d.normalizedIdentifier)
        }
        return candidates.sorted { key($0) < key($1) }
    }

    /// The number of `identifier`, if the registry knows it (declared, or named as a parent).
    public func number(of identifier: String) -> TypeID? {
        numbers[TypeIdentifierSyntax.normalized(identifier)]
    }

    /// Whether type `a` conforms to type `b` (reflexive and transitive).
    public func conforms(_ a: TypeID, to b: TypeID) -> Bool {
        a == b || binarySearch(ancestors[Int(a)], b)
    }

    /// The declared types claiming `tag`, best first, optionally only those conforming to `constraint`.
    public func types(tag: String, tagClass: TagClass, conformingTo constraint: TypeID? = nil) -> [TypeID] {
        let candidates = tagIndex[tagClass]?[tagClass.normalized(tag)] ?? []
        guard let constraint else { return candidates }
        return candidates.filter { conforms($0, to: constraint) }
    }

    /// Every type number, in order.
    public var allNumbers: Range<TypeID> { 0..<TypeID(identifiers.count) }
}

func binarySearch(_ sorted: [TypeRegistry.TypeID], _ value: TypeRegistry.TypeID) -> Bool {
    var low = 0, high = sorted.count
    while low < high {
        let mid = (low + high) / 2
        if sorted[mid] < value { low = mid + 1 } else { high = mid }
    }
    return low < sorted.count && sorted[low] == value
}

/// A problem in the set of declarations as a whole.
public enum RegistryDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// A type lists itself among its parents.
    case selfConformance(identifier: String, source: String)
    /// A type reaches itself through its parents.
    case cycle(identifier: String, source: String)
    /// A parent that no declaration defines.
    case undeclaredParent(identifier: String, parent: String, source: String)
    /// A declaration that lost to another of the same identifier.
    case overridden(identifier: String, loser: String, loserKind: TypeDeclaration.Kind, winner: String, winnerKind: TypeDeclaration.Kind)

    /// A sentence naming the types and sources involved.
    public var description: String {
        switch self {
        case .selfConformance(let id, let source): "\(id) (\(source)) conforms to itself"
        case .cycle(let id, let source): "\(id) (\(source)) conforms to itself through a cycle of parents"
        case .undeclaredParent(let id, let parent, let source): "\(id) (\(source)) conforms to \(parent), which nothing declares"
        case .overridden(let id, let loser, let lk, let winner, let wk):
            "\(id): the \(lk) declaration from \(loser) is overridden by the \(wk) declaration from \(winner)"
        }
    }
}
