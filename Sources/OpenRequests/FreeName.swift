/// The rule for names that must not replace anything: the name itself, then `stem-1.ext`,
/// `stem-2.ext`, … with the stem shortened so the result stays within NAME_MAX (255 bytes). The
/// sender uses it for the Inbox, the receiver for the working folder and the quarantine.
public enum FreeName {
    /// The longest name a Linux file system takes, in bytes.
    public static let maximumLength = 255
    /// Attempts before giving up ("no free name").
    public static let attempts = 100_000

    /// `name` for attempt 0, then `stem-N.ext`. A name that is valid UTF-8 is shortened on a
    /// character boundary; other names byte-wise. An empty name, `.` and `..` become `document`.
    public static func candidate(_ name: [UInt8], attempt: Int) -> [UInt8] {
        if let text = String(validating: name, as: UTF8.self) { return Array(candidate(text, attempt: attempt).utf8) }
        guard attempt > 0 else { return name }
        let dot = name.lastIndex(of: 0x2E).flatMap { $0 > 0 ? $0 : nil } ?? name.endIndex
        var stem = Array(name[..<dot]), ext = Array(name[dot...])
        let suffix = Array("-\(attempt)".utf8)
        if ext.count + suffix.count >= maximumLength { ext = [] }
        while stem.count + suffix.count + ext.count > maximumLength { stem.removeLast() }
        return stem + suffix + ext
    }

    /// The same for a name that is text.
    public static func candidate(_ name: String, attempt: Int) -> String {
        let safe = name.isEmpty || name == "." || name == ".." ? "document" : name
        var stem = Substring(safe), ext = Substring("")
        if let dot = safe.lastIndex(of: "."), dot != safe.startIndex {
            stem = safe[..<dot]
            ext = safe[dot...]
        }
        let suffix = attempt == 0 ? "" : "-\(attempt)"
        if ext.utf8.count + suffix.utf8.count >= maximumLength { ext = "" }
        while stem.utf8.count + suffix.utf8.count + ext.utf8.count > maximumLength { stem.removeLast() }
        return String(stem) + suffix + String(ext)
    }
}
