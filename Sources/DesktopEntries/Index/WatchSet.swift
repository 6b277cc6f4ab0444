import SystemCalls

/// The folders an ``IndexWatcher`` watches, and the names in each that matter, so that every
/// change the freshness check would see is reported by inotify. From the index's sources
/// (``IndexBuilder/collectSources()``):
///
/// - a folder that was read (an `applications` folder or a subfolder of one): every name in it
///   matters (an entry added, removed, renamed or edited, a subfolder, an association file);
/// - a file: its name in its folder; when it is a symbolic link, also the name of the file it
///   finally points to in that file's folder (an edit in place through the link changes only the
///   target, as with a `mimeapps.list` kept in a dotfiles folder);
/// - a file or folder that was looked for and is missing: the next name on its path in the
///   deepest folder that exists (creating `~/.local/share/applications` is seen in
///   `~/.local/share`).
///
/// Not seen: a link in the middle of a chain of links retargeted in a folder that holds no
/// source (only the chain's first and last names are watched); the freshness check without a
/// watcher sees that. inotify watches follow a linked folder, so a linked `applications`
/// folder is watched where it really is.
struct WatchSet: Equatable {
    /// Each folder and the names that matter in it; `nil`: all of them.
    private(set) var folders: [String: Set<String>?] = [:]

    init(sources: [IndexBuilder.Source]) {
        for source in sources {
            if source.status?.kind == .directory {
                folders[source.path] = .some(nil)
                // A linked folder is watched where the link points; retargeting the link is a
                // change in the link's own folder.
                if FileSystem.linkStatus(source.path)?.kind == .symbolicLink { add(source.path) }
            } else if source.status != nil {
                add(source.path)
                if FileSystem.linkStatus(source.path)?.kind == .symbolicLink, let target = try? CanonicalPath.resolve(source.path) {
                    add(target)
                }
            } else {
                // Missing: climb to the deepest folder that exists.
                var path = source.path
                while true {
                    let (folder, _) = Self.split(path)
                    if folder == path || FileSystem.isDirectory(folder) { add(path); break }
                    path = folder
                }
            }
        }
    }

    /// Adds the name of `path` in its folder, unless the folder already matters as a whole.
    private mutating func add(_ path: String) {
        let (folder, name) = Self.split(path)
        switch folders[folder] {
        case .some(nil): return
        case .some(.some(var names)):
            names.insert(name)
            folders[folder] = .some(names)
        case nil:
            folders[folder] = .some([name])
        }
    }

    /// Whether a change to `name` in `folder` matters.
    func matters(_ name: String, in folder: String) -> Bool {
        guard let names = folders[folder] else { return false }
        return names?.contains(name) ?? true
    }

    /// The folder and the last name of `path` (`/` for a top-level name).
    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = slash == path.startIndex ? "/" : String(path[..<slash])
        return (folder, String(path[path.index(after: slash)...]))
    }
}
