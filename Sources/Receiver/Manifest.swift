import CSQLite
import Handlers
import PropertyLists
import SystemCalls

/// The receiver's record of every move: an SQLite database in the app's `Library/` (WAL mode,
/// `synchronous=FULL`), written through SQLite's C API. (GRDB would add a large dependency for a
/// handful of statements.)
///
/// It is also the intent journal: a row is written with status ``MoveStatus/moving`` (the file's
/// inode and device, its Inbox name and the name it will get) and committed before the rename; it
/// becomes ``MoveStatus/stored`` after the rename and the folder flushes. A cross-file-system copy
/// passes through ``MoveStatus/copied`` (the copy durable under `stored_name`, the Inbox copy not
/// yet removed). ``InboxMover/recover()`` settles every unfinished row at start.
///
/// Opened read-only (``Access/readOnly``), it answers queries without creating, migrating or
/// writing anything; ``entries(at:)`` reads it without creating SQLite's side files either:
/// `inboxd status` and `history` never change an app's files.
public final class Manifest {
    /// How the manifest is opened.
    public enum Access: Sendable {
        /// Created when missing, migrated to the current layout, written.
        case readWrite
        /// Read as it is; a missing file is an error.
        case readOnly
    }

    let db: OpaquePointer
    let path: String
    let access: Access
    /// Prepared once, reset per use: preparing a statement per row cost more than the row.
    var statements: [String: OpaquePointer] = [:]

    /// Opens (or, read-write, creates) the manifest at `path`.
    public convenience init(path: String, access: Access = .readWrite) throws(ReceiverError) {
        try self.init(path: path, access: access, immutable: false)
    }

    /// `immutable`: read-only, as SQLite's `immutable=1` URI parameter opens a file: no locks, no
    /// `-wal` or `-shm` file, nothing another connection wrote to them is seen.
    init(path: String, access: Access, immutable: Bool) throws(ReceiverError) {
        var handle: OpaquePointer?
        let flags = access == .readOnly ? SQLITE_OPEN_READONLY | SQLITE_OPEN_FULLMUTEX
                                        : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX
        let name = immutable && access == .readOnly ? Self.immutableURI(path) : path
        let opened = sqlite3_open_v2(name, &handle, immutable ? flags | SQLITE_OPEN_URI : flags, nil)
        guard opened == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let handle { sqlite3_close_v2(handle) }
            throw .manifest(path: path, code: opened, message: message)
        }
        db = handle
        self.path = path
        self.access = access
        sqlite3_busy_timeout(db, 10_000)
        guard access == .readWrite else { return }
        // Several receivers may open a new manifest at once; switching it to WAL takes an
        // exclusive lock that the busy handler does not wait for, so that step is retried.
        var attempts = 0
        while true {
            do { try execute("PRAGMA journal_mode=WAL"); break } catch {
                attempts += 1
                if attempts > 100 { throw error }
                Clock.sleep(0.02)
            }
        }
        try execute("PRAGMA synchronous=FULL")
        try migrate()
        // Every pass looks up the unfinished rows: without an index that is a scan of the whole
        // history (100,000 rows and more in a long-lived app).
        try execute("CREATE INDEX IF NOT EXISTS moves_unfinished ON moves(status) WHERE status IN ('moving', 'copied')")
    }

    /// Every row of the manifest at `path`, oldest first, read without changing any file; `nil`
    /// when there is none yet.
    ///
    /// A read-only SQLite connection to a WAL database still creates its `-wal` and `-shm` files
    /// when they are missing (they are when no connection has it open: the last one to close
    /// removes them), and leaves them behind. So when they are missing the file is read as it
    /// is, without them (``quietRead(at:)``); a read that a receiver came and went during is
    /// done again, twice at most. Only next to a receiver that has the file open (its side
    /// files exist anyway), or after those attempts, is it opened read-only the usual way.
    public static func entries(at path: String) throws(ReceiverError) -> [ManifestEntry]? {
        guard FileSystem.exists(path) else { return nil }
        attempts: for _ in 0..<3 {
            switch quietRead(at: path) {
            case .read(let rows): return rows
            case .inUse: break attempts
            case .changed: continue
            }
        }
        return try Manifest(path: path, access: .readOnly).entries()
    }

    /// How a read of the file as it is went.
    enum QuietRead {
        /// Read, and nothing wrote to the file meanwhile.
        case read([ManifestEntry])
        /// A connection has it open: its side files exist.
        case inUse
        /// A connection came (and maybe went) during the read, or held the file locked: the
        /// rows may be torn.
        case changed
    }

    /// SQLite's SHARED lock range of a database file (`SHARED_FIRST`, `SHARED_SIZE` of its unix
    /// VFS: 510 bytes after the pending and reserved bytes at 1 GiB).
    static let sharedLockRange: (start: Int64, count: Int64) = (0x4000_0002, 510)

    /// The rows read straight from the file when no connection has it open. While it reads it
    /// holds a shared lock on SQLite's SHARED range, as a reader connection does: a receiver
    /// that opens the file meanwhile can write to it (its log, even a checkpoint into the file)
    /// but cannot take the exclusive lock that its last close needs to remove its `-wal`. So
    /// the read counts only when no `-wal`, `-shm` or `-journal` file is beside the file after
    /// it as before, and the file stats the same (size, times, inode): a check that holds
    /// whatever the granularity of the file system's clock.
    static func quietRead(at path: String) -> QuietRead {
        func inUse() -> Bool { ["-wal", "-shm", "-journal"].contains { FileSystem.exists(path + $0) } }
        guard !inUse() else { return .inUse }
        guard let file = try? OwnedDescriptor.open(path, .readOnly),
              (try? file.tryLock(.shared, bytes: sharedLockRange.start, count: sharedLockRange.count)) == true else { return .changed }
        return withExtendedLifetime(file) {
            guard let before = FileSystem.status(path), !inUse() else { return .changed }
            let rows: [ManifestEntry]? = {
                guard let manifest = try? Manifest(path: path, access: .readOnly, immutable: true) else { return nil }
                return try? manifest.entries()
            }()
            guard let rows, !inUse(), FileSystem.status(path) == before else { return .changed }
            return .read(rows)
        }
    }

    /// `path` as an SQLite URI with `immutable=1`: every byte but the unreserved ones and `/`
    /// percent-encoded, since `?`, `#` and `%` mean something in a URI; an absolute path after
    /// an empty authority (`file://` + `/…`), so that `//x` is not read as a host.
    static func immutableURI(_ path: String) -> String {
        var uri = path.hasPrefix("/") ? "file://" : "file:"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                uri += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
            }
        }
        return uri + "?immutable=1"
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(db)
    }

    /// The table's layout, version `schemaVersion` (`PRAGMA user_version`). AUTOINCREMENT: a
    /// dropped intent's id is never given out again, since temporary names (`.inboxd-ID.partial`,
    /// `.inboxd-ID.claimed`) are made from it.
    static let schema = """
        CREATE TABLE moves (
            id INTEGER PRIMARY KEY AUTOINCREMENT, original_name BLOB NOT NULL, stored_name TEXT, status TEXT NOT NULL,
            reason TEXT, size INTEGER NOT NULL, sha256 TEXT NOT NULL, inode INTEGER NOT NULL, device INTEGER NOT NULL,
            arrived REAL, moved REAL, owner_pid INTEGER, owner_start INTEGER, sender TEXT, annotation BLOB, type TEXT)
        """
    static let schemaVersion = 2

    /// Creates the table, or brings a manifest written by an earlier `inboxd` (version 0: no
    /// `type` column, ids that could be reused) to the current layout with its rows kept. In one
    /// immediate transaction, so that receivers opening the manifest together migrate it once.
    func migrate() throws(ReceiverError) {
        try transaction { () throws(ReceiverError) in
            guard try integer("PRAGMA user_version") < Self.schemaVersion else { return }
            if try integer("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'moves'") == 0 {
                try execute(Self.schema)
            } else {
                var kept = "original_name, stored_name, status, reason, size, sha256, inode, device, arrived, moved, owner_pid, owner_start, sender, annotation"
                if try hasTypeColumn() { kept += ", type" }
                try execute("ALTER TABLE moves RENAME TO moves_before")
                try execute(Self.schema)
                try execute("INSERT INTO moves (id, \(kept)) SELECT id, \(kept) FROM moves_before ORDER BY id")
                try execute("DROP TABLE moves_before")
            }
            try execute("PRAGMA user_version = \(Self.schemaVersion)")
        }
    }

    func hasTypeColumn() throws(ReceiverError) -> Bool {
        try integer("SELECT COUNT(*) FROM pragma_table_info('moves') WHERE name = 'type'") > 0
    }

    // MARK: SQLite plumbing

    func failure(_ code: Int32) -> ReceiverError {
        .manifest(path: path, code: code, message: String(cString: sqlite3_errmsg(db)))
    }

    func statement(_ sql: String) throws(ReceiverError) -> OpaquePointer {
        if let cached = statements[sql] {
            sqlite3_reset(cached)
            sqlite3_clear_bindings(cached)
            return cached
        }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw failure(code) }
        statements[sql] = statement
        return statement
    }

    /// The first column of the first row of `sql`.
    func integer(_ sql: String) throws(ReceiverError) -> Int {
        let statement = try statement(sql)
        defer { sqlite3_reset(statement) }
        let code = sqlite3_step(statement)
        guard code == SQLITE_ROW else { throw failure(code) }
        return Int(sqlite3_column_int64(statement, 0))
    }

    func execute(_ sql: String) throws(ReceiverError) {
        let code = sqlite3_exec(db, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw failure(code) }
    }

    func step(_ statement: OpaquePointer) throws(ReceiverError) {
        defer { sqlite3_reset(statement) }   // a finished statement holds nothing into the next commit
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE else { throw failure(code) }
    }

    func bind(_ statement: OpaquePointer, _ index: Int32, _ text: String?) {
        if let text { sqlite3_bind_text(statement, index, text, -1, Self.transient) } else { sqlite3_bind_null(statement, index) }
    }

    func bind(_ statement: OpaquePointer, _ index: Int32, _ bytes: [UInt8]?) {
        guard let bytes else { sqlite3_bind_null(statement, index); return }
        _ = bytes.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), Self.transient) }
    }

    /// Runs `body` in one transaction: one commit (one fsync of the WAL) for a whole batch.
    func transaction<T>(_ body: () throws(ReceiverError) -> T) throws(ReceiverError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// SQLite copies bound values (SQLITE_TRANSIENT).
    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
