/// The locale names a localized key (`Name[de_DE@euro]`) is looked up under, best first, as the
/// desktop entry specification orders them for a `LC_MESSAGES` of `lang_COUNTRY.ENCODING@MODIFIER`:
/// `lang_COUNTRY@MODIFIER`, `lang_COUNTRY`, `lang@MODIFIER`, `lang`; the encoding is dropped. The
/// value comes from `LC_ALL`, else `LC_MESSAGES`, else `LANG` (the first that is set and not empty);
/// `LANGUAGE`, a list, adds its entries in front, each expanded the same way.
///
/// GLib orders `lang@MODIFIER` before `lang_COUNTRY` (docs/desktop-apps.md); only a file with both
/// of those translations and not the full one can tell.
public enum LocaleNames {
    /// The names for the environment's locale (empty for `C` and `POSIX`).
    public static func current(_ value: (String) -> String?) -> [String] {
        var result: [String] = []
        var messages: String?
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let found = value(name), !found.isEmpty { messages = found; break }
        }
        if let messages, messages != "C", messages != "POSIX", let language = value("LANGUAGE"), !language.isEmpty {
            for name in language.split(separator: ":") { append(variants(of: String(name)), to: &result) }
        }
        if let messages { append(variants(of: messages), to: &result) }
        return result
    }

    /// Adds the names not already there. An empty name or one with `:` (from a malformed
    /// variable) is no locale; keeping them out also keeps the index's key, which joins the names
    /// with `:`, read back as the same list (``DesktopAppIndex``'s `locales(ifBuiltForSourcesOf:)`).
    static func append(_ names: [String], to result: inout [String]) {
        for name in names where !name.isEmpty && !name.contains(":") && !result.contains(name) { result.append(name) }
    }

    /// `de_DE.UTF-8@euro` → `de_DE@euro`, `de_DE`, `de@euro`, `de`.
    public static func variants(of locale: String) -> [String] {
        guard locale != "C", locale != "POSIX", !locale.isEmpty else { return [] }
        var rest = Substring(locale)
        var modifier: Substring?
        if let at = rest.firstIndex(of: "@") { modifier = rest[rest.index(after: at)...]; rest = rest[..<at] }
        if let dot = rest.firstIndex(of: ".") { rest = rest[..<dot] }
        var country: Substring?
        if let underscore = rest.firstIndex(of: "_") { country = rest[rest.index(after: underscore)...]; rest = rest[..<underscore] }
        let language = String(rest)
        var names: [String] = []
        if let country, let modifier { names.append("\(language)_\(country)@\(modifier)") }
        if let country { names.append("\(language)_\(country)") }
        if let modifier { names.append("\(language)@\(modifier)") }
        names.append(language)
        return names
    }
}

extension KeyFile.Group {
    /// The value of `key` for the first of `locales` that has a readable translation, else the
    /// untranslated value; `nil` when neither is present or readable.
    public func localizedString(_ key: String, locales: [String], path: String?) -> String? {
        for locale in locales {
            if let entry = entry(key, locale: locale), let value = try? entry.string(in: path) { return value }
        }
        return try? entry(key)?.string(in: path)
    }
}
