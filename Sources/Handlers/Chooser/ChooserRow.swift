import AppRegistry
import DesktopEntries

/// One row a front end shows: who would take the documents, as a value the chooser performs.
public struct ChooserRow: Sendable {
    /// Who takes the documents when the row is chosen.
    public enum Handler: Sendable {
        /// A registered app bundle: the documents are delivered into its Inbox with an open request.
        case bundle(AppBundle)
        /// A Linux desktop application: started with the documents as GIO starts it.
        case desktop(DesktopApp)
        /// An activity: copy, print, the clipboard, a share extension.
        case activity(Activity)
    }

    /// Who takes the documents.
    public var handler: Handler
    /// How the app ranked for each document (apps only; `nil` for an activity).
    public var entry: Sheet.AppEntry?

    /// The bundle identifier, desktop-file ID or activity type: what `--to` and `--activity` name.
    public var identifier: String {
        switch handler {
        case .bundle(let app): app.bundleIdentifier
        case .desktop(let app): app.id
        case .activity(let activity): activity.activityType
        }
    }

    /// The name shown.
    public var name: String {
        switch handler {
        case .bundle(let app): app.name
        case .desktop(let app): entry?.app.name ?? app.name
        case .activity(let activity): activity.name
        }
    }

    /// Why the row is offered: the first document's ranking reason, or the activity's.
    public var reason: String {
        if case .activity(let activity) = handler { return activity.reason }
        return entry?.candidates.first?.reason ?? ""
    }
}
