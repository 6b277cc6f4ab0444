/// The one rule for what a `CFBundleIdentifier` value is worth: the registry, the registration,
/// the chooser, the receiver and the linter all ask here.
public enum BundleIdentifier {
    /// The value as an app's identity, or `nil` when it cannot be one: empty, or holding an
    /// unresolved build variable (`$(PRODUCT_BUNDLE_IDENTIFIER)`, `${PRODUCT_NAME}`: any `$`),
    /// which names nothing until the build resolves it. The caller then falls back to the
    /// registration's name.
    public static func usable(_ value: String?) -> String? {
        guard let value, !value.isEmpty, !value.contains("$") else { return nil }
        return value
    }

    /// Why `value` is not a valid bundle identifier, or `nil` when it is: letters, digits,
    /// hyphens and periods (RFC 1034's characters, as Apple documents), not empty, not starting
    /// or ending with a period, no empty component.
    public static func problem(with value: String) -> String? {
        if value.isEmpty { return "it is empty" }
        if value.contains("$") { return "it holds an unresolved build variable" }
        if let bad = value.unicodeScalars.first(where: { !(($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "-" || $0 == ".") }) {
            return "it contains '\(bad)'; only letters, digits, hyphens and periods are allowed"
        }
        if value.hasPrefix(".") || value.hasSuffix(".") || value.contains("..") { return "it has an empty component" }
        return nil
    }

    /// Whether `value` can name an app's container folder (and a registration entry): a usable
    /// identifier that is a plain folder name.
    public static func canNameFolder(_ value: String) -> Bool {
        !value.isEmpty && value != "." && value != ".." && !value.hasPrefix(".") && !value.contains("/") && !value.utf8.contains(0)
    }
}
