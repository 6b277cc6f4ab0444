import AppRegistry
import OpenRequests
import SystemCalls

extension Delivery {
    /// Finishes a delivery that a killed process left between writing its open request
    /// (`arriving`) and renaming the document into the Inbox: the staged copy, found in the app's
    /// `tmp/` by the identity the request records (a rename keeps it), is placed into the Inbox
    /// and the request marked delivered. A copy already in the Inbox (killed after the rename,
    /// before the request's update) only gets its request updated.
    /// - Returns: the document's path in the Inbox; `nil` when the copy is in neither place, and
    ///   the request is then removed (it would wait for a document that never comes).
    public static func finishArriving(_ request: OpenRequest, at requestPath: String,
                                      container: AppContainer) throws(HandlerError) -> String? {
        guard request.state == .arriving, let identity = request.identity else { return request.documentPath }
        var finished = request
        if let placed = Self.file(with: identity, in: container.inbox) {
            finished.documentPath = placed
        } else if let staged = Self.file(with: identity, in: container.temporary) {
            let name = request.documentPath.split(separator: "/").last.map(String.init) ?? "document"
            finished.documentPath = try StagedCopy(existing: staged, identity: identity, placedAs: name).place(into: container.inbox)
        } else {
            try? FileSystem.remove(requestPath)
            return nil
        }
        finished.state = .delivered
        do { try finished.update(at: requestPath) } catch { throw .openRequest(error) }
        return finished.documentPath
    }

    /// The regular file in `folder` that is the file `identity` names (device and inode).
    static func file(with identity: DocumentIdentity, in folder: String) -> String? {
        for name in FileSystem.entries(of: folder) {
            let path = folder + "/" + name
            if let status = FileSystem.linkStatus(path), status.kind == .regular, status.inode == identity.inode, status.device == identity.device {
                return path
            }
        }
        return nil
    }
}
