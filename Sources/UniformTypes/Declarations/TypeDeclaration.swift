import PropertyLists

/// One type as a catalog file or an app's Info.plist declares it.
public struct TypeDeclaration: Sendable, Hashable {
    /// How a declaration was made, which decides precedence between declarations of one identifier.
    public enum Kind: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
        /// From an app's `UTImportedTypeDeclarations`: the app uses a type someone else owns.
        case imported = 0
        /// From an app's `UTExportedTypeDeclarations`: the app owns the type.
        case exported = 1
        /// From the system catalog in `UTIs/`.
        case system = 2

        /// Lower precedence first.
        public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }

        /// `imported`, `exported` or `system`.
        public var description: String {
            switch self {
            case .imported: "imported"
            case .exported: "exported"
            case .system: "system"
            }
        }
    }

    /// The identifier as declared (comparison ignores ASCII case).
    public var identifier: String
    /// The parents in declared order (`UTTypeConformsTo`); the order decides property inheritance.
    public var conformsTo: [String]
    /// `UTTypeDescription`.
    public var description: String?
    /// `UTTypeReferenceURL`.
    public var referenceURL: String?
    /// `UTTypeVersion`, as a string.
    public var version: String?
    /// `UTTypeIconFile` / `UTTypeIconFiles`, first file first.
    public var iconFiles: [String]
    /// Standard tag classes to tags in declared order (the first is the preferred tag).
    public var tags: [TagClass: [String]]
    /// System, exported or imported.
    public var kind: Kind
    /// The declaring bundle's identifier, or the catalog file's name for system types.
    public var source: String
    /// Where in its plist the declaration is (`UTExportedTypeDeclarations[3]`).
    public var keyPath: PropertyListPath
    /// Whether macOS's CoreTypes bundle declares this system type (lsregister marks such types
    /// `core`), rather than another of Apple's bundles (ImageIO, Disk Images, Xcode, Logic Pro, …):
    /// a catalog declaration is one unless it says `DeclaredByCoreTypes` `false`. It decides which
    /// of several system types claiming one tag answers it (``TagClaimOrder``).
    public var isCoreType = false
    /// Translations of ``description`` by language (`fr`, `pt_BR`), from the bundle's
    /// `LANG.lproj/InfoPlist.strings`, whose keys are the descriptions themselves.
    public var localizedDescriptions: [String: String] = [:]

    /// Creates a declaration.
    public init(identifier: String, conformsTo: [String] = [], description: String? = nil,
                referenceURL: String? = nil, version: String? = nil, iconFiles: [String] = [],
                tags: [TagClass: [String]] = [:], kind: Kind, source: String, keyPath: PropertyListPath = .root) {
        self.identifier = identifier
        self.conformsTo = conformsTo
        self.description = description
        self.referenceURL = referenceURL
        self.version = version
        self.iconFiles = iconFiles
        self.tags = tags
        self.kind = kind
        self.source = source
        self.keyPath = keyPath
    }

    /// The identifier in the form used for comparison.
    public var normalizedIdentifier: String { TypeIdentifierSyntax.normalized(identifier) }
}

/// A problem found while reading declarations; reading goes on past it.
public struct DeclarationDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious.
    public enum Severity: String, Sendable, Hashable { case error, warning }
    /// How serious.
    public var severity: Severity
    /// What is wrong.
    public var message: String
    /// Where, in the plist.
    public var keyPath: PropertyListPath

    /// Creates a diagnostic.
    public init(_ severity: Severity, _ message: String, at keyPath: PropertyListPath) {
        self.severity = severity
        self.message = message
        self.keyPath = keyPath
    }

    /// `severity: message [key path]`.
    public var description: String { "\(severity.rawValue): \(message) [\(keyPath)]" }
}

extension TypeDeclaration {
    /// Reads the type declarations of an Info.plist (or a catalog file in the same form).
    ///
    /// Tolerant as the system is: a single string where an array belongs is taken as a one-element
    /// array, non-standard tag classes are dropped, and a declaration without a usable identifier is
    /// skipped; each such thing is reported in `diagnostics`.
    /// - Parameters:
    ///   - plist: the root dictionary.
    ///   - source: the bundle identifier (or catalog name) recorded on each declaration.
    ///   - asSystem: read `UTExportedTypeDeclarations` as system declarations (the catalog).
    public static func declarations(in plist: PropertyList, source: String, asSystem: Bool = false,
                                    diagnostics: inout [DeclarationDiagnostic]) -> [TypeDeclaration] {
        let root = PropertyListCursor(plist)
        var result: [TypeDeclaration] = []
        for (key, kind) in [("UTExportedTypeDeclarations", asSystem ? Kind.system : .exported), ("UTImportedTypeDeclarations", .imported)] {
            let entries: [PropertyListCursor]
            do { entries = try root.array(key) ?? [] } catch {
                diagnostics.append(.init(.error, "\(key) must be an array of dictionaries: \(error.message)", at: error.path))
                continue
            }
            for entry in entries {
                if let declaration = read(entry, kind: kind, source: source, diagnostics: &diagnostics) {
                    result.append(declaration)
                }
            }
        }
        return result
    }

    /// The catalog's key for a system type that CoreTypes does not declare (``isCoreType``); not
    /// one of Apple's keys, and read in the system catalog only.
    public static let coreTypesKey = "DeclaredByCoreTypes"

    static func read(_ entry: PropertyListCursor, kind: Kind, source: String,
                     diagnostics: inout [DeclarationDiagnostic]) -> TypeDeclaration? {
        guard case .dictionary = entry.value else {
            diagnostics.append(.init(.error, "a type declaration must be a dictionary, not \(entry.value.typeNameWithArticle)", at: entry.path))
            return nil
        }
        func strings(_ key: String) -> [String] {
            do { return try entry.stringOrArray(key) ?? [] } catch {
                diagnostics.append(.init(.error, error.message, at: error.path))
                return []
            }
        }
        func string(_ key: String) -> String? {
            guard let value = entry[key] else { return nil }
            switch value.value {
            case .string(let s): return s
            case .integer(let i): return String(i)
            case .real(let r): return String(r)
            default:
                diagnostics.append(.init(.error, "expected a string, found \(value.value.typeNameWithArticle)", at: value.path))
                return nil
            }
        }
        guard let identifier = string("UTTypeIdentifier") else {
            diagnostics.append(.init(.error, "declaration has no UTTypeIdentifier", at: entry.path))
            return nil
        }
        var tags: [TagClass: [String]] = [:]
        if let spec = entry["UTTypeTagSpecification"] {
            if case .dictionary(let classes) = spec.value {
                for (className, _) in classes {
                    guard let tagClass = TagClass(standard: className) else {
                        diagnostics.append(.init(.warning, "'\(className)' is not a standard tag class; ignored", at: spec.path.appending(className)))
                        continue
                    }
                    let values: [String]
                    do { values = try spec.stringOrArray(className) ?? [] } catch {
                        diagnostics.append(.init(.error, error.message, at: error.path))
                        continue
                    }
                    tags[tagClass] = values
                }
            } else {
                diagnostics.append(.init(.error, "UTTypeTagSpecification must be a dictionary", at: spec.path))
            }
        }
        var icons = strings("UTTypeIconFiles")
        if let single = string("UTTypeIconFile") { icons.insert(single, at: 0) }
        var declaration = TypeDeclaration(
            identifier: identifier, conformsTo: strings("UTTypeConformsTo"), description: string("UTTypeDescription"),
            referenceURL: string("UTTypeReferenceURL"), version: string("UTTypeVersion"), iconFiles: icons,
            tags: tags, kind: kind, source: source, keyPath: entry.path)
        if kind == .system {
            switch entry[coreTypesKey]?.value {
            case nil, .bool(true)?: declaration.isCoreType = true
            case .bool(false)?: declaration.isCoreType = false
            case let other?:
                diagnostics.append(.init(.error, "\(coreTypesKey) must be a boolean, not \(other.typeNameWithArticle)", at: entry.path.appending(coreTypesKey)))
            }
        }
        return declaration
    }
}
