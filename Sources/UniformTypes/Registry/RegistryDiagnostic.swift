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
