import SystemCalls
import Handlers
import OrderedCollections
import PropertyLists
import ToolSupport
import UniformTypes

/// The sheet as text and as JSON.
enum SheetText {
    /// One row of the sheet: an app or an activity, numbered from 1 in that order.
    enum Row {
        case app(Sheet.AppEntry)
        case activity(Activity)
    }

    static func rows(_ sheet: Sheet) -> [Row] { sheet.apps.map(Row.app) + sheet.activities.map(Row.activity) }

    static func documentLines(_ sheet: Sheet) -> [String] {
        sheet.documents.map { "\($0.path): \($0.type.identifier) (\($0.rule))" }
    }

    static func summary(_ entry: Sheet.AppEntry) -> String {
        let c = entry.candidates[0]
        return "\(c.claim.role.rawValue), \(c.claim.rank.rawValue), \(c.claimedType)"
    }

    /// - Parameter details: more `why` lines for an app and a document (Linux desktop apps).
    static func plain(_ sheet: Sheet, explain: Bool, all: Bool, details: ((Sheet.AppEntry, Int) -> [String])? = nil) -> String {
        var out = documentLines(sheet)
        let nameWidth = min(32, (sheet.apps.map { $0.app.name.count } + sheet.activities.map { $0.name.count }).max() ?? 8)
        let idWidth = min(44, (sheet.apps.map { $0.app.bundleIdentifier.count } + sheet.activities.map { $0.activityType.count }).max() ?? 8)
        func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
        var number = 0
        out.append("")
        out.append("Open in:")
        if sheet.apps.isEmpty { out.append("   (no app can open \(sheet.documents.count == 1 ? "it" : "all of them"))") }
        for entry in sheet.apps {
            number += 1
            out.append("  \(pad(String(number), 3)) \(pad(entry.app.name, nameWidth))  \(pad(entry.app.bundleIdentifier, idWidth))  \(summary(entry))")
            if explain {
                for (index, (document, candidate)) in zip(sheet.documents, entry.candidates).enumerated() {
                    out.append("        why\(sheet.documents.count > 1 ? " (\(document.path))" : ""): \(candidate.reason)")
                    for line in details?(entry, index) ?? [] { out.append("          \(line)") }
                }
            }
        }
        out.append("Activities:")
        for activity in sheet.activities {
            number += 1
            out.append("  \(pad(String(number), 3)) \(pad(activity.name, nameWidth))  \(activity.activityType)")
            if explain { out.append("        why: \(activity.reason)") }
        }
        if all {
            out.append("Not eligible:")
            for refusal in sheet.refusals { out.append("      \(refusal.app.name) (\(refusal.app.bundleIdentifier)): \(refusal.reason)") }
            for id in sheet.excluded { out.append("      \(id): excluded by --exclude") }
            for withheld in sheet.withheld { out.append("      \(withheld.activityType): \(withheld)") }
        }
        // Each line escaped: a newline or an escape sequence in a name cannot forge a line or
        // reach the terminal.
        var text = ""
        for line in out { text += TerminalText.escaped(line) + "\n" }
        return text
    }

    /// - Parameter details: more fields for an app (Linux desktop apps).
    static func json(_ sheet: Sheet, all: Bool, details: ((Sheet.AppEntry) -> [(String, PropertyList)])? = nil) -> String {
        // Every key below is a distinct literal: not checked again string by string (892
        // comparisons, 46,000 instructions of `--list --json` at 400 desktop files, callgrind);
        // a debug build still checks.
        func dict(_ pairs: [(String, PropertyList)]) -> PropertyList { .dictionary(OrderedDictionary(uncheckedUniqueKeysWithValues: pairs)) }
        var top: [(String, PropertyList)] = [
            ("documents", .array(sheet.documents.map { dict([("path", .string($0.path)), ("type", .string($0.type.identifier)),
                                                            // The MIME type the desktop apps are looked up by (`gio mime TYPE`).
                                                            ("mimeType", .string(LinuxApps.mimeType(of: $0.type))),
                                                            ("rule", .string("\($0.rule)"))]) })),
            ("apps", .array(sheet.apps.map { entry in
                let c = entry.candidates[0]
                // Joined by hand: a process's first generic `joined` costs about 130,000
                // instructions of run-time type lookups (callgrind).
                var reason = ""
                for (i, candidate) in entry.candidates.enumerated() { reason += (i == 0 ? "" : "; ") + candidate.reason }
                return dict([("bundleIdentifier", .string(entry.app.bundleIdentifier)), ("name", .string(entry.app.name)),
                             ("role", .string(c.claim.role.rawValue)), ("rank", .string(c.claim.rank.rawValue)),
                             ("claimedType", .string(c.claimedType)), ("distance", .integer(Int64(c.distance))),
                             ("reason", .string(reason))] + (details?(entry) ?? []))
            })),
            ("activities", .array(sheet.activities.map {
                dict([("activityType", .string($0.activityType)), ("name", .string($0.name)), ("reason", .string($0.reason))])
            })),
        ]
        if all {
            top.append(("notEligible", .array(sheet.refusals.map {
                dict([("bundleIdentifier", .string($0.app.bundleIdentifier)), ("name", .string($0.app.name)), ("reason", .string($0.reason))])
            } + sheet.excluded.map { dict([("identifier", .string($0)), ("reason", .string("excluded by --exclude"))]) }
              + sheet.withheld.map { dict([("identifier", .string($0.activityType)), ("reason", .string($0.description))]) })))
        }
        let bytes = (try? JSONPropertyListWriter(prettyPrinted: true).write(dict(top))) ?? []
        return String(decoding: bytes, as: UTF8.self) + "\n"
    }
}
