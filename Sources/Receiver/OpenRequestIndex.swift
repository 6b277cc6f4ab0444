import AppRegistry
import Handlers
import OpenRequests
import SystemCalls

/// The open requests of one container, arranged for matching Inbox entries to them: by the
/// delivered file's identity (inode, device, size), which a rename keeps whatever name the
/// Inbox gave the file; else by the name their `DocumentPath` gives (requests from senders that
/// record no identity). Read once per pass, *after* the Inbox was listed: a sender writes a
/// request before its document appears (``OpenRequest``), so every document listed has its
/// request on disk by then.
struct OpenRequestIndex {
    /// A request and its file.
    struct Entry {
        var request: OpenRequest
        var path: String
    }
    var byIdentity: [DocumentIdentity: Entry] = [:]
    var byName: [String: Entry] = [:]

    /// No requests (a mover without a manifest does not read them).
    init() {}

    /// Reads every request in `container` (unreadable request files are skipped: a request is
    /// advisory, the document is what is delivered). Requests for documents opened in place are
    /// not the receiver's, nor requests without a document (URLs, activities to continue: the
    /// app claims those itself).
    init(container: AppContainer) {
        for file in FileSystem.entries(of: container.openRequests).sorted() where file.hasSuffix(".plist") {
            let path = container.openRequests + "/" + file
            guard let request = try? OpenRequest.read(path), !request.opensInPlace, !request.isURLRequest, !request.isActivityRequest else { continue }
            let entry = Entry(request: request, path: path)
            if let identity = request.identity {
                if byIdentity[identity] == nil { byIdentity[identity] = entry }
            } else if request.documentPath.hasPrefix(container.inbox + "/") || !request.documentPath.hasPrefix("/") {
                if byName[request.documentName] == nil { byName[request.documentName] = entry }
            }
        }
    }

    /// The request for the file `name` with status `status`.
    func request(for name: [UInt8], status: FileStatus) -> Entry? {
        byIdentity[DocumentIdentity(status)] ?? byName[DisplayName.of(name)]
    }
}
