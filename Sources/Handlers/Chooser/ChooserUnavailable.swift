import DesktopEntries
import Spelling

/// Why an app or activity a front end named (`openin --to`, `--activity`, an app's
/// `send(document:to:)`) is not among the rows: a value to decide on, with a sentence.
public enum ChooserUnavailable: Error, Sendable, Hashable, CustomStringConvertible {
    /// The app exists but cannot take the documents (the documents as a phrase, and why).
    case cannotTake(app: String, documents: String, reason: String)
    /// The front end excluded it.
    case excluded(String)
    /// A desktop-file ID that names no usable app here, or one that does not open these documents.
    case desktopApp(String, DesktopApps.Availability)
    /// No app of that identifier (the root looked at, and the nearest known identifier).
    case noSuchApp(String, root: String, suggestion: String?)
    /// The activity exists but a document is not a file it can take.
    case activityWithheld(String, Sheet.Withheld)
    /// The activity exists but is not offered for these documents.
    case activityNotOffered(String, documents: String)
    /// No activity of that type (the nearest known one, and the built-in types).
    case noSuchActivity(String, suggestion: String?)

    /// Whether the thing named exists and refuses these documents (exit status 1), rather than
    /// naming nothing usable (a usage error).
    public var refusesDocuments: Bool {
        switch self {
        case .cannotTake, .activityWithheld, .activityNotOffered: true
        case .excluded, .desktopApp, .noSuchApp, .noSuchActivity: false
        }
    }

    /// One sentence.
    public var description: String {
        switch self {
        case .cannotTake(let app, let documents, let reason): "\(app) cannot take \(documents): \(reason)"
        case .excluded(let id): "\(id) is excluded"
        case .desktopApp(let id, .available): "\(id) cannot open these documents"
        case .desktopApp(_, let availability): availability.description
        case .noSuchApp(let id, let root, let suggestion): "no registered app \(id) on \(root)" + (suggestion.map { " (did you mean \($0)?)" } ?? "")
        case .activityWithheld(let type, let withheld): "the activity \(type) is not offered: \(withheld)"
        case .activityNotOffered(let type, let documents): "the activity \(type) is not available for \(documents)"
        case .noSuchActivity(let type, let suggestion):
            "no activity named \(type)" + (suggestion.map { " (did you mean \($0)?)" } ?? "")
                + "; the activities are \(Activity.builtInTypes.joined(separator: ", ")) and share extensions' identifiers"
        }
    }
}
