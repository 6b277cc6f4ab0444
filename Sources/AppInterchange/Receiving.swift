import AppRegistry
import Handlers
import Handoff
import OpenRequests
import Receiver
import SystemCalls
import URLSchemes

extension InterchangeApp {
    /// The environment variable naming the request that started the app.
    public static let requestVariable = "DI_OPEN_REQUEST"

    /// The request that started this process (`DI_OPEN_REQUEST`, set by the launch command), read
    /// once: a URL request is claimed (no other instance of the app gets it); a document request
    /// is left for the receiver, and the document read where it is. `nil` when the process was
    /// not started by a request, or another instance already took it.
    public func launchRequest() throws(InterchangeError) -> IncomingRequest? {
        guard let path = Environment.value(Self.requestVariable), !path.isEmpty else { return nil }
        guard FileSystem.exists(path) else { return nil }
        let request: OpenRequest
        do { request = try OpenRequest.read(path) } catch { throw .handler(.openRequest(error)) }
        if request.isURLRequest || request.isActivityRequest {
            return try claim(path)
        }
        return .document(IncomingDocument(path: request.documentPath, sourceApplication: request.sourceApplication,
                                          annotation: request.annotation, type: request.documentType))
    }

    /// Every URL request waiting in `Library/OpenRequests/`, oldest first, each claimed (renamed
    /// away, then removed), so that two instances never both act on one.
    public func pendingURLs() throws(InterchangeError) -> [IncomingURL] {
        try pendingRequests(activities: false).compactMap { if case .url(let url) = $0 { url } else { nil } }
    }

    /// Every request without a document waiting in `Library/OpenRequests/` (URLs, and activities
    /// to continue unless `activities` is false), oldest first, each claimed as ``pendingURLs()``'s are.
    public func pendingRequests(activities: Bool = true) throws(InterchangeError) -> [IncomingRequest] {
        var result: [IncomingRequest] = []
        for name in FileSystem.entries(of: container.openRequests).sorted() where name.hasSuffix(".plist") && !name.hasPrefix(".") {
            let path = container.openRequests + "/" + name
            guard let request = try? OpenRequest.read(path), request.isURLRequest || (activities && request.isActivityRequest) else { continue }
            if let incoming = try claim(path) { result.append(incoming) }
        }
        return result
    }

    /// Takes the URL or activity request at `path`: renamed to a hidden name (atomic; the loser
    /// of a race finds it gone), read, removed. `nil` when another instance took it first.
    func claim(_ path: String) throws(InterchangeError) -> IncomingRequest? {
        let slash = path.lastIndex(of: "/")!
        let claimed = String(path[..<slash]) + "/.claimed-" + String(path[path.index(after: slash)...])
        do { try FileSystem.rename(path, to: claimed) } catch {
            if error.errno == .noSuchFileOrDirectory { return nil }
            throw .system(error)
        }
        defer { try? FileSystem.remove(claimed) }
        let request: OpenRequest
        do { request = try OpenRequest.read(claimed) } catch { throw .handler(.openRequest(error)) }
        if request.isActivityRequest, let value = request.continuedActivity {
            let offer: ActivityOffer
            do { offer = try ActivityOffer(propertyList: value) } catch { throw .activity(error) }
            return .activity(IncomingActivity(offer: offer, originDevice: request.originDevice ?? "", time: request.time))
        }
        guard let text = request.url else { return nil }
        let url: SchemeURL
        do { url = try SchemeURL(text) } catch { throw .url(error) }
        return .url(IncomingURL(url: url, sourceApplication: request.sourceApplication, annotation: request.annotation, time: request.time))
    }

    /// One pass of the app's receiver (`DeviceReceiver`, as `inboxd` runs it): every
    /// complete document in the Inbox moved into `Documents/`, durably, judged by the app's
    /// declared types; the documents stored, with their sender and annotation.
    /// - Parameter senders: whose documents are accepted (empty: everyone).
    public func receiveDocuments(senders: SenderAllowList = SenderAllowList()) throws(InterchangeError) -> [IncomingDocument] {
        var options = DeviceReceiver.Options(root: root)
        options.app = bundleIdentifier
        options.senders = senders
        let mover: InboxMover
        do { mover = try DeviceReceiver(options).mover(for: bundleIdentifier) } catch { throw .receiver(error) }
        let outcomes: [EntryOutcome]
        do { outcomes = try mover.moveAll() } catch { throw .receiver(error) }
        let stored = outcomes.compactMap { outcome -> String? in if case .moved(let name) = outcome.outcome { name } else { nil } }
        guard !stored.isEmpty else { return [] }
        let entries: [ManifestEntry]
        do { entries = try mover.manifest?.entries(status: .stored) ?? [] } catch { throw .receiver(error) }
        return stored.map { name in
            let entry = entries.last { $0.storedName == name }
            return IncomingDocument(path: mover.destination + "/" + name, sourceApplication: entry?.sender, annotation: entry?.annotation,
                                    type: entry?.type)
        }
    }

    /// The requests that reach the app while it runs, as they come: URL requests claimed from
    /// `Library/OpenRequests/` and documents moved out of the Inbox by its receiver, woken by
    /// inotify on both folders (with a full look every second in case an event was missed).
    /// - Parameter senders: whose documents are accepted (empty: everyone).
    public func requests(senders: SenderAllowList = SenderAllowList()) -> IncomingRequests {
        IncomingRequests(app: self, senders: senders)
    }
}
