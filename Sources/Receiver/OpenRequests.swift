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

    /// Every request in this container, by the name its `DocumentPath` gives the document in
    /// the Inbox (the first in name order when several do). Read once per pass: a per-file scan
    /// would parse every pending request for every file. Unreadable request files are skipped (a
    /// request is advisory: the document is what is delivered).
    static func all(in container: AppContainer) -> [String: Request] {
        var requests: [String: Request] = [:]
        for file in FileSystem.entries(of: container.openRequests).sorted() where file.hasSuffix(".plist") {
            let path = container.openRequests + "/" + file
            guard let plist = try? PropertyListReader.read(contentsOf: .init(path)).value,
                  let document = plist["DocumentPath"]?.stringValue,
                  let name = document.split(separator: "/").last.map(String.init), requests[name] == nil else { continue }
            requests[name] = Request(path: path, sender: plist["SourceApplication"]?.stringValue, annotation: plist["Annotation"])
        }
        return requests
    }
}
