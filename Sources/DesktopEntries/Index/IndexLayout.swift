import SystemCalls

/// The layout of the compiled desktop-application index (``DesktopAppIndex``): little-endian
/// 32-bit words, then a pool of NUL-terminated strings. Every reference is checked against the
/// file's bounds when read, so a damaged file is rebuilt, never trusted.
///
/// ```
/// header   HeaderWord.count words (magic, version, counts and word offsets of each table, the
///          watcher's token: ``IndexWatch``)
/// sources  [path, kind, inode lo/hi, mtime s lo/hi, mtime ns, size lo/hi, device lo/hi]
///          every file and folder read
/// folders  [path, isConfiguration, origin]                                  DesktopLocations order
/// apps     AppWord.count words each, sorted by desktop-file ID then folder
/// tweaks   TweakWord.count words each, sorted by MIME type, stable (GIO's order); the records are
///          the app rows of `id` (none: count 0)
/// aliases  [alias, canonical] sorted by alias
/// parents  [child, parent] sorted by child, stable
/// pool     strings; a string reference is two words: byte offset and length (0xFFFFFFFF = none)
/// ```
enum IndexLayout {
    static let magic: (UInt32, UInt32) = (0x41_49_44_44, 0x31_53_50_50) // "DDIAPPS1"
    /// Raised when the layout changes, and when reading a desktop file gives other entries
    /// (``KeyFile``, ``DesktopEntry``): an index of another version is rebuilt from nothing,
    /// neither used nor reused (``IndexBuilder`` takes unchanged entries from the stale index).
    static let version: UInt32 = 6
    static let none: UInt32 = 0xFFFF_FFFF

    enum HeaderWord: Int, CaseIterable {
        case magic0, magic1, version, environment0, environment1
        case sourceCount, sourceOffset, folderCount, folderOffset, appCount, appOffset
        case tweakCount, tweakOffset, aliasCount, aliasOffset, parentCount, parentOffset
        case poolOffset, poolLength
        /// Keeps ``watchToken0`` at a multiple of eight bytes: the token is written in place by
        /// one aligned eight-byte write, which a concurrent reader never sees half done.
        case reserved
        /// The watcher's token (low and high word) when the sources were last found unchanged;
        /// 0: none.
        case watchToken0, watchToken1
    }

    static let sourceWords = 12

    /// What a source was when the index was built (its `kind` word): the one encoding the builder
    /// writes and the freshness check compares.
    enum SourceKind: UInt32 {
        case missing = 0, folder = 1, file = 2, other = 3

        /// The kind of a file with `status` (`nil`: missing).
        init(_ status: FileStatus?) {
            switch status?.kind {
            case nil: self = .missing
            case .directory?: self = .folder
            case .regular?: self = .file
            default: self = .other
            }
        }
    }
    static let folderWords = 5
    static let tweakWords = TweakWord.allCases.count

    /// The words of one association row: the unaliased type it is recorded under, and the name
    /// the file wrote (an alias, for `image/pdf` in a `MimeType=` line), which GIO orders by and
    /// an explanation quotes.
    enum TweakWord: Int, CaseIterable {
        case mime0, mime1, folder, kind, id0, id1, source, line, firstRecord, recordCount, written0, written1
    }
    static let pairWords = 4

    /// The words of one app record.
    enum AppWord: Int, CaseIterable {
        case folder, source, flags
        case id0, id1, path0, path1, problem0, problem1, type0, type1, name0, name1, genericName0, genericName1
        case icon0, icon1, exec0, exec1, execLine, tryExec0, tryExec1, workingDirectory0, workingDirectory1
        case onlyShowIn0, onlyShowIn1, notShowIn0, notShowIn1, mimeTypes0, mimeTypes1, mimeTypeLine
        case categories0, categories1, flatpak0, flatpak1, snap0, snap1, problems0, problems1
        case execProgram0, execProgram1
    }

    /// Bits of ``AppWord/flags``.
    struct AppFlags: OptionSet {
        let rawValue: UInt32
        static let parsed = AppFlags(rawValue: 1 << 0)
        static let terminal = AppFlags(rawValue: 1 << 1)
        static let hidden = AppFlags(rawValue: 1 << 2)
        static let noDisplay = AppFlags(rawValue: 1 << 3)
        static let dbusActivatable = AppFlags(rawValue: 1 << 4)
        static let noFuse = AppFlags(rawValue: 1 << 5)
        static let startupNotify = AppFlags(rawValue: 1 << 6)
    }

    /// List values are stored joined by this byte (it cannot occur in a decoded desktop entry value
    /// that came through a list, and the lists are split back exactly).
    static let listSeparator: UInt8 = 0x1E

    /// What a tweak row says.
    enum TweakKind: UInt32 {
        case added = 0, removed = 1, defaults = 2
        /// An app's own `MimeType=` (what `mimeinfo.cache` would hold for its folder).
        case claimed = 3
    }
}
