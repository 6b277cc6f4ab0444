import PropertyLists

/// One `CFBundleURLTypes` entry: the URL schemes an app handles.
public struct URLType: Sendable, Hashable {
    /// `CFBundleURLName` (a reverse-DNS name for the type).
    public var name: String?
    /// `CFBundleURLSchemes`, as written.
    public var schemes: [String]
    /// `CFBundleTypeRole` (Editor when absent), and a value LaunchServices does not know.
    public var role: HandlerRole
    public var unknownRole: String?
    /// Where the entry is in its Info.plist.
    public var keyPath: PropertyListPath

    /// A URL type.
    public init(name: String? = nil, schemes: [String], role: HandlerRole = .whenAbsent, keyPath: PropertyListPath = .root) {
        self.name = name
        self.schemes = schemes
        self.role = role
        self.keyPath = keyPath
    }

    /// Whether URLs of this type's schemes are opened by the app: a role LaunchServices knows that
    /// handles URLs (Editor, Viewer or Shell; a URL type's role is only a hint, and Shell apps
    /// provide services through URLs). Role None declares a scheme without handling it, and an
    /// unknown role opens nothing, as for document types (``DocumentTypeClaim``).
    public var opensURLs: Bool {
        unknownRole == nil && (role == .editor || role == .viewer || role == .shell)
    }

    /// Why the type opens nothing, when it does not.
    public var whyItOpensNothing: String? {
        if let unknownRole { return "its role \"\(unknownRole)\" is not one LaunchServices knows (Editor, Viewer, Shell, None)" }
        if !opensURLs { return "role \(role.rawValue), which does not open URLs" }
        return nil
    }

    /// Reads `CFBundleURLTypes` from an Info.plist.
    public static func urlTypes(in plist: PropertyList) -> [URLType] {
        guard case .array(let entries)? = plist["CFBundleURLTypes"] else { return [] }
        return entries.enumerated().compactMap { index, entry in
            guard case .dictionary = entry else { return nil }
            var type = URLType(name: entry["CFBundleURLName"]?.stringValue, schemes: InfoPlistValue.strings(entry["CFBundleURLSchemes"]),
                               keyPath: PropertyListPath.root.appending("CFBundleURLTypes").appending(index))
            if let value = entry["CFBundleTypeRole"] {
                if let text = value.stringValue, let role = HandlerRole(rawValue: text) { type.role = role } else {
                    type.unknownRole = value.stringValue ?? value.typeNameWithArticle
                }
            }
            return type
        }
    }

    /// Why `scheme` is not a valid URL scheme (RFC 3986: a letter, then letters, digits, `+`, `-`
    /// and `.`), or `nil` when it is.
    public static func problem(withScheme scheme: String) -> String? {
        guard let first = scheme.unicodeScalars.first else { return "it is empty" }
        guard first.isASCII, first.properties.isAlphabetic else { return "it must start with a letter" }
        if let bad = scheme.unicodeScalars.first(where: { !($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "+" || $0 == "-" || $0 == ".")) }) {
            return "it contains '\(bad)'; only letters, digits, '+', '-' and '.' are allowed"
        }
        return nil
    }

    /// The normalized form of a scheme: schemes compare ignoring case (RFC 3986 3.1).
    public static func normalized(_ scheme: String) -> String { scheme.lowercased() }
}
