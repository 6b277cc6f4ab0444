import SystemCalls

/// The freshness check (the rule is in ``DesktopAppIndex``'s documentation): every file and folder
/// the index was built from must stat the same, every one it did not find must still be missing.
extension DesktopAppIndex {
    /// Whether the index was built for `locations`.
    func isBuilt(for locations: DesktopLocations) -> Bool {
        compare(at: IndexLayout.HeaderWord.environment0.rawValue, locations.key) == 0
    }

    /// The locales the index was built for, when it was built for the folders and desktops of
    /// `locations` (whatever their locales); `nil` when it was built for others.
    func locales(ifBuiltForSourcesOf locations: DesktopLocations) -> [String]? {
        guard let key = string(at: IndexLayout.HeaderWord.environment0.rawValue) else { return nil }
        let prefix = locations.sourcesKey + "\nlocales:"
        guard key.hasPrefix(prefix) else { return nil }
        let rest = key.dropFirst(prefix.count)
        // Locale names are never empty and never hold ":" (LocaleNames), so the list joined
        // with ":" splits back into itself.
        let locales = rest.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard !locales.contains(where: \.isEmpty) || rest.isEmpty else { return nil }
        return rest.isEmpty ? [] : locales
    }

    /// The watcher's token recorded when the sources were last found unchanged (0: none); while
    /// it equals the running watcher's, nothing has changed since (``IndexWatch``).
    var watchToken: UInt64 {
        let at = IndexLayout.HeaderWord.watchToken0.rawValue * 4
        guard at + 8 <= count else { return 0 }
        return UInt64(littleEndian: UnsafeRawPointer(bitPattern: base)!.loadUnaligned(fromByteOffset: at, as: UInt64.self))
    }

    /// Records `token` in the cached file, in place: one aligned eight-byte write, so a query
    /// reading the mapped header at the same time sees the old token or the new one (either
    /// was current when it was written, after the sources were found unchanged).
    func recordWatchToken(_ token: UInt64) {
        guard let file, case .mapped(let mapped) = storage, let descriptor = try? OwnedDescriptor.open(file, .writeOnly) else { return }
        // Only into the file that was found fresh: another process (a query, the watcher) may
        // have renamed a newer build to the same name meanwhile, built from sources read before
        // a change this token stands after.
        guard let opened = try? descriptor.status(), opened.inode == mapped.status.inode, opened.device == mapped.status.device else { return }
        var value = token.littleEndian
        withUnsafeBytes(of: &value) { bytes in
            try? descriptor.write(bytes, at: Int64(IndexLayout.HeaderWord.watchToken0.rawValue * 4))
        }
    }

    /// Whether every file and folder the index was built from is unchanged, and every one it
    /// looked for is still missing.
    public var isFresh: Bool { sourcesAreFresh(0..<header(.sourceCount)) }

    /// Whether the sources in `range` are unchanged.
    func sourcesAreFresh(_ range: Range<Int>) -> Bool {
        let start = header(.sourceOffset)
        // Sources are recorded folder by folder (a folder, then its files): the files are looked
        // at relative to their open folder, one name to resolve each instead of a whole path.
        var folder: OwnedDescriptor?
        var folderPath: UnsafeRawBufferPointer?
        for i in range {
            guard let row = sourceRow(at: start + i * IndexLayout.sourceWords) else { return false }
            let offset = Int(Self.word(0, of: row)), length = Int(Self.word(1, of: row))
            guard let path = bytes(offset: offset, length: length + 1), path[length] == 0 else { return false }
            let cPath = path.baseAddress!.assumingMemoryBound(to: CChar.self)
            var status: FileStatus?
            if let folderPath, let folder, length > folderPath.count + 1, path[folderPath.count] == 0x2F,
               Self.isPrefix(folderPath, of: path) {
                // The rest of the pooled path, already NUL-terminated, names the same file
                // relative to the open folder: nothing to copy, one name to resolve.
                status = folder.status(ofCString: cPath + folderPath.count + 1)
            } else {
                status = FileSystem.status(cString: cPath)
            }
            if IndexLayout.SourceKind(rawValue: Self.word(2, of: row)) == .folder, status?.kind == .directory {
                folder = OwnedDescriptor.lookupFolder(cString: cPath)
                folderPath = UnsafeRawBufferPointer(rebasing: path[..<length])
            }
            guard Self.sourceRecord(row, matches: status) else { return false }
        }
        return true
    }

    /// Whether source `index` was recorded with `status` (``IndexBuilder`` reuses the entry of a
    /// desktop file whose source matches).
    func source(_ index: Int, matches status: FileStatus?) -> Bool {
        guard index >= 0, index < header(.sourceCount),
              let row = sourceRow(at: header(.sourceOffset) + index * IndexLayout.sourceWords) else { return false }
        return Self.sourceRecord(row, matches: status)
    }

    /// The words of the sources table's row at word `at`, checked against the file's bounds once
    /// for the row: read word by word, each read checked, the rows were 161,000 of the 3.5 M
    /// instructions of `openin --list` at 400 desktop files (442 rows), 26,000 this way (callgrind).
    private func sourceRow(at: Int) -> UnsafeRawPointer? {
        guard at >= 0, (at + IndexLayout.sourceWords) * 4 <= count else { return nil }
        return UnsafeRawPointer(bitPattern: base)! + at * 4
    }

    /// Word `index` of a row ``sourceRow(at:)`` gave.
    private static func word(_ index: Int, of row: UnsafeRawPointer) -> UInt32 {
        row.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self).littleEndian
    }

    /// The one rule of "unchanged": a missing source is still missing; a present one has the
    /// same kind, device, inode and modification time, and a file the same size.
    private static func sourceRecord(_ row: UnsafeRawPointer, matches status: FileStatus?) -> Bool {
        func word(_ index: Int) -> UInt32 { Self.word(index, of: row) }
        let kind = IndexLayout.SourceKind(rawValue: word(2))
        guard let status else { return kind == .missing }
        let inode = UInt64(word(3)) | UInt64(word(4)) << 32
        let seconds = Int64(bitPattern: UInt64(word(5)) | UInt64(word(6)) << 32)
        let size = Int64(bitPattern: UInt64(word(8)) | UInt64(word(9)) << 32)
        let device = UInt64(word(10)) | UInt64(word(11)) << 32
        guard kind == IndexLayout.SourceKind(status), status.inode == inode, status.device == device, status.modified.seconds == seconds,
              status.modified.nanoseconds == Int64(word(7)) else { return false }
        return kind != .file || status.size == size
    }

    /// Whether `path` starts with the bytes of `prefix`, compared eight at a time (a folder's
    /// path is compared with each of its thousands of files' paths per query).
    static func isPrefix(_ prefix: UnsafeRawBufferPointer, of path: UnsafeRawBufferPointer) -> Bool {
        guard prefix.count <= path.count else { return false }
        var i = 0
        while i + 8 <= prefix.count {
            if prefix.loadUnaligned(fromByteOffset: i, as: UInt64.self) != path.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
            i += 8
        }
        while i < prefix.count {
            if prefix[i] != path[i] { return false }
            i += 1
        }
        return true
    }
}
