import Hashing
import SystemCalls

/// The name of a pasteboard: one of the system pasteboards (`general`, `find`, and macOS's `font`
/// and `ruler`) or a named pasteboard an app or the user creates.
///
/// Names are compared exactly (Apple's are case-sensitive strings). The system names are the
/// short ones `pbcopy -pboard` takes.
public struct PasteboardName: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The name.
    public let rawValue: String

    /// A pasteboard name (checked when a pasteboard is opened, see ``validate()``).
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A pasteboard name.
    public init(_ name: String) { self.rawValue = name }

    /// A pasteboard name written as a literal.
    public init(stringLiteral name: String) { self.rawValue = name }

    /// The systemwide general pasteboard: copy and paste.
    public static let general = PasteboardName("general")
    /// The find pasteboard: the text of the last search.
    public static let find = PasteboardName("find")
    /// macOS's font pasteboard (Copy Font).
    public static let font = PasteboardName("font")
    /// macOS's ruler pasteboard (Copy Ruler).
    public static let ruler = PasteboardName("ruler")

    /// The system pasteboards, which every client sees and nobody removes.
    public static let system: [PasteboardName] = [.general, .find, .font, .ruler]

    /// Whether this is a system pasteboard.
    public var isSystem: Bool { Self.system.contains(self) }

    /// The longest name, in UTF-8 bytes.
    public static let maximumLength = 255

    /// Checks that the name can be stored: not empty, at most ``maximumLength`` bytes of UTF-8,
    /// no NUL and no control character.
    public func validate() throws(PasteboardError) {
        let bytes = Array(rawValue.utf8)
        if bytes.isEmpty { throw .invalidName(rawValue, reason: "a pasteboard name cannot be empty") }
        if bytes.count > Self.maximumLength {
            throw .invalidName(rawValue, reason: "a pasteboard name is at most \(Self.maximumLength) bytes, not \(bytes.count)")
        }
        if let index = bytes.firstIndex(where: { $0 < 0x20 || $0 == 0x7F }) {
            throw .invalidName(rawValue, reason: "control character at byte \(index)")
        }
    }

    /// The folder name the pasteboard is stored under: system names as they are, other names
    /// prefixed `n-` with every byte outside `[A-Za-z0-9._-]` as `%XX`; a name whose spelling
    /// would pass 200 bytes is stored as `h-` and a 64-bit hash (its real name is kept in the
    /// stored generation, and checked on every read).
    var folderName: String {
        if isSystem { return rawValue }
        var out = "n-"
        for byte in rawValue.utf8 {
            let safe = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2E || byte == 0x5F || byte == 0x2D
            if safe { out.unicodeScalars.append(Unicode.Scalar(byte)) } else {
                out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        if out.utf8.count <= 200 { return out }
        return "h-" + String(FNV1a64.hash(rawValue), radix: 16)
    }

    /// The name a stored folder stands for (`nil` for a hashed name: read its generation).
    static func decode(folderName: String) -> PasteboardName? {
        if let system = system.first(where: { $0.rawValue == folderName }) { return system }
        guard folderName.hasPrefix("n-") else { return nil }
        var bytes: [UInt8] = []
        var iterator = folderName.utf8.dropFirst(2).makeIterator()
        while let byte = iterator.next() {
            if byte == 0x25 {
                guard let high = iterator.next(), let low = iterator.next(),
                      let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) else { return nil }
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self).map { PasteboardName(rawValue: $0) }
    }

    /// The name.
    public var description: String { rawValue }

    /// Names in byte order.
    public static func < (a: PasteboardName, b: PasteboardName) -> Bool { a.rawValue < b.rawValue }
}
