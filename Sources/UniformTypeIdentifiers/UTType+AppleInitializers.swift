import UniformTypes

/// Apple's initializers and lookups, answered from ``DefaultTypeRegistry``: each is the engine's
/// call of the same name with `in: DefaultTypeRegistry.current`.
extension UTType {
    /// The type with `identifier`, or `nil` when the system knows no such type (a `dyn.`
    /// identifier decodes to its dynamic type).
    public init?(_ identifier: String) {
        self.init(identifier, in: DefaultTypeRegistry.current)
    }

    /// The preferred type for a filename extension among those conforming to `supertype`; a
    /// dynamic type when none does. Equivalent to
    /// `UTType(tag: filenameExtension, tagClass: .filenameExtension, conformingTo: supertype)`.
    public init?(filenameExtension: String, conformingTo supertype: UTType = .data) {
        self.init(tag: filenameExtension, tagClass: .filenameExtension, conformingTo: supertype, in: DefaultTypeRegistry.current)
    }

    /// The preferred type for a MIME type among those conforming to `supertype`; a dynamic type
    /// when none does.
    public init?(mimeType: String, conformingTo supertype: UTType = .data) {
        self.init(tag: mimeType, tagClass: .mimeType, conformingTo: supertype, in: DefaultTypeRegistry.current)
    }

    /// The preferred type for a tag of any class among those conforming to `supertype` (any type
    /// when `nil`); a dynamic type when none does. `nil` when `supertype` is a dynamic type.
    public init?(tag: String, tagClass: UTTagClass, conformingTo supertype: UTType?) {
        self.init(tag: tag, tagClass: tagClass, conformingTo: supertype, in: DefaultTypeRegistry.current)
    }

    /// Every declared type claiming `tag`, best first, conforming to `supertype` when given; when
    /// none does, the dynamic type for the tag (Apple: "it may provide a dynamic type").
    public static func types(tag: String, tagClass: UTTagClass, conformingTo supertype: UTType?) -> [UTType] {
        let registry = DefaultTypeRegistry.current
        let declared = types(tag: tag, tagClass: tagClass, conformingTo: supertype, in: registry)
        if !declared.isEmpty { return declared }
        return UTType(tag: tag, tagClass: tagClass, conformingTo: supertype, in: registry).map { [$0] } ?? []
    }

    /// A type the app owns: the declared type, or, when the registry has no declaration of it (or
    /// only an imported one), a type of that identifier conforming to `parentType` (to
    /// `public.data` when `nil`), after logging the missing declaration as Apple does.
    public init(exportedAs identifier: String, conformingTo parentType: UTType? = nil) {
        self.init(exportedAs: identifier, conformingTo: parentType, in: DefaultTypeRegistry.current)
        UndeclaredTypeLog.check(self, identifier: identifier, exported: true)
    }

    /// A type the app uses but another owns: as ``init(exportedAs:conformingTo:)``, except that
    /// the type an extension lookup prefers is answered when it is not the declared one (Apple:
    /// "functionally equivalent"), and an imported declaration is enough.
    public init(importedAs identifier: String, conformingTo parentType: UTType? = nil) {
        self.init(importedAs: identifier, conformingTo: parentType, in: DefaultTypeRegistry.current)
        UndeclaredTypeLog.check(self, identifier: identifier, exported: false)
    }
}
