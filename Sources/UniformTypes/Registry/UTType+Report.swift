import PropertyLists

extension UTType {
    /// The type as a property list with Apple's names: `identifier`, `localizedDescription`,
    /// `conformsTo` (direct parents), `supertypes`, `tags` (keyed by tag class),
    /// `preferredFilenameExtension`, `preferredMIMEType`, `isDeclared`, `isDynamic`, `isPublic`,
    /// and, when known, `referenceURL`, `version` and `declaringBundle`; for a system type, also
    /// `declaredByCoreTypes` (not Apple's name: whether CoreTypes declares it on macOS, which
    /// decides shared tags, ``TagClaimOrder``).
    public var propertyListRepresentation: PropertyList {
        var d: [(String, PropertyList)] = [
            ("identifier", .string(identifier)),
            ("conformsTo", .array(parents.map { .string($0.identifier) })),
            ("supertypes", .array(supertypes.map(\.identifier).sorted().map(PropertyList.string))),
            ("tags", .dictionary(.init(uniqueKeysWithValues: tags.sorted { $0.key < $1.key }.map { ($0.key.rawValue, PropertyList.array($0.value.map(PropertyList.string))) }))),
            ("isDeclared", .bool(isDeclared)), ("isDynamic", .bool(isDynamic)), ("isPublic", .bool(isPublic)),
        ]
        if let v = localizedDescription { d.append(("localizedDescription", .string(v))) }
        if let v = preferredFilenameExtension { d.append(("preferredFilenameExtension", .string(v))) }
        if let v = preferredMIMEType { d.append(("preferredMIMEType", .string(v))) }
        if let v = referenceURLString { d.append(("referenceURL", .string(v))) }
        if let v = versionString { d.append(("version", .string(v))) }
        if let v = declaringSource { d.append(("declaringBundle", .string(v))) }
        if let declaration, declaration.kind == .system { d.append(("declaredByCoreTypes", .bool(declaration.isCoreType))) }
        return .dictionary(.init(uniqueKeysWithValues: d))
    }
}
