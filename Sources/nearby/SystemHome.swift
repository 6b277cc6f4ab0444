import SystemCalls

/// The user's folders as the XDG base-directory spec names them.
enum SystemHome {
    static var path: String { Environment.home }
    static var configHome: String {
        if let value = Environment.value("XDG_CONFIG_HOME"), value.hasPrefix("/") { return value }
        return path + "/.config"
    }
    static func read(_ path: String) throws -> String { String(decoding: try FileSystem.read(path), as: UTF8.self) }
}
