import PropertyLists

/// Checks an Info.plist's type declarations and document types for the mistakes real apps make:
/// invalid or reserved identifiers, redefined system types, broken conformance, tags that will
/// never match, document types that name nothing, misspelt keys, wrong value types and unresolved
/// build variables.
///
/// ```swift
/// let findings = InfoPlistLinter(catalog: registry).lint(document)
/// for f in findings { print(f.formatted(file: "Info.plist")) }
/// ```
public struct InfoPlistLinter: Sendable {
    /// The system types (and any other declarations) the plist is checked against.
    public var catalog: TypeRegistry
    /// Values for build variables (`PRODUCT_BUNDLE_IDENTIFIER` → `com.example.app`), substituted
    /// before checking; variables without a value are reported as warnings.
    public var definitions: [String: String]

    /// Creates a linter against `catalog`.
    public init(catalog: TypeRegistry, definitions: [String: String] = [:]) {
        self.catalog = catalog
        self.definitions = definitions
    }

    /// Domains of other vendors whose types apps commonly re-export by mistake; besides these, any
    /// domain the catalog declares types in counts.
    static let wellKnownVendorDomains: Set<String> = [
        "com.microsoft", "com.adobe", "com.apple", "com.google", "org.openxmlformats", "org.oasis-open",
        "net.daringfireball", "org.khronos", "com.sun", "org.gnu", "com.pkware", "org.xiph", "org.webmproject",
    ]

    static let booleanKeys: Set<String> = [
        "LSTypeIsPackage", "LSSupportsOpeningDocumentsInPlace", "UIFileSharingEnabled", "LSRequiresIPhoneOS",
        "UISupportsDocumentBrowser", "NSAppleScriptEnabled", "LSUIElement", "LSBackgroundOnly",
        "UIApplicationSupportsIndirectInputEvents", "ITSAppUsesNonExemptEncryption",
    ]

    static let topLevelKeys: Set<String> = [
        "CFBundleIdentifier", "CFBundleName", "CFBundleDisplayName", "CFBundleExecutable", "CFBundleVersion",
        "CFBundleShortVersionString", "CFBundlePackageType", "CFBundleSignature", "CFBundleDocumentTypes",
        "CFBundleURLTypes", "CFBundleIconFile", "CFBundleIconFiles", "CFBundleIcons", "CFBundleDevelopmentRegion",
        "CFBundleInfoDictionaryVersion", "CFBundleGetInfoString", "CFBundleLocalizations", "CFBundleAllowMixedLocalizations",
        "UTExportedTypeDeclarations", "UTImportedTypeDeclarations", "LSSupportsOpeningDocumentsInPlace",
        "LSMinimumSystemVersion", "LSApplicationCategoryType", "LSRequiresIPhoneOS", "UIFileSharingEnabled",
        "UISupportsDocumentBrowser", "NSExtension", "NSPrincipalClass", "NSMainNibFile", "NSHumanReadableCopyright",
        "LSUIElement", "LSBackgroundOnly", "NSAppleScriptEnabled",
    ]
    static let documentTypeKeys: Set<String> = [
        "CFBundleTypeName", "CFBundleTypeRole", "LSHandlerRank", "LSItemContentTypes", "CFBundleTypeExtensions",
        "CFBundleTypeMIMETypes", "CFBundleTypeOSTypes", "CFBundleTypeIconFile", "CFBundleTypeIconFiles",
        "CFBundleTypeIconSystemGenerated", "LSTypeIsPackage", "NSDocumentClass", "NSExportableTypes", "NSExportableAs",
        "NSUbiquitousDocumentUserActivityType", "LSIsAppleDefaultForType",
    ]
    static let declarationKeys: Set<String> = [
        "UTTypeIdentifier", "UTTypeConformsTo", "UTTypeDescription", "UTTypeIconFile", "UTTypeIconFiles",
        "UTTypeIcons", "UTTypeReferenceURL", "UTTypeTagSpecification", "UTTypeVersion", "UTTypeIconName",
    ]

    /// Every finding for one plist, ordered by position.
    public func lint(_ document: PropertyListDocument) -> [LintFinding] {
        var findings: [LintFinding] = []
        func add(_ severity: LintFinding.Severity, _ message: String, _ path: PropertyListPath) {
            findings.append(LintFinding(severity, message, at: path, location: document.location(of: path)))
        }
        for duplicate in document.duplicateKeys {
            add(.warning, "the key appears twice in one dictionary; the last value is used", duplicate.keyPath)
        }
        let value = substituteVariables(document.value, path: .root, report: { add(.warning, $0, $1) })
        guard case .dictionary = value else {
            add(.error, "an Info.plist must be a dictionary, not \(value.typeNameWithArticle)", .root)
            return findings
        }
        let root = PropertyListCursor(value)
        checkKeys(root, known: Self.topLevelKeys, add: add)
        checkValueTypes(value, path: .root, add: add)
        if let signature = root["CFBundleSignature"]?.value.stringValue, signature.utf8.count != 4 {
            add(.error, "CFBundleSignature \"\(signature)\" must be exactly 4 characters", root["CFBundleSignature"]!.path)
        }
        let bundleID = root["CFBundleIdentifier"]?.value.stringValue.flatMap { $0.contains("$") ? nil : $0 }

        // Declarations, read the way the registry reads them.
        var diagnostics: [DeclarationDiagnostic] = []
        let declarations = TypeDeclaration.declarations(in: value, source: bundleID ?? "this file", diagnostics: &diagnostics)
        for d in diagnostics { add(d.severity == .error ? .error : .warning, d.message, d.keyPath) }
        checkDeclarations(root, declarations, bundleID: bundleID, add: add)
        checkDocumentTypes(root, declarations, add: add)
        return findings.sorted { ($0.location?.line ?? 0, $0.keyPath.description) < ($1.location?.line ?? 0, $1.keyPath.description) }
    }

    // MARK: Declarations

    func checkDeclarations(_ root: PropertyListCursor, _ declarations: [TypeDeclaration], bundleID: String?,
                           add: (LintFinding.Severity, String, PropertyListPath) -> Void) {
        let catalogDomains = Set(catalog.allNumbers.map { Self.domain(of: catalog.identifier(of: $0)) })
        var seen: [String: PropertyListPath] = [:]
        var tagOwners: [String: [String]] = [:]
        for key in ["UTExportedTypeDeclarations", "UTImportedTypeDeclarations"] {
            for entry in (try? root.array(key)) ?? [] { checkKeys(entry, known: Self.declarationKeys, add: add) }
        }
        for d in declarations {
            let path = d.keyPath.appending("UTTypeIdentifier")
            let normalized = d.normalizedIdentifier
            if let problem = TypeIdentifierSyntax.problem(with: d.identifier) {
                add(.error, "invalid type identifier \"\(d.identifier)\": \(problem)", path)
            }
            if normalized.hasPrefix("dyn.") {
                add(.error, "\(d.identifier) is a dynamic identifier; dyn. is reserved for types the system makes up", path)
            } else if d.kind == .exported, normalized.hasPrefix("public.") || normalized.hasPrefix("com.apple.") {
                add(.error, "exports \(d.identifier) in Apple's domain; only Apple declares public.* and com.apple.* types (import it if the system lacks it)", path)
            } else if d.kind == .exported, catalog.number(of: d.identifier).map(catalog.isDeclared) == true {
                add(.error, "exports \(d.identifier), which the system already declares; the system's declaration wins, so import it or remove it", path)
            } else if d.kind == .exported {
                let domain = Self.domain(of: normalized)
                let own = bundleID.map { Self.domain(of: TypeIdentifierSyntax.normalized($0)) }
                if let own, domain != own, Self.wellKnownVendorDomains.contains(domain) || catalogDomains.contains(domain) {
                    add(.warning, "exports \(d.identifier) in another vendor's domain (\(domain)); import it instead", path)
                } else if own == nil, Self.wellKnownVendorDomains.contains(domain) || catalogDomains.contains(domain) {
                    add(.warning, "exports \(d.identifier) in another vendor's domain (\(domain)); import it instead", path)
                }
            }
            if let first = seen[normalized] {
                add(.error, "\(d.identifier) is declared again (first at \(first))", d.keyPath)
            } else {
                seen[normalized] = d.keyPath
            }
            for (i, parent) in d.conformsTo.enumerated() {
                let parentPath = d.keyPath.appending("UTTypeConformsTo").appending(i)
                if TypeIdentifierSyntax.normalized(parent) == normalized {
                    add(.error, "\(d.identifier) conforms to itself", parentPath)
                } else if let problem = TypeIdentifierSyntax.problem(with: parent) {
                    add(.error, "invalid identifier \"\(parent)\" in UTTypeConformsTo: \(problem)", parentPath)
                } else if !isKnown(parent, declarations) {
                    add(.error, "\(d.identifier) conforms to \(parent), which neither this file nor the system declares", parentPath)
                }
            }
            checkTags(d, add: add, owners: &tagOwners)
        }
        for (tag, owners) in tagOwners where Set(owners.map(TypeIdentifierSyntax.normalized)).count > 1 {
            let first = declarations.first { $0.identifier == owners[0] }!
            add(.warning, "the tag \(tag) is claimed by several types in this file (\(owners.joined(separator: ", "))); only one can be preferred",
                first.keyPath.appending("UTTypeTagSpecification"))
        }

        // Conformance as the system will see it: the catalog plus this file's declarations.
        var all = declarations
        for n in catalog.allNumbers { if let d = catalog.declaration(of: n), !seen.keys.contains(d.normalizedIdentifier) { all.append(d) } }
        let combined = TypeRegistry(declarations: all)
        let data = combined.number(of: "public.data"), package = combined.number(of: "com.apple.package")
        let directory = combined.number(of: "public.directory")
        for diagnostic in combined.diagnostics {
            if case .cycle(let id, _) = diagnostic, let d = declarations.first(where: { $0.normalizedIdentifier == TypeIdentifierSyntax.normalized(id) }) {
                add(.error, "\(id) conforms to itself through a cycle of parents", d.keyPath.appending("UTTypeConformsTo"))
            }
        }
        for d in declarations where d.kind == .exported || d.kind == .imported {
            guard let n = combined.number(of: d.identifier) else { continue }
            let binds = [data, package, directory].contains { $0.map { combined.conforms(n, to: $0) } ?? false }
            if !binds && !d.tags.isEmpty {
                add(.warning, "\(d.identifier) conforms to neither public.data nor com.apple.package, so no file will be given this type", d.keyPath.appending("UTTypeConformsTo"))
            }
        }
    }

    func isKnown(_ identifier: String, _ declarations: [TypeDeclaration]) -> Bool {
        let n = TypeIdentifierSyntax.normalized(identifier)
        return declarations.contains { $0.normalizedIdentifier == n } || catalog.number(of: identifier).map(catalog.isDeclared) == true
    }

    func checkTags(_ d: TypeDeclaration, add: (LintFinding.Severity, String, PropertyListPath) -> Void, owners: inout [String: [String]]) {
        let spec = d.keyPath.appending("UTTypeTagSpecification")
        for (tagClass, tags) in d.tags {
            let path = spec.appending(tagClass.rawValue)
            if tags.isEmpty { add(.warning, "\(tagClass.rawValue) is an empty list", path) }
            var seenTags: Set<String> = []
            for (i, tag) in tags.enumerated() {
                let tagPath = tags.count > 1 ? path.appending(i) : path
                if tag.isEmpty { add(.error, "an empty \(tagClass.rawValue) tag never matches", tagPath); continue }
                if !seenTags.insert(tagClass.normalized(tag)).inserted { add(.warning, "\(tag) is listed twice", tagPath) }
                if tagClass == .filenameExtension {
                    if tag.hasPrefix(".") { add(.error, "filename extension \"\(tag)\" must not start with a dot", tagPath) }
                    if tag.contains("/") || tag.contains(" ") { add(.error, "filename extension \"\(tag)\" contains '/' or a space", tagPath) }
                } else if tagClass == .mimeType {
                    let parts = tag.split(separator: "/", omittingEmptySubsequences: false)
                    if parts.count != 2 || parts.contains(where: \.isEmpty) || tag.contains(" ") {
                        add(.error, "MIME type \"\(tag)\" is not of the form type/subtype", tagPath)
                    }
                } else if tagClass == .osType {
                    if tag.utf8.count != 4 { add(.error, "OSType \"\(tag)\" must be exactly 4 characters", tagPath) }
                }
                if tagClass == .filenameExtension || tagClass == .mimeType {
                    let key = "\(tagClass.rawValue) \(tagClass.normalized(tag))"
                    if !(owners[key]?.contains(d.identifier) ?? false) { owners[key, default: []].append(d.identifier) }
                }
            }
        }
    }

    // MARK: Document types

    func checkDocumentTypes(_ root: PropertyListCursor, _ declarations: [TypeDeclaration],
                            add: (LintFinding.Severity, String, PropertyListPath) -> Void) {
        guard let entries = try? root.array("CFBundleDocumentTypes") else { return }
        for entry in entries {
            checkKeys(entry, known: Self.documentTypeKeys, add: add)
            if let role = entry["CFBundleTypeRole"], let text = role.value.stringValue,
               !["Editor", "Viewer", "Shell", "None", "QLGenerator"].contains(text) {
                add(.error, "CFBundleTypeRole \"\(text)\" is not Editor, Viewer, Shell or None", role.path)
            }
            if let rank = entry["LSHandlerRank"] {
                if let text = rank.value.stringValue, !["Owner", "Default", "Alternate", "None"].contains(text) {
                    add(.error, "LSHandlerRank \"\(text)\" is not Owner, Default, Alternate or None", rank.path)
                }
            } else if entry["LSItemContentTypes"] != nil {
                add(.warning, "no LSHandlerRank: the rank is Default; say Owner, Default, Alternate or None", entry.path)
            }
            if let types = entry["LSItemContentTypes"] {
                if entry["CFBundleTypeExtensions"] != nil || entry["CFBundleTypeMIMETypes"] != nil {
                    add(.warning, "CFBundleTypeExtensions and CFBundleTypeMIMETypes are ignored when LSItemContentTypes is present", entry.path)
                }
                var seen: Set<String> = []
                for (i, element) in (types.value.arrayValue ?? [types.value]).enumerated() {
                    let path = types.value.arrayValue == nil ? types.path : types.path.appending(i)
                    guard let id = element.stringValue else { continue }
                    if !seen.insert(TypeIdentifierSyntax.normalized(id)).inserted {
                        add(.warning, "\(id) is listed twice", path)
                    } else if let problem = TypeIdentifierSyntax.problem(with: id) {
                        add(.error, "invalid type identifier \"\(id)\": \(problem)", path)
                    } else if TypeIdentifierSyntax.normalized(id).hasPrefix("dyn.") {
                        add(.error, "\(id) is a dynamic identifier; name a declared type", path)
                    } else if !isKnown(id, declarations) {
                        add(.error, "\(id) is declared neither in this file nor by the system, so this document type never matches", path)
                    }
                }
            }
            for (i, ext) in ((try? entry.stringOrArray("CFBundleTypeExtensions")) ?? nil ?? []).enumerated() {
                let path = entry.path.appending("CFBundleTypeExtensions").appending(i)
                if ext.isEmpty { add(.error, "an empty extension in CFBundleTypeExtensions never matches", path) }
                else if ext.hasPrefix(".") { add(.error, "extension \"\(ext)\" must not start with a dot", path) }
            }
            for (i, mime) in ((try? entry.stringOrArray("CFBundleTypeMIMETypes")) ?? nil ?? []).enumerated() {
                let parts = mime.split(separator: "/", omittingEmptySubsequences: false)
                if parts.count != 2 || parts.contains(where: \.isEmpty) {
                    add(.error, "MIME type \"\(mime)\" is not of the form type/subtype", entry.path.appending("CFBundleTypeMIMETypes").appending(i))
                }
            }
            for key in ["CFBundleTypeOSTypes"] {
                for (i, element) in ((try? entry.stringOrArray(key)) ?? nil ?? []).enumerated() where element.utf8.count != 4 {
                    add(.error, "OSType \"\(element)\" must be exactly 4 characters", entry.path.appending(key).appending(i))
                }
            }
        }
    }

    // MARK: Keys, value types, build variables

    func checkKeys(_ cursor: PropertyListCursor, known: Set<String>, add: (LintFinding.Severity, String, PropertyListPath) -> Void) {
        guard case .dictionary(let entries) = cursor.value else { return }
        for key in entries.keys where !known.contains(key) {
            if let near = known.first(where: { $0.lowercased() == key.lowercased() }) ?? known.filter({ Self.distance(key, $0) <= 2 }).min(by: { Self.distance(key, $0) < Self.distance(key, $1) }) {
                add(.warning, "unknown key \(key); did you mean \(near)?", cursor.path.appending(key))
            }
        }
    }

    func checkValueTypes(_ value: PropertyList, path: PropertyListPath, add: (LintFinding.Severity, String, PropertyListPath) -> Void) {
        switch value {
        case .dictionary(let entries):
            for (key, child) in entries {
                if Self.booleanKeys.contains(key) {
                    switch child {
                    case .bool: break
                    case .string(let s): add(.error, "\(key) must be a boolean (<true/> or <false/>), not the string \"\(s)\"", path.appending(key))
                    default: add(.error, "\(key) must be a boolean (<true/> or <false/>), not \(child.typeNameWithArticle)", path.appending(key))
                    }
                }
                checkValueTypes(child, path: path.appending(key), add: add)
            }
        case .array(let elements):
            for (i, element) in elements.enumerated() { checkValueTypes(element, path: path.appending(i), add: add) }
        default: break
        }
    }

    /// Replaces `$(NAME)`, `${NAME}` and `${NAME:modifier}` with defined values; reports the rest.
    func substituteVariables(_ value: PropertyList, path: PropertyListPath, report: (String, PropertyListPath) -> Void) -> PropertyList {
        switch value {
        case .string(let s):
            guard s.contains("$(") || s.contains("${") else { return value }
            var out = ""
            var rest = Substring(s)
            var unresolved: [String] = []
            while let start = rest.firstIndex(of: "$") {
                out += rest[..<start]
                let after = rest.index(after: start)
                guard after < rest.endIndex, rest[after] == "(" || rest[after] == "{",
                      let end = rest[after...].firstIndex(of: rest[after] == "(" ? ")" : "}") else {
                    out.append("$"); rest = rest[after...]; continue
                }
                let inner = rest[rest.index(after: after)..<end]
                let name = String(inner.split(separator: ":").first ?? inner)
                if let defined = definitions[name] {
                    out += inner.hasSuffix(":rfc1034identifier") ? String(defined.map { $0.isLetter || $0.isNumber || $0 == "." ? $0 : "-" }) : defined
                } else {
                    unresolved.append(String(rest[start...end]))
                    out += rest[start...end]
                }
                rest = rest[rest.index(after: end)...]
            }
            out += rest
            if !unresolved.isEmpty {
                report("unresolved build variable \(unresolved.joined(separator: ", ")); pass --define NAME=VALUE to check the built value", path)
            }
            return .string(out)
        case .array(let elements):
            return .array(elements.enumerated().map { substituteVariables($0.element, path: path.appending($0.offset), report: report) })
        case .dictionary(let entries):
            var copy = entries
            for (key, child) in entries { copy[key] = substituteVariables(child, path: path.appending(key), report: report) }
            return .dictionary(copy)
        default: return value
        }
    }

    static func domain(of identifier: String) -> String {
        identifier.split(separator: ".").prefix(2).joined(separator: ".")
    }

    /// Levenshtein distance, for "did you mean".
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8), b = Array(b.utf8)
        if abs(a.count - b.count) > 2 { return 3 }
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
