/// The Info.plist keys the toolkit knows, in one place: what the registry records for the app
/// model, and what the linter accepts where.
public enum InfoPlistKeys {
    /// What the registry keeps of an Info.plist: everything ``AppBundle`` reads.
    public static let recorded = [
        "CFBundleIdentifier", "CFBundleDisplayName", "CFBundleName", "CFBundleShortVersionString", "CFBundleVersion",
        "CFBundleDocumentTypes", "CFBundleURLTypes", "LSApplicationQueriesSchemes", "NSUserActivityTypes",
        "LSSupportsOpeningDocumentsInPlace", LaunchCommand.key, "NSExtension",
    ]

    /// Top-level keys.
    public static let topLevel: Set<String> = [
        "CFBundleIdentifier", "CFBundleName", "CFBundleDisplayName", "CFBundleExecutable", "CFBundleVersion",
        "CFBundleShortVersionString", "CFBundlePackageType", "CFBundleSignature", "CFBundleDocumentTypes",
        "CFBundleURLTypes", "CFBundleIconFile", "CFBundleIconFiles", "CFBundleIcons", "CFBundleDevelopmentRegion",
        "CFBundleInfoDictionaryVersion", "CFBundleGetInfoString", "CFBundleLocalizations", "CFBundleAllowMixedLocalizations",
        "UTExportedTypeDeclarations", "UTImportedTypeDeclarations", "LSSupportsOpeningDocumentsInPlace",
        "LSMinimumSystemVersion", "LSApplicationCategoryType", "LSRequiresIPhoneOS", "UIFileSharingEnabled",
        "UISupportsDocumentBrowser", "NSExtension", "NSPrincipalClass", "NSMainNibFile", "NSHumanReadableCopyright",
        "LSUIElement", "LSBackgroundOnly", "NSAppleScriptEnabled", "LSApplicationQueriesSchemes", "NSUserActivityTypes",
        LaunchCommand.key,
    ]
    /// Keys of a `CFBundleDocumentTypes` entry.
    public static let documentType: Set<String> = [
        "CFBundleTypeName", "CFBundleTypeRole", "LSHandlerRank", "LSItemContentTypes", "CFBundleTypeExtensions",
        "CFBundleTypeMIMETypes", "CFBundleTypeOSTypes", "CFBundleTypeIconFile", "CFBundleTypeIconFiles",
        "CFBundleTypeIconSystemGenerated", "LSTypeIsPackage", "NSDocumentClass", "NSExportableTypes", "NSExportableAs",
        "NSUbiquitousDocumentUserActivityType", "LSIsAppleDefaultForType",
    ]
    /// Keys of a `CFBundleURLTypes` entry.
    public static let urlType: Set<String> = ["CFBundleURLName", "CFBundleURLSchemes", "CFBundleTypeRole", "CFBundleURLIconFile"]
    /// Keys of a type declaration.
    public static let typeDeclaration: Set<String> = [
        "UTTypeIdentifier", "UTTypeConformsTo", "UTTypeDescription", "UTTypeIconFile", "UTTypeIconFiles",
        "UTTypeIcons", "UTTypeReferenceURL", "UTTypeTagSpecification", "UTTypeVersion", "UTTypeIconName",
    ]
    /// Keys whose value is a boolean (a string macOS reads as one is tolerated, with a warning).
    public static let booleans: Set<String> = [
        "LSTypeIsPackage", "LSSupportsOpeningDocumentsInPlace", "UIFileSharingEnabled", "LSRequiresIPhoneOS",
        "UISupportsDocumentBrowser", "NSAppleScriptEnabled", "LSUIElement", "LSBackgroundOnly",
        "UIApplicationSupportsIndirectInputEvents", "ITSAppUsesNonExemptEncryption",
    ]
}
