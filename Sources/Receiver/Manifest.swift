import CSQLite
import Handlers
import PropertyLists
#if canImport(Glibc)
import Glibc
#endif

/// The receiver's record of every move: an SQLite database in the app's `Library/` (WAL mode,
/// `synchronous=FULL`), written through SQLite's C API. (GRDB would add a large dependency for a
/// handful of statements.)
///
/// It is also the intent journal: a row is written with status `moving` (the file's inode and
/// device, its Inbox name and the Documents name it will get) and committed before the rename;
/// it becomes `stored` after the rename and the directory flushes. A cross-file-system copy
/// passes through `copied` (the copy durable under `stored_name`, the Inbox copy not yet removed). ``InboxMover/recover()``
/// settles every `moving` row at start: the file is either still in the Inbox under its name
/// (the rename did not happen: the row is dropped and the file moved again) or in `Documents/`
/// under the planned name (the rename happened: the row is marked `stored`).
public final class Manifest {
    /// A row.
    public struct Entry: Sendable, Equatable {
        public var id: Int64
        public var originalName: [UInt8]
        public var storedName: String?
        public var status: String
        public var size: Int64
        public var sha256: String
        public var inode: UInt64
        public var device: UInt64
        public var reason: String?
        /// The process that journaled a `moving` row, and its start time (to tell a reused pid).
        public var ownerPID: Int32 = 0, ownerStart: Int64 = 0
        /// The sender (`SourceApplication` of the open request), and the request's annotation.
        public var sender: String?
        public var annotation: PropertyList?
        /// When the file arrived in the Inbox (its inode's change time), and when its move was
        /// complete and durable (seconds since 1970, UTC).
        public var arrived: Double?, moved: Double?
        /// The document's type identifier, as the app's policy judged it.
        public var type: String?
    }

    let db: OpaquePointer
    /// Prepared once, reset per use: preparing a statement per row cost more than the row.
    var statements: [String: OpaquePointer] = [:]

    func statement(_ sql: String) throws(HandlerError) -> OpaquePointer {
        if let cached = statements[sql] {
            sqlite3_reset(cached)
            sqlite3_clear_bindings(cached)
            return cached
        }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw .refused("manifest: \(String(cString: sqlite3_errmsg(db)))")
        }
        statements[sql] = statement
        return statement
    }

    /// Opens or creates the manifest at `path`.
    public init(path: String) throws(HandlerError) {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nil) == SQLITE_OK,
              let handle else {
            throw .refused("cannot open the manifest \(path): \(handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory")")
        }
        db = handle
        sqlite3_busy_timeout(db, 10_000)
        // Several receivers may open a new manifest at once; switching it to WAL takes an
        // exclusive lock that the busy handler does not wait for, so that step is retried.
        var attempts = 0
        while true {
            do { try execute("PRAGMA journal_mode=WAL"); break } catch {
                attempts += 1
                if attempts > 100 { throw error }
                usleep(20_000)
            }
        }
        try execute("PRAGMA synchronous=FULL")
        try migrate()
        // Every pass looks up the unfinished rows: without an index that is a scan of the whole
        // history (100,000 rows and more in a long-lived app).
        try execute("CREATE INDEX IF NOT EXISTS moves_unfinished ON moves(status) WHERE status IN ('moving', 'copied')")
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
    func migrate() throws(HandlerError) {
        try transaction { () throws(HandlerError) in
            guard try integer("PRAGMA user_version") < Self.schemaVersion else { return }
            if try integer("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'moves'") == 0 {
                try execute(Self.schema)
            } else {
                var kept = "original_name, stored_name, status, reason, size, sha256, inode, device, arrived, moved, owner_pid, owner_start, sender, annotation"
                if try integer("SELECT COUNT(*) FROM pragma_table_info('moves') WHERE name = 'type'") > 0 { kept += ", type" }
                try execute("ALTER TABLE moves RENAME TO moves_before")
                try execute(Self.schema)
                try execute("INSERT INTO moves (id, \(kept)) SELECT id, \(kept) FROM moves_before ORDER BY id")
                try execute("DROP TABLE moves_before")
            }
            try execute("PRAGMA user_version = \(Self.schemaVersion)")
        }
    }

    /// The first column of the first row of `sql`.
    func integer(_ sql: String) throws(HandlerError) -> Int {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else { throw .refused("manifest: \(String(cString: sqlite3_errmsg(db)))") }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw .refused("manifest: \(String(cString: sqlite3_errmsg(db)))") }
        return Int(sqlite3_column_int64(statement, 0))
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(db)
    }

    func execute(_ sql: String) throws(HandlerError) {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw .refused("manifest: \(String(cString: sqlite3_errmsg(db)))") }
    }

    /// Records the intent to move a file; committed (and durable) when this returns.
    func beginMove(name: [UInt8], planned: String, size: Int64, sha256: String, inode: UInt64, device: UInt64, time: Double,
                   sender: String? = nil, annotation: PropertyList? = nil, type: String? = nil) throws(HandlerError) -> Int64 {
        let statement = try statement("INSERT INTO moves (original_name, stored_name, status, size, sha256, inode, device, arrived, owner_pid, owner_start, sender, annotation, type) VALUES (?, ?, 'moving', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        _ = name.withUnsafeBytes { sqlite3_bind_blob(statement, 1, $0.baseAddress, Int32($0.count), Self.transient) }
        sqlite3_bind_text(statement, 2, planned, -1, Self.transient)
        sqlite3_bind_int64(statement, 3, size)
        sqlite3_bind_text(statement, 4, sha256, -1, Self.transient)
        sqlite3_bind_int64(statement, 5, Int64(bitPattern: inode))
        sqlite3_bind_int64(statement, 6, Int64(bitPattern: device))
        sqlite3_bind_double(statement, 7, time)
        sqlite3_bind_int64(statement, 8, Int64(getpid()))
        sqlite3_bind_int64(statement, 9, Self.ownStart)
        if let sender { sqlite3_bind_text(statement, 10, sender, -1, Self.transient) }
        if let annotation {
            let bytes = BinaryPropertyListWriter().write(annotation)
            _ = bytes.withUnsafeBytes { sqlite3_bind_blob(statement, 11, $0.baseAddress, Int32($0.count), Self.transient) }
        }
        if let type { sqlite3_bind_text(statement, 12, type, -1, Self.transient) }
        defer { sqlite3_reset(statement) }   // a finished statement holds nothing into the next commit
        guard sqlite3_step(statement) == SQLITE_DONE else { throw .refused("manifest: \(String(cString: sqlite3_errmsg(db)))") }
        return sqlite3_last_insert_rowid(db)
    }

    /// Marks a move done, under the name it got; or (with `nil`) drops an intent that did not happen.
    func finish(_ id: Int64, storedAs name: String?, time: Double) throws(HandlerError) {
        let statement = try statement(name == nil ? "DELETE FROM moves WHERE id = ?" : "UPDATE moves SET status = 'stored', stored_name = ?, moved = ? WHERE id = ?")
        if let name {
            sqlite3_bind_text(statement, 1, name, -1, Self.transient)
            sqlite3_bind_double(statement, 2, time)
            sqlite3_bind_int64(statement, 3, id)
        } else {
            sqlite3_bind_int64(statement, 1, id)
        }
        defer { sqlite3_reset(statement) }
        guard sqlite3_step(statement) == SQLITE_DONE else { throw .refused("manifest: \(String(cString: sqlite3_errmsg(db)))") }
    }

    /// Records the final name of a cross-file-system copy that is durable there, before the Inbox
    /// copy is removed (status `copied`).
    func markCopied(_ id: Int64, storedAs name: String) throws(HandlerError) {
        let statement = try statement("UPDATE moves SET status = 'copied', stored_name = ? WHERE id = ?")
        sqlite3_bind_text(statement, 1, name, -1, Self.transient)
        sqlite3_bind_int64(statement, 2, id)
        defer { sqlite3_reset(statement) }
        guard sqlite3_step(statement) == SQLITE_DONE else { throw .refused("manifest: \(String(cString: sqlite3_errmsg(db)))") }
    }

    /// Records a file moved to the quarantine folder, with the reason.
    func recordQuarantine(name: [UInt8], storedAs: String, type: String? = nil, reason: String, size: Int64, inode: UInt64, device: UInt64,
                          time: Double) throws(HandlerError) {
        let sql = "INSERT INTO moves (original_name, stored_name, status, reason, size, sha256, inode, device, arrived, moved, type) VALUES (?, ?, 'quarantined', ?, ?, '', ?, ?, ?, ?, ?)"
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else { throw .refused("manifest: \(String(cString: sqlite3_errmsg(db)))") }
        defer { sqlite3_finalize(statement) }
        _ = name.withUnsafeBytes { sqlite3_bind_blob(statement, 1, $0.baseAddress, Int32($0.count), Self.transient) }
        sqlite3_bind_text(statement, 2, storedAs, -1, Self.transient)
        sqlite3_bind_text(statement, 3, reason, -1, Self.transient)
        sqlite3_bind_int64(statement, 4, size)
        sqlite3_bind_int64(statement, 5, Int64(bitPattern: inode))
        sqlite3_bind_int64(statement, 6, Int64(bitPattern: device))
        sqlite3_bind_double(statement, 7, time)
        sqlite3_bind_double(statement, 8, time)
        if let type { sqlite3_bind_text(statement, 9, type, -1, Self.transient) }
        guard sqlite3_step(statement) == SQLITE_DONE else { throw .refused("manifest: \(String(cString: sqlite3_errmsg(db)))") }
    }

    /// Runs `body` in one transaction: one commit (one fsync of the WAL) for a whole batch.
    func transaction<T>(_ body: () throws(HandlerError) -> T) throws(HandlerError) -> T {
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

    /// Every row, oldest first; `status` filters.
    public func entries(status: String? = nil) throws(HandlerError) -> [Entry] {
        let sql = "SELECT id, original_name, stored_name, status, size, sha256, inode, device, reason, owner_pid, owner_start, sender, annotation, arrived, moved, type FROM moves"
            + (status == nil ? "" : " WHERE status = ?") + " ORDER BY id"
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else { throw .refused("manifest: \(String(cString: sqlite3_errmsg(db)))") }
        defer { sqlite3_finalize(statement) }
        if let status { sqlite3_bind_text(statement, 1, status, -1, Self.transient) }
        var rows: [Entry] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            let blob = sqlite3_column_blob(statement, 1)
            let count = Int(sqlite3_column_bytes(statement, 1))
            let name = blob.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
            rows.append(Entry(id: sqlite3_column_int64(statement, 0), originalName: name,
                              storedName: sqlite3_column_text(statement, 2).map { String(cString: $0) },
                              status: sqlite3_column_text(statement, 3).map { String(cString: $0) } ?? "",
                              size: sqlite3_column_int64(statement, 4),
                              sha256: sqlite3_column_text(statement, 5).map { String(cString: $0) } ?? "",
                              inode: UInt64(bitPattern: sqlite3_column_int64(statement, 6)),
                              device: UInt64(bitPattern: sqlite3_column_int64(statement, 7)),
                              reason: sqlite3_column_text(statement, 8).map { String(cString: $0) },
                              ownerPID: Int32(truncatingIfNeeded: sqlite3_column_int64(statement, 9)),
                              ownerStart: sqlite3_column_int64(statement, 10),
                              sender: sqlite3_column_text(statement, 11).map { String(cString: $0) },
                              annotation: sqlite3_column_blob(statement, 12).flatMap { blob in
                                  try? PropertyListReader.read(Array(UnsafeRawBufferPointer(start: blob, count: Int(sqlite3_column_bytes(statement, 12))))).value
                              },
                              arrived: sqlite3_column_type(statement, 13) == SQLITE_NULL ? nil : sqlite3_column_double(statement, 13),
                              moved: sqlite3_column_type(statement, 14) == SQLITE_NULL ? nil : sqlite3_column_double(statement, 14),
                              type: sqlite3_column_text(statement, 15).map { String(cString: $0) }))
        }
        return rows
    }

    /// This process's start time, read once.
    static let ownStart: Int64 = ProcessIdentity.startTime(of: getpid()) ?? 0

    /// SQLite copies bound values (SQLITE_TRANSIENT).
    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// Tells whether the process that journaled a move is still running: its pid exists and started
/// when the row says (a pid can be reused).
enum ProcessIdentity {
    /// The start time of `pid` in clock ticks since boot (field 22 of /proc/PID/stat).
    static func startTime(of pid: Int32) -> Int64? {
        guard let bytes = try? FileContents.read(.init("/proc/\(pid)/stat")) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        return fields.count > 19 ? Int64(fields[19]) : nil
    }

    static func isRunning(_ pid: Int32, startedAt start: Int64) -> Bool {
        pid > 0 && startTime(of: pid) == start
    }
}
