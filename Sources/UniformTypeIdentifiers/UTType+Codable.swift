import UniformTypes

/// A type is coded as its identifier, in the forms Apple's `UTType` reads and writes: Apple writes
/// one of its constants as `{"identifier": …, "constantIndex": …}` and any other type as the bare
/// identifier string, and reads either (as seen in its `encode(to:)` and `init(from:)`).
///
/// Apple's `constantIndex` is a position in its own constant table, which is not published, so
/// this writes a constant as `{"identifier": …}` alone (Apple reads that by identifier too) and
/// ignores the index when reading.
extension UTType: Codable {
    private enum CodingKeys: String, CodingKey {
        case identifier
        case constantIndex
    }

    /// Writes the identifier: keyed for Apple's constants, a bare string for the rest.
    public func encode(to encoder: any Encoder) throws {
        if Self.constantIdentifiers.contains(TypeIdentifierSyntax.normalized(identifier)) {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(identifier, forKey: .identifier)
        } else {
            var container = encoder.singleValueContainer()
            try container.encode(identifier)
        }
    }

    /// Reads an identifier in either form and looks it up in the registry the decoder's
    /// `userInfo[.typeRegistry]` names, else in ``DefaultTypeRegistry``.
    /// - Throws: `DecodingError.dataCorrupted` when the registry knows no type of that identifier
    ///   (Apple's decoding fails the same way, since `UTType(_:)` answers `nil` for it).
    public init(from decoder: any Decoder) throws {
        let identifier: String
        if let keyed = try? decoder.container(keyedBy: CodingKeys.self), keyed.contains(.identifier) {
            identifier = try keyed.decode(String.self, forKey: .identifier)
        } else {
            identifier = try decoder.singleValueContainer().decode(String.self)
        }
        let registry = decoder.userInfo[.typeRegistry] as? TypeRegistry ?? DefaultTypeRegistry.current
        guard let type = UTType(identifier, in: registry) else {
            let problem = TypeIdentifierSyntax.problem(with: identifier).map { "'\(identifier)' is not a type identifier: \($0)" }
                ?? "no type with identifier '\(identifier)' is known"
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: problem))
        }
        self = type
    }
}

extension CodingUserInfoKey {
    /// A ``TypeRegistry`` that decoded types are looked up in instead of the default registry.
    public static let typeRegistry = CodingUserInfoKey(rawValue: "UniformTypeIdentifiers.typeRegistry")!
}
