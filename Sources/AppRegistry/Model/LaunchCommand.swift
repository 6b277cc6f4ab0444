import PropertyLists

/// How an app starts on Linux: our Info.plist key `DILaunchCommand`, an array of strings (program,
/// then arguments) or one string (the program). A relative program is inside the bundle folder.
///
/// Placeholders in the arguments: `%u` the document's file URL, `%f` its path, `%s` the sender's
/// bundle identifier (`sourceApplication`), `%r` the open request file (which carries the
/// annotation), `%%` a percent sign. The same values are in the environment as
/// `DI_DOCUMENT_URL`, `DI_SOURCE_APPLICATION` and `DI_OPEN_REQUEST`. An app without the key is not
/// started: its receiver finds the document in its Inbox.
public struct LaunchCommand: Sendable, Hashable {
    /// The Info.plist key.
    public static let key = "DILaunchCommand"
    /// The program and its arguments, placeholders unexpanded.
    public var arguments: [String]

    /// Reads the key; `nil` when it is absent or empty.
    public init?(plist: PropertyList) {
        let cursor = PropertyListCursor(plist)
        guard let words = (try? cursor.stringOrArray(Self.key)) ?? nil, let first = words.first, !first.isEmpty else { return nil }
        arguments = words
    }

    /// Creates a command.
    public init(arguments: [String]) { self.arguments = arguments }

    /// The command line for one delivery, the program resolved against `bundlePath`.
    public func expanded(bundlePath: String, documentPath: String, sourceApplication: String, requestPath: String) -> [String] {
        let url = Self.fileURL(documentPath)
        var result: [String] = []
        for (index, word) in arguments.enumerated() {
            if index == 0 {
                result.append(word.hasPrefix("/") || bundlePath.isEmpty ? word : bundlePath + "/" + word)
                continue
            }
            var out = ""
            var chars = word.makeIterator()
            while let c = chars.next() {
                guard c == "%" else { out.append(c); continue }
                switch chars.next() {
                case "u": out += url
                case "f": out += documentPath
                case "s": out += sourceApplication
                case "r": out += requestPath
                case "%": out += "%"
                case let other?: out.append("%"); out.append(other)
                case nil: out.append("%")
                }
            }
            result.append(out)
        }
        return result
    }

    /// The `file://` URL of an absolute path.
    public static func fileURL(_ path: String) -> String { "file://" + percentEncoded(path) }

    /// A path as a URL path: unreserved bytes and `/` kept, everything else percent-encoded.
    static func percentEncoded(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E, 0x5F, 0x7E, 0x2F: out.append(Character(Unicode.Scalar(byte)))
            default: out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }
}

extension String {
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
