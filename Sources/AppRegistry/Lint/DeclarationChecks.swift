import PropertyLists
import UniformTypes

/// Type declarations (`UTExportedTypeDeclarations`, `UTImportedTypeDeclarations`) against the
/// system catalog: identifiers, domains, conformance (as the registry will see it: the catalog plus
/// this file) and tags.
struct DeclarationChecks {
    let catalog: TypeRegistry
    let declarations: [TypeDeclaration]
    let bundleIdentifier: String?

    /// Domains of other vendors whose types apps commonly re-export by mistake; besides these, any
    /// domain the catalog declares types in counts.
    static let wellKnownVendorDomains: Set<String> = [
        "com.microsoft", "com.adobe", "com.apple", "com.google", "org.openxmlformats", "org.oasis-open",
        "net.daringfireball", "org.khronos", "com.sun", "org.gnu", "com.pkware", "org.xiph", "org.webmproject",
    ]

    static func domain(of identifier: String) -> String {
        identifier.split(separator: ".").prefix(2).joined(separator: ".")
    }

    /// Whether the catalog declares `identifier`.
    func isSystemType(_ identifier: String) -> Bool { catalog.number(of: identifier).map(catalog.isDeclared) == true }

    /// Whether this file or the system declares `identifier`.
    func isKnown(_ identifier: String) -> Bool {
        let n = TypeIdentifierSyntax.normalized(identifier)
        return declarations.contains { $0.normalizedIdentifier == n } || isSystemType(identifier)
    }

    func check(_ value: PropertyList, into out: inout LintCollector) {
        let catalogDomains = Set(catalog.allNumbers.map { Self.domain(of: catalog.identifier(of: $0)) })
        let own = bundleIdentifier.map { Self.domain(of: TypeIdentifierSyntax.normalized($0)) }
        var seen: [String: PropertyListPath] = [:]
        var tagOwners: [String: [String]] = [:]
        for d in declarations {
            let path = d.keyPath.appending("UTTypeIdentifier")
            let normalized = d.normalizedIdentifier
            if let problem = TypeIdentifierSyntax.problem(with: d.identifier) {
                out.add(.invalidIdentifier, .error, "invalid type identifier \"\(d.identifier)\": \(problem)", path)
            }
            if normalized.hasPrefix("dyn.") {
                out.add(.dynamicIdentifier, .error, "\(d.identifier) is a dynamic identifier; dyn. is reserved for types the system makes up", path)
            } else if d.kind == .exported, normalized.hasPrefix("public.") || normalized.hasPrefix("com.apple.") {
                out.add(.appleDomain, .error, "exports \(d.identifier) in Apple's domain; only Apple declares public.* and com.apple.* types (import it if the system lacks it)",
                        path, subject: d.identifier, plural: "types exported in Apple's domain",
                        advice: "only Apple declares public.* and com.apple.* types (import them if the system lacks them)")
            } else if normalized.hasPrefix("public."), !isSystemType(d.identifier) {
                // public. is Apple's reserved domain: a third party may import Apple's public
                // types, never make one up.
                out.add(.reservedPublicDomain, .error, "declares \(d.identifier), a type in Apple's reserved public. domain that the system does not declare; use your own domain",
                        path, subject: d.identifier, plural: "types in Apple's reserved public. domain that the system does not declare",
                        advice: "a third party may import Apple's public types, never make one up; use your own domain")
            } else if d.kind == .exported, isSystemType(d.identifier) {
                out.add(.redeclaredSystemType, .error, "exports \(d.identifier), which the system already declares; the system's declaration wins, so import it or remove it", path)
            } else if d.kind == .exported {
                let domain = Self.domain(of: normalized)
                if domain != own, Self.wellKnownVendorDomains.contains(domain) || catalogDomains.contains(domain) {
                    out.add(.foreignDomain, .warning, "exports \(d.identifier) in another vendor's domain (\(domain)); import it instead", path)
                }
            }
            if let first = seen[normalized] {
                out.add(.declaredTwice, .error, "\(d.identifier) is declared again (first at \(first))", d.keyPath)
            } else {
                seen[normalized] = d.keyPath
            }
            for (i, parent) in d.conformsTo.enumerated() {
                let parentPath = d.keyPath.appending("UTTypeConformsTo").appending(i)
                if TypeIdentifierSyntax.normalized(parent) == normalized {
                    out.add(.conformsToItself, .error, "\(d.identifier) conforms to itself", parentPath)
                } else if let problem = TypeIdentifierSyntax.problem(with: parent) {
                    out.add(.invalidIdentifier, .error, "invalid identifier \"\(parent)\" in UTTypeConformsTo: \(problem)", parentPath)
                } else if !isKnown(parent) {
                    out.add(.unknownParent, .error, "\(d.identifier) conforms to \(parent), which neither this file nor the system declares", parentPath)
                }
            }
            checkTags(d, into: &out, owners: &tagOwners)
        }
        for (tag, owners) in tagOwners.sorted(by: { $0.key < $1.key }) where Set(owners.map(TypeIdentifierSyntax.normalized)).count > 1 {
            let first = declarations.first { $0.identifier == owners[0] }!
            out.add(.sharedTag, .warning, "the tag \(tag) is claimed by several types in this file (\(owners.joined(separator: ", "))); only one can be preferred",
                    first.keyPath.appending("UTTypeTagSpecification"))
        }
        checkConformance(into: &out, seen: Set(seen.keys))
    }

    /// Conformance as the system will see it: the catalog plus this file's declarations.
    func checkConformance(into out: inout LintCollector, seen: Set<String>) {
        var all = declarations
        for n in catalog.allNumbers { if let d = catalog.declaration(of: n), !seen.contains(d.normalizedIdentifier) { all.append(d) } }
        let combined = TypeRegistry(declarations: all)
        let data = combined.number(of: "public.data"), package = combined.number(of: "com.apple.package")
        let directory = combined.number(of: "public.directory")
        for diagnostic in combined.diagnostics {
            if case .cycle(let id, _) = diagnostic, let d = declarations.first(where: { $0.normalizedIdentifier == TypeIdentifierSyntax.normalized(id) }) {
                out.add(.conformanceCycle, .error, "\(id) conforms to itself through a cycle of parents", d.keyPath.appending("UTTypeConformsTo"))
            }
        }
        for d in declarations where d.kind == .exported || d.kind == .imported {
            guard let n = combined.number(of: d.identifier) else { continue }
            let binds = [data, package, directory].contains { $0.map { combined.conforms(n, to: $0) } ?? false }
            if !binds && !d.tags.isEmpty {
                out.add(.neverBinds, .warning, "\(d.identifier) conforms to neither public.data nor com.apple.package, so no file will be given this type",
                        d.keyPath.appending("UTTypeConformsTo"), subject: d.identifier,
                        plural: "types that conform to neither public.data nor com.apple.package", advice: "no file will be given these types")
            }
        }
    }

    func checkTags(_ d: TypeDeclaration, into out: inout LintCollector, owners: inout [String: [String]]) {
        let spec = d.keyPath.appending("UTTypeTagSpecification")
        for (tagClass, tags) in d.tags.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let path = spec.appending(tagClass.rawValue)
            if tags.isEmpty { out.add(.tag, .warning, "\(tagClass.rawValue) is an empty list", path) }
            var seenTags: Set<String> = []
            for (i, tag) in tags.enumerated() {
                let tagPath = tags.count > 1 ? path.appending(i) : path
                if tag.isEmpty { out.add(.tag, .error, "an empty \(tagClass.rawValue) tag never matches", tagPath); continue }
                if !seenTags.insert(tagClass.normalized(tag)).inserted { out.add(.tag, .warning, "\(tag) is listed twice", tagPath) }
                if tagClass == .filenameExtension {
                    if tag.hasPrefix(".") { out.add(.tag, .error, "filename extension \"\(tag)\" must not start with a dot", tagPath) }
                    if tag.contains("/") || tag.contains(" ") { out.add(.tag, .error, "filename extension \"\(tag)\" contains '/' or a space", tagPath) }
                } else if tagClass == .mimeType {
                    let parts = tag.split(separator: "/", omittingEmptySubsequences: false)
                    if parts.count != 2 || parts.contains(where: \.isEmpty) || tag.contains(" ") {
                        out.add(.tag, .error, "MIME type \"\(tag)\" is not of the form type/subtype", tagPath)
                    }
                } else if tagClass == .osType {
                    if tag.utf8.count != 4 { out.add(.tag, .error, "OSType \"\(tag)\" must be exactly 4 characters", tagPath) }
                }
                if tagClass == .filenameExtension || tagClass == .mimeType {
                    let key = "\(tagClass.rawValue) \(tagClass.normalized(tag))"
                    if !(owners[key]?.contains(d.identifier) ?? false) { owners[key, default: []].append(d.identifier) }
                }
            }
        }
    }
}
