import Foundation

/// The one rule for a name that came from the network: display text, made into a single safe
/// path component before the receiver uses it as the name a delivered file gets (it still picks
/// the folder, and `Delivery` picks a free variant of the name).
public enum ItemName {
    /// The most bytes a name keeps (the usual file-system limit).
    public static let maximumBytes = 255

    /// `name` made safe: NFC; `/`, NUL, control and bidirectional-override characters replaced
    /// by `_`; a leading dot replaced (no hidden files); empty, `.` and `..` become `item`; cut to
    /// ``maximumBytes`` UTF-8 bytes at a character boundary, keeping a short extension.
    public static func safe(_ name: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in name.precomposedStringWithCanonicalMapping.unicodeScalars {
            scalars.append(isUnsafe(scalar) ? "_" : scalar)
        }
        var result = String(scalars)
        if result.hasPrefix(".") { result = "_" + result.dropFirst() }
        if result.isEmpty || result == "_" || result == "_." { result = "item" }
        return cut(result)
    }

    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "/" || scalar.properties.generalCategory == .control { return true }
        // Bidirectional overrides and isolates make a name read differently from what it is.
        return (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    static func cut(_ name: String) -> String {
        guard name.utf8.count > maximumBytes else { return name }
        var ext = ""
        if let dot = name.lastIndex(of: "."), name.distance(from: dot, to: name.endIndex) <= 16 { ext = String(name[dot...]) }
        var kept = ""
        for character in name.dropLast(ext.count) {
            if kept.utf8.count + character.utf8.count + ext.utf8.count > maximumBytes { break }
            kept.append(character)
        }
        return kept + ext
    }
}
