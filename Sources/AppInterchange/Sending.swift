import AppRegistry
import Handlers
import PropertyLists
import UniformTypes
import URLSchemes

/// An app that can take a document, in the order the sheet shows it (docs/handlers.md).
public struct DocumentHandler: Sendable {
    /// Its bundle identifier.
    public var bundleIdentifier: String
    /// Its name.
    public var name: String
    /// Why it is eligible and where it ranks.
    public var reason: String
}

extension InterchangeApp {
    /// Whether a registered app handles `url`'s scheme and this app may ask (the scheme is among
    /// the first 50 entries of its `LSApplicationQueriesSchemes`), as `canOpenURL` answers.
    public func canOpen(_ url: String) -> Bool {
        (try? canOpenAnswer(url).canOpen) ?? false
    }

    /// The `canOpenURL` answer for `url`, with the reason.
    public func canOpenAnswer(_ url: String) throws(InterchangeError) -> CanOpenAnswer {
        let parsed: SchemeURL
        do { parsed = try SchemeURL(url) } catch { throw .url(error) }
        return try schemeDirectory().canOpen(parsed, from: bundle)
    }

    /// The prepared `canOpenURL` question for repeated checks in one process
    /// (`CanOpenQuestion`: well under a microsecond each).
    public func canOpenQuestion() throws(InterchangeError) -> CanOpenQuestion {
        try schemeDirectory().question(from: bundle)
    }

    /// Opens `url` with the app that handles its scheme (an open request naming this app as the
    /// sender, then that app's launch command), or hands it to the desktop when no registered app
    /// handles it. Opening is not gated by `LSApplicationQueriesSchemes`, as on iOS.
    @discardableResult
    public func open(_ url: String, annotation: PropertyList? = nil) throws(InterchangeError) -> URLOpener.Outcome {
        let parsed: SchemeURL
        do { parsed = try SchemeURL(url) } catch { throw .url(error) }
        return try self.open(parsed, annotation: annotation)
    }

    /// Opens a parsed URL (see ``open(_:annotation:)-(String,_)``).
    @discardableResult
    public func open(_ url: SchemeURL, annotation: PropertyList? = nil) throws(InterchangeError) -> URLOpener.Outcome {
        let opener = URLOpener(root: root, directory: try schemeDirectory(), sourceApplication: bundleIdentifier, annotation: annotation)
        do { return try opener.open(url) } catch { throw .url(error) }
    }

    /// Answers an x-callback-url request: opens its `x-success` URL with `items` added, its
    /// `x-error` URL with `errorCode` and `errorMessage`, or its `x-cancel` URL.
    /// - Returns: the URL opened, or `nil` when the caller gave none for this reply.
    @discardableResult
    public func reply(to request: XCallbackRequest, with reply: XCallbackReply) throws(InterchangeError) -> SchemeURL? {
        guard let answer = request.answer(reply) else { return nil }
        try self.open(answer)
        return answer
    }

    /// The chooser for this app's documents: this app is the sender; registered apps only.
    func chooser(apps: DocumentChooser.Apps, offersSelf: Bool = false) throws(InterchangeError) -> DocumentChooser {
        let registry = try registry()
        do {
            return try DocumentChooser(root: root, registry: registry,
                                       configuration: .init(sourceApplication: bundleIdentifier, apps: apps, offersSender: offersSelf))
        } catch { throw .handler(error) }
    }

    /// The apps that can take the document at `path`, best first, as the sheet orders them (the
    /// user's defaults, claims, rank, distance, role, name); this app is left out.
    public func handlers(forDocument path: String) throws(InterchangeError) -> [DocumentHandler] {
        try chooser(apps: .relevant).choices(for: [path]).rows.compactMap { row in
            guard let entry = row.entry else { return nil }
            return DocumentHandler(bundleIdentifier: entry.app.bundleIdentifier, name: row.name, reason: row.reason)
        }
    }

    /// Hands the document at `path` to the app `bundleIdentifier` (a read-only copy in its
    /// Inbox and an open request naming this app, then its launch command), when that app can
    /// open it.
    @discardableResult
    public func send(document path: String, to bundleIdentifier: String, annotation: PropertyList? = nil) throws(InterchangeError) -> Delivery.Result {
        // An app may send a document to itself: it is then not left out as the sender.
        let chooser = try chooser(apps: .only(bundleIdentifier), offersSelf: bundleIdentifier == self.bundleIdentifier)
        let choices = chooser.choices(for: [path])
        let row: ChooserRow
        switch choices.row(forApp: bundleIdentifier) {
        case .success(let found): row = found
        case .failure(.noSuchApp): throw .handler(.noSuchApp(bundleIdentifier))
        case .failure(.cannotTake(_, _, let reason)): throw .handler(.cannotTake(app: bundleIdentifier, reason: reason))
        case .failure(let other): throw .handler(.cannotTake(app: bundleIdentifier, reason: other.description))
        }
        let outcomes: [ChooserOutcome]
        do { outcomes = try chooser.perform(row, of: choices, annotation: annotation) } catch { throw .handler(error) }
        guard case .delivered(_, _, let result) = outcomes.first else { throw .handler(.refused("\(bundleIdentifier) is not a registered app")) }
        return result
    }
}
