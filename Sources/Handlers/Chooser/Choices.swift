import AppRegistry
import DesktopEntries
import PropertyLists
import Spelling

/// What ``DocumentChooser/choices(for:)`` offers for some documents: the sheet (documents, apps
/// in order, activities, refusals) and its rows, each with its handler as a value.
public struct Choices: Sendable {
    /// The desktop side of the choice: the apps found and how they are ordered.
    struct Desktop: Sendable {
        let linux: LinuxApps
        let selection: LinuxApps.Selection
    }

    /// The documents, the apps that can open all of them in order, the activities, and the apps
    /// that cannot (with ``DocumentChooser/Apps/every``).
    public let sheet: Sheet
    /// The rows in the order shown and numbered from 1: the apps, then the activities.
    public let rows: [ChooserRow]
    /// Apps whose Info.plist could not be read (when the registry had no records), left out.
    public let unreadableApps: [(path: String, error: String)]
    let desktop: Desktop?
    let root: DeviceRoot
    /// What the front end left out.
    let exclude: Set<String>
    /// Every share extension's activity type among the apps looked at (to suggest a mistyped one).
    let shareExtensionTypes: [String]

    init(sheet: Sheet, desktop: Desktop?, unreadableApps: [(path: String, error: String)], root: DeviceRoot, exclude: Set<String>,
         shareExtensionTypes: [String]) {
        self.sheet = sheet
        self.exclude = exclude
        self.desktop = desktop
        self.unreadableApps = unreadableApps
        self.root = root
        self.shareExtensionTypes = shareExtensionTypes
        rows = sheet.apps.map { entry in
            if let app = desktop?.selection.byID[entry.app.bundleIdentifier] { return ChooserRow(handler: .desktop(app), entry: entry) }
            return ChooserRow(handler: .bundle(entry.app), entry: entry)
        } + sheet.activities.map { ChooserRow(handler: .activity($0), entry: nil) }
    }

    /// Whether the desktop applications were looked at.
    public var includesDesktopApps: Bool { desktop != nil }

    /// The mode the desktop applications were ordered in, when they were looked at.
    public var desktopMode: LinuxApps.Mode? { desktop?.linux.mode }

    /// "report.pdf (com.adobe.pdf)", or "these 3 documents".
    public var documentsPhrase: String {
        sheet.documents.count == 1 ? "\(sheet.documents[0].path) (\(sheet.documents[0].type.identifier))" : "these \(sheet.documents.count) documents"
    }

    /// The row of the app `identifier` (bundle identifier or desktop-file ID), or why it is not offered.
    public func row(forApp identifier: String) -> Result<ChooserRow, ChooserUnavailable> {
        if let row = rows.first(where: { $0.entry?.app.bundleIdentifier == identifier }) { return .success(row) }
        if let refusal = sheet.refusals.first(where: { $0.app.bundleIdentifier == identifier }) {
            return .failure(.cannotTake(app: identifier, documents: documentsPhrase, reason: refusal.reason))
        }
        if exclude.contains(identifier) { return .failure(.excluded(identifier)) }
        if let desktop, DesktopApps.isDesktopFileID(identifier) { return .failure(.desktopApp(identifier, desktop.linux.apps.availability(identifier))) }
        let known = (sheet.apps.map(\.app) + sheet.refusals.map(\.app)).map(\.bundleIdentifier)
        return .failure(.noSuchApp(identifier, root: root.path, suggestion: Spelling.nearest(to: identifier, among: known)))
    }

    /// The row of the activity `type`, or why it is not offered.
    public func row(forActivity type: String) -> Result<ChooserRow, ChooserUnavailable> {
        if let row = rows.first(where: { if case .activity(let a) = $0.handler { a.activityType == type } else { false } }) { return .success(row) }
        if let withheld = sheet.withheld.first(where: { $0.activityType == type }) { return .failure(.activityWithheld(type, withheld)) }
        if exclude.contains(type) { return .failure(.excluded(type)) }
        let known = Activity.builtInTypes + shareExtensionTypes
        guard known.contains(type) else { return .failure(.noSuchActivity(type, suggestion: Spelling.nearest(to: type, among: known))) }
        return .failure(.activityNotOffered(type, documents: documentsPhrase))
    }

    /// More lines on why the app of `entry` is where it is for document `index`: for a desktop
    /// application, the file it came from, the line that associated it, its flags.
    public func explanation(_ entry: Sheet.AppEntry, document index: Int) -> [String] {
        guard let desktop else { return [] }
        return desktop.linux.explanation(for: entry.app.bundleIdentifier, document: index, in: desktop.selection)
    }

    /// The fields that say what kind of app a row is, for JSON: `kind` (`bundle`, `desktop`), and
    /// for a desktop application its file, whether it is a hidden helper, its `Exec=` line, and
    /// with `explain` its explanation.
    public func details(_ entry: Sheet.AppEntry, explain: Bool) -> [(String, PropertyList)] {
        guard let desktop, let app = desktop.selection.byID[entry.app.bundleIdentifier] else { return [("kind", .string("bundle"))] }
        var fields: [(String, PropertyList)] = [("kind", .string("desktop")), ("desktopFile", .string(app.path))]
        if let desktopEntry = app.entry {
            fields.append(("hidden", .bool(desktop.linux.isHiddenHelper(app))))
            if let exec = desktopEntry.exec { fields.append(("exec", .string(exec))) }
        }
        if explain {
            fields.append(("explanation", .array(desktop.linux.explanation(for: app.id, document: 0, in: desktop.selection).map(PropertyList.string))))
        }
        return fields
    }

    /// Whether a watcher of the desktop folders would make later choices faster
    /// (``DesktopEntries/DesktopApps/wouldGainFromWatcher``).
    public var wouldGainFromWatcher: Bool { desktop?.linux.apps.wouldGainFromWatcher ?? false }
}
