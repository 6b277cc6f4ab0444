import PropertyLists

/// How an app starts on Linux: our Info.plist key `DILaunchCommand`, an array of strings (program,
/// then arguments) or one string (the program). A relative program is inside the bundle folder.
///
/// Placeholders in the arguments: `%u` the document's file URL (or, for a URL request, the URL),
/// `%f` the document's path (empty for a URL request), `%s` the sender's bundle identifier
/// (`sourceApplication`), `%r` the open request file (which carries the annotation, and the URL),
/// `%%` a percent sign. The same values are in the environment as `DI_DOCUMENT_URL` (or `DI_URL`),
/// `DI_SOURCE_APPLICATION` and `DI_OPEN_REQUEST`. An app without the key is not started: its
/// receiver finds the document in its Inbox, and a running app its URL requests in `Library/`.
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
        expand(bundlePath: bundlePath, url: Self.fileURL(documentPath), path: documentPath, sourceApplication: sourceApplication, requestPath: requestPath)
    }

    /// The longest URL `%u` carries on a command line (and `DI_URL` in the environment): Linux
    /// caps one argument at 131,072 bytes (`MAX_ARG_STRLEN`), and argument and environment
    /// together at a quarter of the stack limit. A longer URL is only in the open request (`%r`,
    /// `DI_OPEN_REQUEST`), and `%u` becomes an empty argument.
    public static let longestURLArgument = 32 * 1024

    /// The command line for one URL request: `%u` the URL (empty when it is longer than
    /// ``longestURLArgument``), `%f` empty, `%s` the sender, `%r` the open request file.
    public func expanded(bundlePath: String, url: String, sourceApplication: String, requestPath: String) -> [String] {
        expand(bundlePath: bundlePath, url: url.utf8.count <= Self.longestURLArgument ? url : "", path: "",
               sourceApplication: sourceApplication, requestPath: requestPath)
    }

    private func expand(bundlePath: String, url: String, path: String, sourceApplication: String, requestPath: String) -> [String] {
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
                case "f": out += path
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

    /// The variable a launched app finds its bundle identifier in.
    public static let identityVariable = "DI_BUNDLE_IDENTIFIER"

    /// The environment a launched app is given besides ours: who it is (`DI_BUNDLE_IDENTIFIER`)
    /// and on which device root (`DOCUMENT_INTERCHANGE_ROOT`), so that the app-side library finds
    /// its container; the sender, the request file, and the document's URL (`DI_DOCUMENT_URL`) or
    /// the URL (`DI_URL`, left out when longer than ``longestURLArgument``).
    public static func environment(bundleIdentifier: String, root: DeviceRoot, sourceApplication: String, requestPath: String,
                                   documentPath: String? = nil, url: String? = nil) -> [String] {
        var result = [identityVariable + "=" + bundleIdentifier, DeviceRoot.environmentVariable + "=" + root.path,
                      "DI_SOURCE_APPLICATION=" + sourceApplication, "DI_OPEN_REQUEST=" + requestPath]
        if let documentPath { result.append("DI_DOCUMENT_URL=" + fileURL(documentPath)) }
        if let url, url.utf8.count <= longestURLArgument { result.append("DI_URL=" + url) }
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
