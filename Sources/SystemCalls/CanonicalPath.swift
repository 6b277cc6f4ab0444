#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one spelling of a path: absolute, links resolved, `.` and `..` gone, so that two
/// processes naming one file by different paths (a link, a relative path) agree on it. The
/// part of the path that does not exist yet (a file about to be written) is kept as given
/// below the deepest folder that does.
package enum CanonicalPath {
    /// `path` resolved. The corresponding C function is `realpath`.
    package static func resolve(_ path: String) throws(SystemCallError) -> String {
        let absolute = try CurrentProcess.absolutePath(path)
        var existing = absolute
        var rest: [Substring] = []
        while true {
            if let resolved = real(existing) {
                guard !rest.isEmpty else { return resolved }
                return (resolved == "/" ? "" : resolved) + "/" + rest.reversed().joined(separator: "/")
            }
            let code = errno
            guard code == ENOENT || code == ENOTDIR, existing != "/" else {
                throw SystemCallError(.realpath, path: absolute, errno: .init(rawValue: code))
            }
            let slash = existing.lastIndex(of: "/")!
            let last = existing[existing.index(after: slash)...]
            guard last != "..", last != "." else { throw SystemCallError(.realpath, path: absolute, errno: .init(rawValue: code)) }
            rest.append(last)
            existing = slash == existing.startIndex ? "/" : String(existing[..<slash])
        }
    }

    private static func real(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
