/// `file://` URIs for local paths, escaped as GLib's `g_filename_to_uri` escapes them: letters,
/// digits, `-._~`, `!$&'()*+,;=:@` and `/` are kept, every other byte becomes `%XX` (upper case).
/// Apps that take `%u` or a D-Bus `Open` receive these bytes, so they must match GIO's.
public enum FileURI {
    /// The URI of the absolute path `path`.
    public static func from(path: [UInt8]) -> String {
        var out = "file://"
        out.reserveCapacity(path.count + 8)
        for byte in path {
            if isKept(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%"
                out.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
                out.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 0xF)]))
            }
        }
        return out
    }

    /// The URI of the absolute path `path`.
    public static func from(path: String) -> String { from(path: Array(path.utf8)) }

    static let hex = Array("0123456789ABCDEF".utf8)

    static func isKept(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case 0x2D, 0x2E, 0x5F, 0x7E: true // - . _ ~
        case 0x21, 0x24, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x2C, 0x3B, 0x3D, 0x3A, 0x40, 0x2F: true // !$&'()*+,;=:@/
        default: false
        }
    }
}
