import Foundation

/// The one rule for a name that came from the network: display text, made into a single safe
/// path component before the receiver uses it as the name a delivered file gets (it still picks
/// the folder, and `Delivery` picks a free variant of the name).
public enum ItemName {
    /// The most bytes a name keeps (the usual file-system limit).
    public static let maximumBytes = 255

    /// The most combining marks one character keeps. Real scripts stack a few (Vietnamese two,
    /// Tibetan and Indic clusters a handful); a pile of dozens only draws over its neighbours.
    public static let maximumMarksPerCharacter = 8

    /// `name` made safe: NFC; `/`, NUL, control and bidirectional-override characters replaced
    /// by `_`; combining marks bounded per character; cut to ``maximumBytes`` UTF-8 bytes at a
    /// character boundary, keeping a short extension; and only then the leading-dot rule (no
    /// hidden files, nothing named like the spool's `.partial` and `.delivered` markers) and the
    /// empty rule (`item`), so the cut cannot undo them.
    public static func safe(_ name: String) -> String {
        var result = String(String.UnicodeScalarView(boundingMarks(name).unicodeScalars.map { isUnsafe($0) ? "_" : $0 }))
        result = cut(result)
        if result.hasPrefix(".") { result = "_" + result.dropFirst() }
        if result.isEmpty || result == "_" || result == "_." { result = "item" }
        return result
    }

    /// Whether `name` keeps every promise ``safe(_:)`` makes: one non-empty component, not
    /// hidden, no unsafe character, marks bounded, at most ``maximumBytes`` bytes, NFC. The fuzz
    /// entries hold every decoded name to it.
    public static func isSafe(_ name: String) -> Bool {
        guard !name.isEmpty, !name.hasPrefix("."), name.utf8.count <= maximumBytes,
              name == name.precomposedStringWithCanonicalMapping else { return false }
        return name.allSatisfy { character in
            !character.unicodeScalars.contains(where: isUnsafe)
                && character.unicodeScalars.filter(isMark).count <= maximumMarksPerCharacter
        }
    }

    /// `text` in NFC with at most ``maximumMarksPerCharacter`` combining marks per character (the
    /// rest dropped): the bound ``NetworkText`` applies too.
    static func boundingMarks(_ text: String) -> String {
        var bounded = ""
        for character in text.precomposedStringWithCanonicalMapping {
            var marks = 0
            for scalar in character.unicodeScalars {
                if isMark(scalar) {
                    marks += 1
                    if marks > maximumMarksPerCharacter { continue }
                }
                bounded.unicodeScalars.append(scalar)
            }
        }
        return bounded
    }

    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "/" || scalar.properties.generalCategory == .control { return true }
        // Bidirectional overrides and isolates make a name read differently from what it is.
        return (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
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
        // A first character longer than the room leaves no stem: a plain one keeps the name visible.
        return (kept.isEmpty ? "item" : kept) + ext
    }
}
