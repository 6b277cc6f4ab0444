import Foundation
import SystemCalls

/// Text a peer sent (its name, an app identifier, a type, a reason), made display-safe once,
/// where it is decoded, so that no printer has to remember: NFC, combining marks bounded per
/// character (``ItemName/maximumMarksPerCharacter``), every control, invisible format and
/// separator character kept only as its visible escape (``SystemCalls/TerminalText``, the one
/// escaping rule), then cut to a length (the rest as "…"). A name of thousands of characters
/// wrapped over the prompt it sat in and could draw a fake one; an escape sequence cleared the
/// screen and hid the real one.
///
/// Applying it again changes nothing, so a decoded message encodes and decodes to itself (the
/// fuzz oracles' round trip).
enum NetworkText {
    /// The most characters a device's or sender's name keeps.
    static let nameLimit = 64
    /// The most characters an identifier (a bundle identifier, a type) keeps.
    static let identifierLimit = 255
    /// The most characters a reason or a title keeps.
    static let textLimit = 300

    /// A device's or a sender's name.
    static func name(_ text: String) -> String { safe(text, limit: nameLimit) }
    /// A bundle identifier, a UTI or a MIME type.
    static func identifier(_ text: String) -> String { safe(text, limit: identifierLimit) }
    /// A reason, a title.
    static func text(_ text: String) -> String { safe(text, limit: textLimit) }

    /// `text` made safe and at most `limit` characters long.
    static func safe(_ text: String, limit: Int) -> String {
        let escaped = TerminalText.escaped(ItemName.boundingMarks(text)).precomposedStringWithCanonicalMapping
        guard escaped.count > limit else { return escaped }
        return String(escaped.prefix(limit - 1)) + "…"
    }
}
