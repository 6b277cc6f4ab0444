import SystemCalls

extension UTType {
    // MARK: Tags and properties

    /// The type's tags by class, first tag preferred: the standard classes of its declaration, or
    /// any class a dynamic type's specification names. A type without tags of a class has no key
    /// for it (Apple: "nil, not an empty array").
    public var tags: [TagClass: [String]] {
        if let declaration { return declaration.tags }
        var result: [TagClass: [String]] = [:]
        for (tagClass, tag) in dynamic?.tags ?? [] { result[TagClass(rawValue: tagClass), default: []].append(tag) }
        return result
    }

    /// The tags of one class, first preferred.
    public func tags(of tagClass: TagClass) -> [String] {
        if isDeclared { return registry.tags(of: storedNumber, class: tagClass) }
        return (dynamic?.tags ?? []).filter { $0.0 == tagClass.rawValue }.map(\.1)
    }

    /// The first filename extension.
    public var preferredFilenameExtension: String? { tags(of: .filenameExtension).first }
    /// The first MIME type.
    public var preferredMIMEType: String? { tags(of: .mimeType).first }

    /// The description, inherited depth-first through the parents in declared order when the type
    /// declares none. Dynamic and undeclared types have none.
    public var localizedDescription: String? { localizedDescription(languages: Self.preferredLanguages) }

    /// The description in the first of `languages` (`fr_CA`, `fr`) a declaration translates it to.
    public func localizedDescription(languages: [String]) -> String? {
        guard kind == .record else { return nil }
        var visited: Set<TypeRegistry.TypeID> = []
        var stack: [TypeRegistry.TypeID] = [storedNumber]
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
        if let list = Environment.value("LANGUAGE") { names += list.split(separator: ":").map(String.init) }
        for variable in ["LC_ALL", "LC_MESSAGES", "LANG"] { if let v = Environment.value(variable) { names.append(v) } }
        for name in names {
            let base = String(name.split(separator: ".").first ?? "").split(separator: "@").first.map(String.init) ?? ""
            guard !base.isEmpty, base != "C", base != "POSIX" else { continue }
            for candidate in [base, String(base.split(separator: "_").first ?? "")] where !result.contains(candidate) {
                result.append(candidate)
            }
        }
        return result
    }

    /// `UTTypeReferenceURL` as declared, not inherited. (Apple's `referenceURL` is a `URL`; the
    /// `UniformTypeIdentifiers` module adds it.)
    public var referenceURLString: String? { declaration?.referenceURL }
    /// `UTTypeVersion` as declared. (Apple's `version` is an `Int`; the `UniformTypeIdentifiers`
    /// module adds it.)
    public var versionString: String? { declaration?.version }
    /// The bundle (or catalog file) that declared the type.
    public var declaringSource: String? { declaration?.source }
}
