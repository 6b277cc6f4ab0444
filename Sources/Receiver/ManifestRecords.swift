import CSQLite
import Handlers
import OpenRequests
import PropertyLists
import SystemCalls

/// A row of the manifest.
public struct ManifestEntry: Sendable, Equatable {
    public var id: Int64
    /// The name the file had in the Inbox (bytes: it need not be UTF-8).
    public var originalName: [UInt8]
    /// The name it has (or will have) in the working folder or the quarantine.
    public var storedName: String?
    public var status: MoveStatus
    public var size: Int64
    /// Hex SHA-256 of the contents (empty for quarantined files, which are not read).
    public var sha256: String
    public var inode: UInt64
    public var device: UInt64
    /// Why it was quarantined.
    public var reason: String?
    /// The process that journaled an unfinished row (to tell whether it is still at work).
    public var owner: ProcessIdentity
    /// The sender (`SourceApplication` of the open request), and the request's annotation.
    public var sender: String?
    public var annotation: PropertyList?
    /// When the file arrived in the Inbox (its inode's change time), and when its move was
    /// complete and durable (seconds since 1970, UTC).
    public var arrived: Double?, moved: Double?
    /// The document's type identifier, as the app's policy judged it.
    public var type: String?
}

/// What is recorded about a file when its move is journaled.
struct MoveIntent {
    var name: [UInt8]
    var planned: String
    var status: FileStatus
    var sha256: String
    var request: OpenRequest?
    var type: String?
}

extension Manifest {
    /// Records the intents to move `intents`, in one transaction; their row ids. Committed and
    /// durable when this returns.
    func beginMoves(_ intents: [MoveIntent]) throws(ReceiverError) -> [Int64] {
        try transaction { () throws(ReceiverError) -> [Int64] in
            var ids: [Int64] = []
            for intent in intents {
                let statement = try statement("INSERT INTO moves (original_name, stored_name, status, size, sha256, inode, device, arrived, owner_pid, owner_start, sender, annotation, type) VALUES (?, ?, 'moving', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
                bind(statement, 1, intent.name)
                bind(statement, 2, intent.planned)
                sqlite3_bind_int64(statement, 3, intent.status.size)
                bind(statement, 4, intent.sha256)
                sqlite3_bind_int64(statement, 5, Int64(bitPattern: intent.status.inode))
                sqlite3_bind_int64(statement, 6, Int64(bitPattern: intent.status.device))
                sqlite3_bind_double(statement, 7, intent.status.changed.secondsSince1970)
                sqlite3_bind_int64(statement, 8, Int64(ProcessIdentity.current.id))
                sqlite3_bind_int64(statement, 9, ProcessIdentity.current.start)
                bind(statement, 10, intent.request?.sourceApplication)
                bind(statement, 11, intent.request?.annotation.map { BinaryPropertyListWriter().write($0) })
                bind(statement, 12, intent.type)
                try step(statement)
                ids.append(sqlite3_last_insert_rowid(db))
            }
            return ids
        }
    }

    /// Marks a move done, under the name it got; or (with `nil`) drops an intent that did not happen.
    func finish(_ id: Int64, storedAs name: String?, time: Double) throws(ReceiverError) {
        if let name {
            let statement = try statement("UPDATE moves SET status = 'stored', stored_name = ?, moved = ? WHERE id = ?")
            bind(statement, 1, name)
            sqlite3_bind_double(statement, 2, time)
            sqlite3_bind_int64(statement, 3, id)
            try step(statement)
        } else {
            let statement = try statement("DELETE FROM moves WHERE id = ?")
            sqlite3_bind_int64(statement, 1, id)
            try step(statement)
        }
    }

    /// Records the final name of a cross-file-system copy that is durable there, before the Inbox
    /// copy is removed (status ``MoveStatus/copied``).
    func markCopied(_ id: Int64, storedAs name: String) throws(ReceiverError) {
        let statement = try statement("UPDATE moves SET status = 'copied', stored_name = ? WHERE id = ?")
        bind(statement, 1, name)
        sqlite3_bind_int64(statement, 2, id)
        try step(statement)
    }

    /// Records a file moved to the quarantine folder, with the reason and its request's sender.
    func recordQuarantine(name: [UInt8], storedAs: String, status: FileStatus, type: String?, reason: String,
                          request: OpenRequest?, time: Double) throws(ReceiverError) {
        let statement = try statement("INSERT INTO moves (original_name, stored_name, status, reason, size, sha256, inode, device, arrived, moved, type, sender, annotation) VALUES (?, ?, 'quarantined', ?, ?, '', ?, ?, ?, ?, ?, ?, ?)")
        bind(statement, 1, name)
        bind(statement, 2, storedAs)
        bind(statement, 3, reason)
        sqlite3_bind_int64(statement, 4, status.size)
        sqlite3_bind_int64(statement, 5, Int64(bitPattern: status.inode))
        sqlite3_bind_int64(statement, 6, Int64(bitPattern: status.device))
        sqlite3_bind_double(statement, 7, status.changed.secondsSince1970)
        sqlite3_bind_double(statement, 8, time)
        bind(statement, 9, type)
        bind(statement, 10, request?.sourceApplication)
        bind(statement, 11, request?.annotation.map { BinaryPropertyListWriter().write($0) })
        try step(statement)
    }

    /// Every row, oldest first; `status` filters.
    public func entries(status: MoveStatus? = nil) throws(ReceiverError) -> [ManifestEntry] {
        let type = try hasTypeColumn() ? "type" : "NULL"
        let sql = "SELECT id, original_name, stored_name, status, size, sha256, inode, device, reason, owner_pid, owner_start, sender, annotation, arrived, moved, \(type) FROM moves"
            + (status == nil ? "" : " WHERE status = ?") + " ORDER BY id"
        let statement = try statement(sql)
        defer { sqlite3_reset(statement) }
        if let status { bind(statement, 1, status.rawValue) }
        var rows: [ManifestEntry] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw failure(code) }
            func text(_ column: Int32) -> String? { sqlite3_column_text(statement, column).map { String(cString: $0) } }
            func blob(_ column: Int32) -> [UInt8]? {
                sqlite3_column_blob(statement, column).map { Array(UnsafeRawBufferPointer(start: $0, count: Int(sqlite3_column_bytes(statement, column)))) }
            }
            func real(_ column: Int32) -> Double? { sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : sqlite3_column_double(statement, column) }
            guard let status = text(3).flatMap(MoveStatus.init(rawValue:)) else { continue }
            rows.append(ManifestEntry(
                id: sqlite3_column_int64(statement, 0), originalName: blob(1) ?? [], storedName: text(2), status: status,
                size: sqlite3_column_int64(statement, 4), sha256: text(5) ?? "",
                inode: UInt64(bitPattern: sqlite3_column_int64(statement, 6)), device: UInt64(bitPattern: sqlite3_column_int64(statement, 7)),
                reason: text(8),
                owner: ProcessIdentity(id: Int32(truncatingIfNeeded: sqlite3_column_int64(statement, 9)), start: sqlite3_column_int64(statement, 10)),
                sender: text(11), annotation: blob(12).flatMap { try? PropertyListReader.read($0).value },
                arrived: real(13), moved: real(14), type: text(15)))
        }
        return rows
    }

    /// The unfinished rows (``MoveStatus/isUnfinished``), oldest first.
    func unfinished() throws(ReceiverError) -> [ManifestEntry] {
        try entries(status: .moving) + entries(status: .copied)
    }
}
