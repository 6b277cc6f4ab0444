/// A uniform type: a declared type from a ``TypeRegistry``, or a dynamic type made for a tag
/// nothing declares, with the API shape of Apple's `UTType`.
///
/// ```swift
/// let png = UTType("public.png", in: registry)!
/// png.conforms(to: UTType("public.data", in: registry)!)   // true
/// UTType(filenameExtension: "srt", in: registry)!.identifier // "dyn.ah62d4rv4ge81g6xy"
/// ```
public struct UTType: Sendable, Hashable, CustomStringConvertible {
    /// The registry the type belongs to.
    public let registry: TypeRegistry
    let number: TypeRegistry.TypeID?
    let dynamicOrigin: DynamicOrigin?

    /// The type's number in ``registry`` (declared types and parents nothing declares); `nil` for
    /// a dynamic type. For code that works on registry numbers in a hot loop.
    public var typeNumber: TypeRegistry.TypeID? { number }

    /// Where a dynamic type came from. A type made for a tag keeps the tag and builds its `dyn.`
    /// identifier only when asked, so looking up an unknown extension allocates nothing.
    enum DynamicOrigin: Sendable {
        case decoded(identifier: String, specification: DynamicTypeIdentifier.Specification)
        case tag(String, TagClass, conformingTo: TypeRegistry.TypeID?)
    }

    /// The identifier, spelled as declared (for dynamic types, the `dyn.a…` encoding).
    public var identifier: String {
        if let number { return registry.identifier(of: number) }
        switch dynamicOrigin {
        case .decoded(let identifier, _)?: return identifier
        case .tag(let tag, let tagClass, let conformingTo)?:
            return DynamicTypeIdentifier.identifier(tag: tag, tagClass: tagClass.rawValue,
                                                    conformingTo: conformingTo.map(registry.identifier(of:)))
        case nil: return ""
        }
    }

    /// The tag specification of a dynamic type.
    var dynamic: DynamicTypeIdentifier.Specification? {
        switch dynamicOrigin {
        case .decoded(_, let specification)?: return specification
        case .tag(let tag, let tagClass, let conformingTo)?:
            return .init(conformsTo: conformingTo.map { [registry.identifier(of: $0)] } ?? [], tags: [(tagClass.rawValue, tagClass.normalized(tag))])
        case nil: return nil
        }
    }

    /// The type named `identifier`: declared, a parent something names, or a decodable `dyn.` type.
    /// `nil` for an invalid identifier or one the registry does not know.
    public init?(_ identifier: String, in registry: TypeRegistry) {
        self.registry = registry
        if let n = registry.number(of: identifier) {
            number = n
            dynamicOrigin = nil
        } else if TypeIdentifierSyntax.normalized(identifier).hasPrefix(DynamicTypeIdentifier.prefix),
                  let spec = try? DynamicTypeIdentifier.decode(identifier) {
            number = nil
            dynamicOrigin = .decoded(identifier: identifier, specification: spec)
        } else {
            return nil
        }
    }

    /// The preferred type for a tag: the best declared type conforming to `conformingTo`, else a
    /// dynamic type. `nil` only when `conformingTo` is unknown or itself dynamic.
    public init?(tag: String, tagClass: TagClass, conformingTo: UTType?, in registry: TypeRegistry) {
        if let conformingTo, conformingTo.registry !== registry || conformingTo.number == nil { return nil }
        self.init(tag: tag, tagClass: tagClass, constraint: conformingTo?.number, in: registry)
    }

    init(tag: String, tagClass: TagClass, constraint: TypeRegistry.TypeID?, in registry: TypeRegistry) {
        self.registry = registry
        if let declared = registry.firstType(tag: tag, tagClass: tagClass, conformingTo: constraint) {
            number = declared
            dynamicOrigin = nil
        } else {
            number = nil
            dynamicOrigin = .tag(tag, tagClass, conformingTo: constraint)
        }
    }

    /// The type for a filename extension, conforming to `public.data` unless told otherwise.
    public init?(filenameExtension: String, conformingTo: UTType? = nil, in registry: TypeRegistry) {
        self.init(tagDefaultingToData: filenameExtension, tagClass: .filenameExtension, conformingTo: conformingTo, in: registry)
    }

    /// The type for a MIME type, conforming to `public.data` unless told otherwise.
    public init?(mimeType: String, conformingTo: UTType? = nil, in registry: TypeRegistry) {
        self.init(tagDefaultingToData: mimeType, tagClass: .mimeType, conformingTo: conformingTo, in: registry)
    }

    /// Apple's default for extension and MIME lookups: conform to `public.data` unless told otherwise.
    private init?(tagDefaultingToData tag: String, tagClass: TagClass, conformingTo: UTType?, in registry: TypeRegistry) {
        if let conformingTo {
            self.init(tag: tag, tagClass: tagClass, conformingTo: conformingTo, in: registry)
        } else {
            guard let data = registry.publicData else { return nil }
            self.init(tag: tag, tagClass: tagClass, constraint: data, in: registry)
        }
    }

    init(number: TypeRegistry.TypeID, in registry: TypeRegistry) {
        self.registry = registry
        self.number = number
        self.dynamicOrigin = nil
    }

    /// Every declared type claiming `tag`, best first (`types(tag:tagClass:conformingTo:)`).
    public static func types(tag: String, tagClass: TagClass, conformingTo: UTType?, in registry: TypeRegistry) -> [UTType] {
        registry.types(tag: tag, tagClass: tagClass, conformingTo: conformingTo?.number).map { UTType(number: $0, in: registry) }
    }

    /// Whether a declaration (from the catalog or an app) defines this type.
    public var isDeclared: Bool { number.map(registry.isDeclared) ?? false }
    /// Whether this is a `dyn.` type.
    public var isDynamic: Bool { dynamicOrigin != nil }
    /// Whether the identifier is in Apple's `public` domain.
    public var isPublic: Bool { TypeIdentifierSyntax.normalized(identifier).hasPrefix("public.") }

    /// The declaration that defines this type, if any.
    public var declaration: TypeDeclaration? { number.flatMap(registry.declaration(of:)) }

    /// Direct parents, in declared order.
    var parentNumbers: [TypeRegistry.TypeID] {
        if let number { return registry.parents(of: number) }
        return (dynamic?.conformsTo ?? []).compactMap { registry.number(of: $0) }
    }

    /// The direct parents, in declared order (`UTTypeConformsTo`).
    public var parents: [UTType] { parentNumbers.map { UTType(number: $0, in: registry) } }

    /// All supertypes, without the type itself.
    public var supertypes: Set<UTType> {
        if let number { return Set(registry.supertypes(of: number).map { UTType(number: $0, in: registry) }) }
        var result: Set<UTType> = []
        for p in parentNumbers {
            result.insert(UTType(number: p, in: registry))
            for a in registry.supertypes(of: p) { result.insert(UTType(number: a, in: registry)) }
        }
        return result
    }

    /// Whether this type is `other` or one of its subtypes.
    public func conforms(to other: UTType) -> Bool {
        if self == other { return true }
        guard let target = other.number else { return false }
        if let number { return registry.conforms(number, to: target) }
        return parentNumbers.contains { registry.conforms($0, to: target) }
    }

    /// Whether this type conforms to `other` and is not `other`.
    public func isSubtype(of other: UTType) -> Bool { self != other && conforms(to: other) }
    /// Whether `other` conforms to this type and is not it.
    public func isSupertype(of other: UTType) -> Bool { other.isSubtype(of: self) }

    /// The type's tags by standard class, first tag preferred.
    public var tags: [TagClass: [String]] {
        if let declaration { return declaration.tags }
        var result: [TagClass: [String]] = [:]
        for (tagClass, tag) in dynamic?.tags ?? [] {
            if let c = TagClass(rawValue: tagClass) { result[c, default: []].append(tag) }
        }
        return result
    }

    /// The tags of one class, first preferred.
    public func tags(of tagClass: TagClass) -> [String] {
        if let number, registry.isDeclared(number) { return registry.tags(of: number, class: tagClass) }
        return (dynamic?.tags ?? []).filter { $0.0 == tagClass.rawValue }.map(\.1)
    }

    /// The first filename extension.
    public var preferredFilenameExtension: String? { tags(of: .filenameExtension).first }
    /// The first MIME type.
    public var preferredMIMEType: String? { tags(of: .mimeType).first }

    /// The description, inherited depth-first through the parents in declared order when the type
    /// declares none. Dynamic types have none.
    public var localizedDescription: String? { localizedDescription(languages: Self.preferredLanguages) }

    /// The description in the first of `languages` (`fr_CA`, `fr`) a declaration translates it to.
    public func localizedDescription(languages: [String]) -> String? {
        guard let number else { return nil }
        var visited: Set<TypeRegistry.TypeID> = []
        var stack: [TypeRegistry.TypeID] = [number]
        while let next = stack.popLast() {
            guard visited.insert(next).inserted else { continue }
            if let value = registry.ownDescription(of: next, languages: languages) { return value }
            stack.append(contentsOf: registry.parents(of: next).reversed())
        }
        return nil
    }
    /// The user's languages, most preferred first, from `LANGUAGE`, `LC_ALL`, `LC_MESSAGES` and
    /// `LANG` (`fr_CA.UTF-8` gives `fr_CA`, then `fr`).
    public static var preferredLanguages: [String] {
        var result: [String] = []
        var names: [String] = []
        if let list = DeviceRoot.environment("LANGUAGE") { names += list.split(separator: ":").map(String.init) }
        for variable in ["LC_ALL", "LC_MESSAGES", "LANG"] { if let v = DeviceRoot.environment(variable) { names.append(v) } }
        for name in names {
            let base = String(name.split(separator: ".").first ?? "").split(separator: "@").first.map(String.init) ?? ""
            guard !base.isEmpty, base != "C", base != "POSIX" else { continue }
            for candidate in [base, String(base.split(separator: "_").first ?? "")] where !result.contains(candidate) {
                result.append(candidate)
            }
        }
        return result
    }

    /// `UTTypeReferenceURL`, not inherited.
    public var referenceURL: String? { declaration?.referenceURL }
    /// `UTTypeVersion`.
    public var version: String? { declaration?.version }
    /// The bundle (or catalog file) that declared the type.
    public var declaringSource: String? { declaration?.source }

    /// Identifiers compare ignoring ASCII case.
    public static func == (a: UTType, b: UTType) -> Bool {
        if let x = a.number, let y = b.number, a.registry === b.registry { return x == y }
        return TypeIdentifierSyntax.normalized(a.identifier) == TypeIdentifierSyntax.normalized(b.identifier)
    }

    /// Hashes the normalised identifier.
    public func hash(into hasher: inout Hasher) { hasher.combine(TypeIdentifierSyntax.normalized(identifier)) }

    /// The identifier.
    public var description: String { identifier }
}
