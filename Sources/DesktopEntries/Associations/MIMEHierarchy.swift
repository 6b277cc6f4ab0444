import SystemCalls

/// The aliases and parent types of the shared MIME database, read from `mime/aliases` and
/// `mime/subclasses` (`update-mime-database` writes both beside `mime.cache`) in each data folder:
/// what GIO walks to fall back from `text/x-csrc` to `text/plain`. Only declared parents count, as
/// in GIO: `application/octet-stream` and `text/plain` are not implied.
public struct MIMEHierarchy: Sendable {
    /// Alias → canonical type (the first folder that names an alias wins).
    public var aliases: [String: String]
    /// Type → its declared parents, in file order (every folder's lines, first folder first).
    public var parents: [String: [String]]

    /// Creates a hierarchy from explicit tables.
    public init(aliases: [String: String] = [:], parents: [String: [String]] = [:]) {
        self.aliases = aliases
        self.parents = parents
    }

    /// The files read from `folders`, in order.
    public static func files(in folders: [String]) -> [String] {
        folders.flatMap { [$0 + "/aliases", $0 + "/subclasses"] }
    }

    /// Reads the database of `folders` (missing files are skipped: an empty database means no
    /// aliases and no fallback).
    public init(folders: [String]) {
        aliases = [:]
        parents = [:]
        for folder in folders {
            for (first, second) in Self.pairs(folder + "/aliases") where aliases[first] == nil { aliases[first] = second }
            for (child, parent) in Self.pairs(folder + "/subclasses") where !(parents[child]?.contains(parent) ?? false) {
                parents[child, default: []].append(parent)
            }
        }
    }

    static func pairs(_ path: String) -> [(String, String)] {
        guard let bytes = try? FileSystem.read(path) else { return [] }
        var result: [(String, String)] = []
        for line in bytes.split(separator: 0x0A) {
            let fields = line.split(separator: 0x20)
            guard fields.count == 2 else { continue }
            result.append((String(decoding: fields[0], as: UTF8.self), String(decoding: fields[1], as: UTF8.self)))
        }
        return result
    }

    /// The canonical name of `mime`.
    public func unalias(_ mime: String) -> String { aliases[mime] ?? mime }

    /// `mime` (unaliased) and its ancestors, breadth-first, each once: the order GIO tries them.
    public func chain(_ mime: String) -> [String] {
        var result = [unalias(mime)]
        var i = 0
        while i < result.count {
            for parent in parents[result[i]] ?? [] {
                let canonical = unalias(parent)
                if !result.contains(canonical) { result.append(canonical) }
            }
            i += 1
        }
        return result
    }
}
