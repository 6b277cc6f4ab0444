extension UTType {
    // MARK: Conformance

    /// The direct parents, in declared order (`UTTypeConformsTo`); for a dynamic type, what its
    /// tag specification conforms to; for an undeclared type, the parents it was given.
    public var parents: [UTType] {
        switch kind {
        case .record: return registry.parents(of: storedNumber).map { UTType(number: $0, in: registry) }
        case .tag: return constraint >= 0 ? [UTType(number: constraint, in: registry)] : []
        case .otherTag, .undeclared: return detail!.parents
        case .decoded:
            return detail!.specification!.conformsTo.map { id in
                UTType(id, in: registry) ?? UTType(registry: registry, number: nil, kind: .undeclared, detail: Detail(text: id))
            }
        }
    }

    /// All supertypes, without the type itself.
    public var supertypes: Set<UTType> {
        if kind == .record { return Set(registry.supertypes(of: storedNumber).map { UTType(number: $0, in: registry) }) }
        var result: Set<UTType> = []
        for parent in parents {
            result.insert(parent)
            result.formUnion(parent.supertypes)
        }
        result.remove(self)
        return result
    }

    /// Whether this type is `other` or one of its subtypes. Answered by this type's registry;
    /// `other` is looked up there by identifier when it comes from another registry.
    public func conforms(to other: UTType) -> Bool {
        if self == other { return true }
        switch kind {
        case .record:
            guard let target = other.number(in: registry) else { return false }
            return registry.conforms(storedNumber, to: target)
        case .tag:
            // The common dynamic type (an unknown extension under public.data): no array built.
            guard constraint >= 0, let target = other.number(in: registry) else { return false }
            return registry.conforms(constraint, to: target)
        case .decoded, .otherTag, .undeclared:
            return parents.contains { $0.conforms(to: other) }
        }
    }

    /// Whether this type conforms to `other` and is not `other`.
    public func isSubtype(of other: UTType) -> Bool { self != other && conforms(to: other) }
    /// Whether `other` conforms to this type and is not it.
    public func isSupertype(of other: UTType) -> Bool { other.isSubtype(of: self) }
}
