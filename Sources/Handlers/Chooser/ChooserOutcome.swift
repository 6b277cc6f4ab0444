import AppRegistry
import DesktopEntries
import PropertyLists
import SystemCalls

/// What performing a row did, one value per document (or per start, for a desktop application).
public enum ChooserOutcome: Sendable {
    /// The document was delivered to a registered app (into its Inbox, or opened in place).
    case delivered(document: String, app: AppBundle, result: Delivery.Result)
    /// The desktop application was started with the documents (or opened them through D-Bus).
    case started(DesktopApp, DesktopLauncher.Result)
    /// The desktop application was chosen but not started, as asked (`--no-launch`).
    case notStarted(DesktopApp)
    /// An activity's result for one document.
    case performed(ActivityPerformer.Result)
}

extension DocumentChooser {
    /// Performs `row` of `choices`: delivers the documents to a registered app, starts a desktop
    /// application with them, or performs the activity.
    /// - Parameters:
    ///   - annotation: a property list passed to a registered app with each document.
    ///   - launch: whether the app is started (a registered app's `DILaunchCommand`, a desktop app).
    ///   - destination: the folder for copy-to-folder, chosen by the front end; it must exist.
    ///   - progress: per document, called with bytes copied and the total.
    public func perform(_ row: ChooserRow, of choices: Choices, annotation: PropertyList? = nil, launch: Bool = true,
                        destination: String? = nil, progress: ((String) -> ((Int64, Int64) -> Void)?)? = nil) throws(HandlerError) -> [ChooserOutcome] {
        let delivery = Delivery(root: root, sourceApplication: configuration.sourceApplication, annotation: annotation, launch: launch)
        let documents = choices.sheet.documents
        switch row.handler {
        case .bundle(let app):
            return try documents.map { document throws(HandlerError) in
                .delivered(document: document.path, app: app,
                           result: try delivery.deliver(document.path, type: document.type.identifier, to: app, progress: progress?(document.path)))
            }
        case .desktop(let app):
            var paths: [String] = []
            for document in documents {
                do { paths.append(try CurrentProcess.absolutePath(document.path)) } catch { throw .system(error) }
            }
            guard launch else { return [.notStarted(app)] }
            do { return [.started(app, try DesktopLauncher().launch(app, documents: paths))] } catch { throw .launch(app: app.id, error) }
        case .activity(let activity):
            return try ActivityPerformer(delivery: delivery, registry: registry)
                .perform(activity, on: documents, destination: destination, progress: progress).map(ChooserOutcome.performed)
        }
    }
}
