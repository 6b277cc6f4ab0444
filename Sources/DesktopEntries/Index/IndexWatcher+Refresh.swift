import SystemCalls

/// The watcher keeps the cached indexes of its locations current: a moment after a change it
/// rebuilds each one (or, when the change left it fresh after all, only records the new token),
/// so that the first query after the change is answered from a vouched index instead of
/// rebuilding it itself (116 ms for 2,650 desktop files here, against 2–3 ms).
///
/// Safe by the same rule as a query's: the token recorded is the one current before the sources
/// are read, so a change made while they are read advances the token past it, and queries then
/// check their files themselves. Files are replaced atomically, as queries replace them; when a
/// query replaces the same file at the same moment, whichever is renamed last stays, and a query
/// trusts it only if its token is still current (``DesktopAppIndex`` records a token only into
/// the file it checked).
extension IndexWatcher {
    /// How long after the last change the indexes are brought up to date: installing a package
    /// changes many files within a moment, and one rebuild should follow them all.
    static let refreshDelay = 0.2
    /// The longest a stream of changes puts the refresh off, in seconds.
    static let refreshLatest = 2.0
    /// How old a temporary file of an index must be to be taken for one left by a process
    /// killed while writing it (a write takes milliseconds).
    static let abandonedAfter = 60.0

    /// Brings every index of these locations in the cache folder (one per set of locales that
    /// queried) up to date with the current token, answering questions that wait before each
    /// file. A query asking while a file is rebuilt waits ``IndexWatch/timeout`` and then checks
    /// its files itself, as without a watcher. Not flushed to disk: a cache, rebuilt when lost.
    func refreshIndexes() {
        // Changes followed while questions are answered below schedule the next refresh.
        refreshStarted()
        guard isComplete, let cacheDirectory else { return }
        removeAbandonedFiles(in: cacheDirectory)
        for name in FileSystem.entries(of: cacheDirectory) where name.hasPrefix("desktop-apps-") && name.hasSuffix(".index") {
            _ = try? answerQuestions()
            // Read after the questions: answering follows the changes queued by then.
            let token = self.token
            let path = cacheDirectory + "/" + name
            guard let cached = DesktopAppIndex(path: path), let locales = cached.locales(ifBuiltForSourcesOf: locations),
                  cached.watchToken != token else { continue }
            var built = locations
            built.locales = locales
            // Only the file a query of these locales would read.
            guard DesktopApps.indexPath(for: built, in: cacheDirectory) == path else { continue }
            if cached.isFresh {
                cached.recordWatchToken(token)
            } else {
                var builder = IndexBuilder(locations: built, watchToken: token, reusing: cached)
                try? AtomicFile.write(builder.build(), to: path, durable: false)
            }
        }
    }

    /// Removes the temporary files of indexes (`.desktop-apps-….index.tmp-…`) that a process
    /// killed while writing one left behind: nothing else would, and each is an index's size.
    func removeAbandonedFiles(in cacheDirectory: String) {
        let now = Clock.system.now()
        for name in FileSystem.entries(of: cacheDirectory) where name.hasPrefix(".desktop-apps-") && name.contains(".index.tmp-") {
            let path = cacheDirectory + "/" + name
            if let status = FileSystem.linkStatus(path), status.kind == .regular, now - status.modified.secondsSince1970 > Self.abandonedAfter {
                try? FileSystem.remove(path)
            }
        }
    }
}
