import PropertyLists
import UniformTypes

/// Checks an Info.plist the way the rest of the toolkit reads it: the app model's readers
/// (``AppBundle``, ``DocumentTypeClaim``, ``URLType``, ``InfoPlistValue``) decide what a value
/// means, and the linter reports where that differs from what the author meant: invalid or
/// reserved identifiers, redefined system types, broken conformance, tags that never match,
/// document types that name nothing or never open, roles and ranks LaunchServices does not know,
/// URL schemes that are invalid or contested, activity types that are empty, foreign or contested,
/// misspelt keys, wrong value types and unresolved
/// build variables.
///
/// ```swift
/// let findings = InfoPlistLinter(catalog: registry).lint(document)
/// for f in findings { print(f.formatted(file: "Info.plist")) }
/// ```
public struct InfoPlistLinter: Sendable {
    /// The system types the plist is checked against.
    public var catalog: TypeRegistry
    /// Values for build variables (`PRODUCT_BUNDLE_IDENTIFIER` → `com.example.app`), substituted
    /// before checking; variables without a value are reported as warnings.
    public var variables: BuildVariables
    /// The other apps on the device, for the checks across apps (a URL scheme two apps claim).
    public var otherApps: [AppBundle]
    /// Rules not to report.
    public var ignored: Set<LintRule>

    /// Creates a linter against `catalog`.
    public init(catalog: TypeRegistry, variables: BuildVariables = BuildVariables(), otherApps: [AppBundle] = [], ignoring ignored: Set<LintRule> = []) {
        self.catalog = catalog
        self.variables = variables
        self.otherApps = otherApps
        self.ignored = ignored
    }

    /// Creates a linter against `catalog` with build variable values.
    public init(catalog: TypeRegistry, definitions: [String: String]) {
        self.init(catalog: catalog, variables: BuildVariables(definitions))
    }

    /// Every finding for one plist, ordered by position.
    public func lint(_ document: PropertyListDocument) -> [LintFinding] {
        var out = LintCollector(document: document, ignored: ignored)
        for duplicate in document.duplicateKeys {
            out.add(.duplicateKey, .warning, "the key appears twice in one dictionary; the last value is used", duplicate.keyPath)
        }
        let (value, unresolved) = variables.substitute(document.value)
        for missing in unresolved {
            for variable in missing.variables {
                out.add(.unresolvedVariable, .warning,
                        "unresolved build variable \(variable); pass --define NAME=VALUE to check the built value", missing.keyPath,
                        subject: variable, plural: "unresolved build variables", advice: "pass --define NAME=VALUE to check the built values")
            }
        }
        guard case .dictionary = value else {
            out.add(.notADictionary, .error, "an Info.plist must be a dictionary, not \(value.typeNameWithArticle)", .root)
            return out.sorted
        }
        let app = AppBundle(plist: value)
        KeyChecks.check(value, into: &out)
        IdentityChecks.check(value, app: app, into: &out)
        var diagnostics: [DeclarationDiagnostic] = []
        let declarations = TypeDeclaration.declarations(in: value, source: app.bundleIdentifier.isEmpty ? "this file" : app.bundleIdentifier,
                                                        diagnostics: &diagnostics)
        for d in diagnostics { out.add(.invalidIdentifier, d.severity == .error ? .error : .warning, d.message, d.keyPath) }
        let declarationChecks = DeclarationChecks(catalog: catalog, declarations: declarations,
                                                  bundleIdentifier: BundleIdentifier.usable(value["CFBundleIdentifier"]?.stringValue))
        declarationChecks.check(value, into: &out)
        DocumentTypeChecks(declarations: declarationChecks).check(value, claims: app.claims, into: &out)
        URLTypeChecks(otherApps: otherApps).check(value, app: app, into: &out)
        ActivityTypeChecks(otherApps: otherApps).check(value, app: app, into: &out)
        return out.sorted
    }
}
