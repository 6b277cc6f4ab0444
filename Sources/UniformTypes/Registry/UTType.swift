import SystemCalls
/// A uniform type: a declared type from a ``TypeRegistry``, a dynamic type made for a tag nothing
/// declares, or a type an app names without a declaration (`init(exportedAs:)`), with the API of
/// Apple's `UTType`. The `UniformTypeIdentifiers` module adds Apple's registry-less initializers and
/// constants to this same type.
///
/// ```swift
/// let png = UTType("public.png", in: registry)!
/// png.conforms(to: UTType("public.data", in: registry)!)   // true
/// UTType(filenameExtension: "srt", in: registry)!.identifier // "dyn.ah62d4rv4ge81g6xy"
/// ```
///
/// A type keeps the registry it was made from. Types of different registries (one compiled before
/// an app was registered, one after) compare, hash and conform by identifier, answered through the
/// receiver's registry: a type number means nothing outside its own registry.
public struct UTType: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The registry the type belongs to.
    public let registry: TypeRegistry
    /// The type's number in ``registry``, or -1 when the registry does not know the identifier.
    @usableFromInline let storedNumber: TypeRegistry.TypeID
    /// What the type is.
    @usableFromInline let kind: Kind
    /// For ``Kind/tag``: the tag class's position in ``TagClass/standard``.
    let tagClassIndex: UInt8
    /// For ``Kind/tag``: the number of the type the lookup had to conform to, or -1.
    let constraint: TypeRegistry.TypeID
    /// For ``Kind/tag``: the tag as given.
    let tag: String
    /// For the rarer kinds, the rest, by reference.
    let detail: Detail?

    // Flat fields (plain values, the tag, one optional reference) rather than an enum of the
    // kinds with their parts as payloads: with the enum, copies went through run-time value
    // witnesses and `UTType(filenameExtension:)` ran at 8 M/s; flat, and with the types the
    // lookups take borrowed rather than copied, 17 M/s (TypeBenchmarks; 16 before types could be
    // undeclared or of other tag classes).

    /// What a type is.
    @usableFromInline enum Kind: UInt8, Sendable {
        /// A record of the registry: declared, or a parent a declaration names.
        case record
        /// The dynamic type for a tag of a standard class that nothing declared claims, under a
        /// type of the registry. It keeps the tag and builds its `dyn.` identifier only when
        /// asked, so looking up an unknown extension allocates nothing.
        case tag
        /// A `dyn.` identifier, decoded back to its tag specification (``Detail``).
        case decoded
        /// A dynamic type for the rare rest: a tag of another class, or a lookup constrained to a
        /// type the registry has no number for (``Detail``).
        case otherTag
        /// A type nothing declares, named by `init(exportedAs:)` or `init(importedAs:)`, with the
        /// parents its caller gave (``Detail``).
        case undeclared
    }

    /// The parts of the rarer kinds.
    final class Detail: Sendable {
        /// The identifier (`decoded`, `undeclared`) or the tag (`otherTag`).
        let text: String
        /// `decoded`: the tag specification.
        let specification: DynamicTypeIdentifier.Specification?
        /// `otherTag`: the tag class.
        let tagClass: TagClass?
        /// `undeclared`: the parents; `otherTag`: the type the lookup had to conform to, if any.
        let parents: [UTType]

        init(text: String, specification: DynamicTypeIdentifier.Specification? = nil, tagClass: TagClass? = nil, parents: [UTType] = []) {
            self.text = text
            self.specification = specification
            self.tagClass = tagClass
            self.parents = parents
        }
    }

    /// The type's number in ``registry``, when the registry knows the identifier.
    var number: TypeRegistry.TypeID? { storedNumber >= 0 ? storedNumber : nil }

    /// The type's number in ``registry`` (declared types and parents nothing declares); `nil` for
    /// a dynamic type. For code that works on registry numbers in a hot loop.
    public var typeNumber: TypeRegistry.TypeID? { number }

    // MARK: Creating types

    init(registry: TypeRegistry, number: TypeRegistry.TypeID?, kind: Kind, tagClassIndex: UInt8 = 0,
         constraint: TypeRegistry.TypeID? = nil, tag: String = "", detail: Detail? = nil) {
        self.registry = registry
        self.storedNumber = number ?? -1
        self.kind = kind
        self.tagClassIndex = tagClassIndex
        self.constraint = constraint ?? -1
        self.tag = tag
        self.detail = detail
    }

    /// A record of `registry`.
    package init(number: TypeRegistry.TypeID, in registry: TypeRegistry) {
        self.init(registry: registry, number: number, kind: .record)
    }

    /// The type named `identifier`: declared, a parent something names, or a decodable `dyn.` type.
    /// `nil` for an invalid identifier or one the registry does not know.
    public init?(_ identifier: String, in registry: TypeRegistry) {
        if let n = registry.number(of: identifier) {
            self.init(number: n, in: registry)
        } else if TypeIdentifierSyntax.normalized(identifier).hasPrefix(DynamicTypeIdentifier.prefix),
                  let spec = try? DynamicTypeIdentifier.decode(identifier) {
            self.init(registry: registry, number: nil, kind: .decoded, detail: Detail(text: identifier, specification: spec))
        } else {
            return nil
        }
    }

    /// The preferred type for a tag: the best declared type conforming to `supertype`, else a
    /// dynamic type. `nil` only when `supertype` is itself dynamic (nothing can conform to it).
    ///
    /// A `supertype` from another registry is looked up here by identifier; one this registry
    /// does not know (an undeclared type) gives a dynamic type that conforms to it.
    public init?(tag: String, tagClass: TagClass, conformingTo supertype: borrowing UTType?, in registry: TypeRegistry) {
        // Borrowed, not copied: a copy of a type costs retains, and this runs millions of times a
        // second (TypeBenchmarks: 12 M/s with the copy, 18 without).
        if supertype == nil {
            self.init(tag: tag, tagClass: tagClass, constraint: nil, in: registry)
        } else if let n = supertype?.number(in: registry) {
            self.init(tag: tag, tagClass: tagClass, constraint: n, in: registry)
        } else if let other = copy supertype, !other.isDynamic {
            self.init(registry: registry, number: nil, kind: .otherTag, detail: Detail(text: tag, tagClass: tagClass, parents: [other]))
        } else {
            return nil
        }
    }

    init(tag: String, tagClass: TagClass, constraint: TypeRegistry.TypeID?, in registry: TypeRegistry) {
        if let declared = registry.firstType(tag: tag, tagClass: tagClass, conformingTo: constraint) {
            self.init(registry: registry, number: declared, kind: .record)
        } else if tagClass.isStandard {
            self.init(registry: registry, number: nil, kind: .tag, tagClassIndex: tagClass.standardIndex, constraint: constraint, tag: tag)
        } else {
            self.init(registry: registry, number: nil, kind: .otherTag,
                      detail: Detail(text: tag, tagClass: tagClass, parents: constraint.map { [UTType(number: $0, in: registry)] } ?? []))
        }
    }

    /// The type for a filename extension, conforming to `public.data` unless told otherwise.
    public init?(filenameExtension: String, conformingTo: borrowing UTType? = nil, in registry: TypeRegistry) {
        self.init(tagDefaultingToData: filenameExtension, tagClass: .filenameExtension, conformingTo: conformingTo, in: registry)
    }

    /// The type for a MIME type, conforming to `public.data` unless told otherwise.
    public init?(mimeType: String, conformingTo: borrowing UTType? = nil, in registry: TypeRegistry) {
        self.init(tagDefaultingToData: mimeType, tagClass: .mimeType, conformingTo: conformingTo, in: registry)
    }

    /// Apple's default for extension and MIME lookups: conform to `public.data` unless told otherwise.
    private init?(tagDefaultingToData tag: String, tagClass: TagClass, conformingTo: borrowing UTType?, in registry: TypeRegistry) {
        if conformingTo != nil {
            // Straight to the lookup for the usual constraint, a type of this registry.
            if let n = conformingTo?.number(in: registry) {
                self.init(tag: tag, tagClass: tagClass, constraint: n, in: registry)
            } else {
                self.init(tag: tag, tagClass: tagClass, conformingTo: conformingTo, in: registry)
            }
        } else {
            guard let data = registry.publicData else { return nil }
            self.init(tag: tag, tagClass: tagClass, constraint: data, in: registry)
        }
    }

    /// A type the app owns (`UTExportedTypeDeclarations`): the declared type when the registry has
    /// one, else a type of that identifier that is neither declared nor dynamic and conforms to
    /// `parentType` (to `public.data` when not given: Apple assumes data or package).
    ///
    /// Apple calls the result undefined when nothing declares the identifier and logs the missing
    /// declaration; it still answers a type of that identifier, and so does this. Whether the
    /// declaration exists is ``isDeclared``.
    public init(exportedAs identifier: String, conformingTo parentType: UTType? = nil, in registry: TypeRegistry) {
        let n = registry.number(of: identifier)
        if let n, registry.isDeclared(n) {
            self.init(number: n, in: registry)
        } else {
            let parents = parentType.map { [$0] } ?? registry.publicData.map { [UTType(number: $0, in: registry)] } ?? []
            self.init(registry: registry, number: n, kind: .undeclared, detail: Detail(text: identifier, parents: parents))
        }
    }

    /// A type the app uses but another owns (`UTImportedTypeDeclarations`): as
    /// ``init(exportedAs:conformingTo:in:)``, except that when the declared type has a preferred
    /// filename extension whose preferred type is another declared type, that other type is
    /// answered (Apple: "a type whose identifier may or may not be equal to identifier, but which
    /// is functionally equivalent").
    public init(importedAs identifier: String, conformingTo parentType: UTType? = nil, in registry: TypeRegistry) {
        self.init(exportedAs: identifier, conformingTo: parentType, in: registry)
        guard isDeclared, let n = number, let ext = registry.tags(of: n, class: .filenameExtension).first,
              let preferred = registry.firstType(tag: ext, tagClass: .filenameExtension, conformingTo: nil),
              preferred != n, registry.isDeclared(preferred) else { return }
        self = UTType(number: preferred, in: registry)
    }

    /// Every declared type claiming `tag`, best first (`types(tag:tagClass:conformingTo:)`), only
    /// those conforming to `supertype` when given. Empty when none does, or when `supertype` is a
    /// type this registry has no number for.
    public static func types(tag: String, tagClass: TagClass, conformingTo supertype: UTType?, in registry: TypeRegistry) -> [UTType] {
        var limit: TypeRegistry.TypeID?
        if let supertype {
            guard let n = supertype.number(in: registry) else { return [] }
            limit = n
        }
        return registry.types(tag: tag, tagClass: tagClass, conformingTo: limit).map { UTType(number: $0, in: registry) }
    }

    // MARK: Identity

    /// The identifier, spelled as declared (for dynamic types, the `dyn.a…` encoding).
    public var identifier: String {
        switch kind {
        case .record: return registry.identifier(of: storedNumber)
        case .tag:
            return DynamicTypeIdentifier.identifier(tag: tag, tagClass: TagClass(standardIndex: tagClassIndex).rawValue,
                                                    conformingTo: constraint >= 0 ? registry.identifier(of: constraint) : nil)
        case .otherTag:
            return DynamicTypeIdentifier.identifier(tag: detail!.text, tagClass: detail!.tagClass!.rawValue, conformingTo: detail!.parents.first?.identifier)
        case .decoded, .undeclared: return detail!.text
        }
    }

    /// This type's number in `other`: its own in its own registry; in another registry, the
    /// number `other` gives its identifier. Never a number of one registry used in another.
    @inlinable public func number(in other: TypeRegistry) -> TypeRegistry.TypeID? {
        if other === registry { return storedNumber >= 0 ? storedNumber : nil }
        if isDynamic { return nil }
        return other.number(of: identifier)
    }

    /// The tag specification of a dynamic type.
    var dynamic: DynamicTypeIdentifier.Specification? {
        switch kind {
        case .decoded: return detail!.specification
        case .tag:
            let tagClass = TagClass(standardIndex: tagClassIndex)
            return .init(conformsTo: constraint >= 0 ? [registry.identifier(of: constraint)] : [], tags: [(tagClass.rawValue, tagClass.normalized(tag))])
        case .otherTag:
            let tagClass = detail!.tagClass!
            return .init(conformsTo: detail!.parents.map(\.identifier), tags: [(tagClass.rawValue, tagClass.normalized(detail!.text))])
        case .record, .undeclared: return nil
        }
    }

    /// Whether a declaration (from the catalog or an app) defines this type.
    @inlinable public var isDeclared: Bool { kind == .record && registry.isDeclared(storedNumber) }
    /// Whether this is a `dyn.` type.
    @inlinable public var isDynamic: Bool { kind == .tag || kind == .decoded || kind == .otherTag }
    /// Whether the identifier is in Apple's `public` domain.
    public var isPublic: Bool { !isDynamic && TypeIdentifierSyntax.normalized(identifier).hasPrefix("public.") }

    /// The declaration that defines this type, if any.
    public var declaration: TypeDeclaration? { kind == .record ? registry.declaration(of: storedNumber) : nil }

    // MARK: Equality

    /// Identifiers compare ignoring ASCII case; two records of one registry compare by number.
    public static func == (a: UTType, b: UTType) -> Bool {
        if a.kind == .record, b.kind == .record, a.registry === b.registry { return a.storedNumber == b.storedNumber }
        return TypeIdentifierSyntax.normalized(a.identifier) == TypeIdentifierSyntax.normalized(b.identifier)
    }

    /// Hashes the normalised identifier, so equal types of different registries hash alike.
    public func hash(into hasher: inout Hasher) { hasher.combine(TypeIdentifierSyntax.normalized(identifier)) }

    /// The identifier.
    public var description: String { identifier }
    /// The identifier.
    public var debugDescription: String { identifier }
}
