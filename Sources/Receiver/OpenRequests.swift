import Handlers
import PropertyLists
import UniformTypes

/// The open requests `openin` writes into an app's `Library/OpenRequests/` (one property list per
/// delivery), matched to the Inbox files they describe by name.
enum OpenRequests {
    struct Request {
        var path: String
        var sender: String?
        var annotation: PropertyList?
    }

    /// The request whose `DocumentPath` names `name` in this container's Inbox, if any. Unreadable
    /// request files are skipped (a request is advisory: the document is what is delivered).
    static func find(for name: String, in container: AppContainer) -> Request? {
        for file in FileSystem.entries(of: container.openRequests).sorted() where file.hasSuffix(".plist") {
            let path = container.openRequests + "/" + file
            guard let plist = try? PropertyListReader.read(contentsOf: .init(path)).value,
                  let document = plist["DocumentPath"]?.stringValue,
                  document.split(separator: "/").last.map(String.init) == name else { continue }
            return Request(path: path, sender: plist["SourceApplication"]?.stringValue, annotation: plist["Annotation"])
        }
        return nil
    }
}
