/// Every rule the Info.plist linter applies, by name: a finding says which rule it breaks, and a
/// rule can be silenced (`uti lint --ignore RULE`).
public enum LintRule: String, Sendable, Hashable, CaseIterable, Comparable {
    // The file
    /// The file could not be read (missing, unreadable, a folder).
    case unreadable = "unreadable"
    /// The file is not a property list it could parse (the error's line and column).
    case malformed = "malformed"
    case notADictionary = "not-a-dictionary"
    case duplicateKey = "duplicate-key"
    case unknownKey = "unknown-key"
    case valueType = "value-type"
    case toleratedBoolean = "tolerated-boolean"
    case unresolvedVariable = "unresolved-variable"
    // Identity
    case bundleIdentifier = "bundle-identifier"
    case bundleSignature = "bundle-signature"
    // Type declarations
    case invalidIdentifier = "invalid-identifier"
    case dynamicIdentifier = "dynamic-identifier"
    case appleDomain = "apple-domain"
    case reservedPublicDomain = "reserved-public-domain"
    case redeclaredSystemType = "redeclared-system-type"
    case foreignDomain = "foreign-domain"
    case declaredTwice = "declared-twice"
    case conformsToItself = "conforms-to-itself"
    case unknownParent = "unknown-parent"
    case conformanceCycle = "conformance-cycle"
    case neverBinds = "never-binds"
    case tag = "tag"
    case sharedTag = "shared-tag"
    // Document types
    case role = "role"
    case rank = "rank"
    case missingRank = "missing-rank"
    case ignoredLegacyKeys = "ignored-legacy-keys"
    case undeclaredContentType = "undeclared-content-type"
    case legacyTag = "legacy-tag"
    // URL types and queried schemes
    case urlScheme = "url-scheme"
    case contestedScheme = "contested-scheme"
    case schemeIsBundleIdentifier = "scheme-is-bundle-identifier"
    case queriedSchemes = "queried-schemes"
    // Activity types (Handoff)
    case activityType = "activity-type"
    case contestedActivityType = "contested-activity-type"
    // Entitlements
    case applicationGroups = "application-groups"
    case teamIdentifier = "team-identifier"

    /// Rules sort by name.
    public static func < (a: LintRule, b: LintRule) -> Bool { a.rawValue < b.rawValue }
}
