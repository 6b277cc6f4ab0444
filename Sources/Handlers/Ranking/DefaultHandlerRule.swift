/// The one rule for which of the user's defaults applies to a document type: the default set for
/// the type itself, else for its nearest supertype (fewest steps up), as LaunchServices and
/// mimeapps.list's fallback to parent types do; between supertypes at the same distance, the
/// type identifier that sorts first, so the answer never depends on the order of a dictionary.
/// The chooser's ranking (both its paths) and `openin default get` ask here.
public enum DefaultHandlerRule {
    /// A default that applies.
    public struct Match: Sendable, Hashable {
        /// The type it was set for.
        public var type: String
        /// The app.
        public var app: String
        /// Steps from the document's type up to `type` (0: the type itself).
        public var distance: Int
    }

    /// The default among `defaults` (type identifier → bundle identifier) that applies, given the
    /// distance from the document's type to a type (`nil`: not a supertype).
    public static func nearest(in defaults: [String: String], distance: (String) -> Int?) -> Match? {
        var best: Match?
        for (type, app) in defaults {
            guard let d = distance(type) else { continue }
            if let current = best, (current.distance, current.type) <= (d, type) { continue }
            best = Match(type: type, app: app, distance: d)
        }
        return best
    }
}
