import Logging
import OrderedCollections
import PropertyLists
import Receiver
import SystemCalls
import ToolSupport

/// How `inboxd` shows what happened: log lines, the lines of `once`, and JSON.
enum InboxdReport {
    /// Logs each outcome (moved: info; left for later: notice; refused or quarantined: warning).
    static func log(_ app: String, _ outcomes: [EntryOutcome], logger: Logger) {
        for entry in outcomes {
            let shown = DisplayName.of(entry.name)
            switch entry.outcome {
            case .moved(let stored): logger.info("moved", metadata: ["app": "\(app)", "name": "\(shown)", "stored": "\(stored)"])
            case .deferred(let why): logger.notice("left for later", metadata: ["app": "\(app)", "name": "\(shown)", "reason": "\(why)"])
            case .refused(let why): logger.warning("refused", metadata: ["app": "\(app)", "name": "\(shown)", "reason": "\(why)"])
            case .quarantined(let why, let stored):
                logger.warning("quarantined", metadata: ["app": "\(app)", "name": "\(shown)", "stored": "\(stored)", "reason": "\(why)"])
            }
        }
    }

    /// The lines `once` prints.
    static func print(_ app: String, _ outcomes: [EntryOutcome], into folder: String) {
        for entry in outcomes {
            let shown = TerminalText.escaped(DisplayName.of(entry.name))
            switch entry.outcome {
            case .moved(let stored): Output.line("\(app): \(shown) -> \(TerminalText.escaped(folder + stored))")
            case .deferred(let why): Output.line("\(app): \(shown) left for later: \(why)")
            case .refused(let why): Output.line("\(app): \(shown) refused: \(why)")
            case .quarantined(let why, let stored): Output.line("\(app): \(shown) quarantined as Library/Quarantine/\(stored): \(why)")
            }
        }
    }

    static func statusLine(_ app: DeviceReceiver.AppStatus) -> String {
        let unfinished = (app.counts[.moving] ?? 0) + (app.counts[.copied] ?? 0)
        return "\(app.app): \(app.waiting) waiting in the Inbox, \(app.counts[.stored] ?? 0) stored, \(app.counts[.quarantined] ?? 0) quarantined, \(unfinished) unfinished"
    }

    static func statusValue(_ app: DeviceReceiver.AppStatus) -> PropertyList {
        .dictionary(["app": .string(app.app), "waiting": .integer(Int64(app.waiting)),
                     "stored": .integer(Int64(app.counts[.stored] ?? 0)), "quarantined": .integer(Int64(app.counts[.quarantined] ?? 0)),
                     "unfinished": .integer(Int64((app.counts[.moving] ?? 0) + (app.counts[.copied] ?? 0)))])
    }

    static func historyLine(_ app: String, _ entry: ManifestEntry) -> String {
        // Names escaped: a tab or a newline in a name would break the row into more fields or lines.
        "\(app)\t\(entry.status.rawValue)\t\(TerminalText.escaped(DisplayName.of(entry.originalName)))\t\(TerminalText.escaped(entry.storedName ?? "-"))\t\(entry.type ?? "-")\t\(entry.size)\t\(entry.sha256)"
    }

    static func historyValue(_ app: String, _ entry: ManifestEntry) -> PropertyList {
        var row: OrderedDictionary<String, PropertyList> = [
            "app": .string(app), "status": .string(entry.status.rawValue), "originalName": .string(DisplayName.of(entry.originalName)),
            "size": .integer(entry.size), "sha256": .string(entry.sha256),
        ]
        if let stored = entry.storedName { row["storedName"] = .string(stored) }
        if let type = entry.type { row["type"] = .string(type) }
        if let arrived = entry.arrived { row["arrived"] = .real(arrived) }
        if let moved = entry.moved { row["moved"] = .real(moved) }
        if let reason = entry.reason { row["reason"] = .string(reason) }
        if let sender = entry.sender { row["sender"] = .string(sender) }
        if let annotation = entry.annotation { row["annotation"] = annotation }
        return .dictionary(row)
    }

    /// Pretty JSON of `value`.
    static func json(_ value: PropertyList) -> String {
        String(decoding: (try? JSONPropertyListWriter(prettyPrinted: true).write(value)) ?? [], as: UTF8.self)
    }
}
