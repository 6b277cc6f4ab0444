import AppRegistry
import Handlers
import UniformTypes

/// The schemes of a device's registered apps, from the compiled registry's index: who handles a
/// scheme, in the documented order (``SchemeResolution``), and what `canOpenURL` answers.
///
/// ```swift
/// let directory = SchemeDirectory(registry: registry, defaults: try SchemeDefaults(root: root))
/// directory.resolve("person-viewer").handler?.app.bundleIdentifier
/// directory.canOpen("person-viewer://x", from: editor)      // CanOpenAnswer
/// let question = directory.question(from: editor)           // for repeated in-process checks
/// question.canOpen("person-viewer://x")                     // Bool, well under 1 µs
/// ```
public struct SchemeDirectory: Sendable {
    /// The registry whose index is read.
    public let registry: TypeRegistry
    /// The user's defaults per scheme.
    public let defaults: SchemeDefaults?

    /// A directory over `registry`, with the user's defaults.
    public init(registry: TypeRegistry, defaults: SchemeDefaults? = nil) {
        self.registry = registry
        self.defaults = defaults
    }

    /// The apps that claim `scheme`, in order.
    public func resolve(_ scheme: String) -> SchemeResolution {
        SchemeResolution(scheme: scheme, apps: AppBundle.handling(scheme: scheme, in: registry), userDefault: defaults?.get(scheme))
    }

    /// Every scheme a registered app handles, sorted.
    public var schemes: [String] { registry.handledSchemes }

    /// What `canOpenURL(url)` answers for `sender` (a registered app's bundle identifier).
    public func canOpen(_ url: SchemeURL, from sender: String) -> CanOpenAnswer {
        guard let bundle = AppBundle.registered(sender, in: registry) else { return .unknownSender(sender) }
        return canOpen(url, from: bundle)
    }

    /// What `canOpenURL(url)` answers for the app `sender`.
    public func canOpen(_ url: SchemeURL, from sender: AppBundle) -> CanOpenAnswer {
        let scheme = url.normalizedScheme
        guard let position = sender.queriedSchemes.firstIndex(where: { URLType.normalized($0) == scheme }) else {
            return .notQueried(scheme: scheme, sender: sender.bundleIdentifier)
        }
        guard position < AppBundle.queriedSchemesLimit else {
            return .pastQueryLimit(scheme: scheme, sender: sender.bundleIdentifier, position: position + 1)
        }
        guard let handler = resolve(scheme).handler else { return .noHandler(scheme: scheme) }
        return .yes(scheme: scheme, handler: handler.app.bundleIdentifier)
    }

    /// The in-process question for one sender, prepared once: its counted queried schemes in a
    /// set, so each check is a scheme cut from the URL, a set lookup and the registry's index.
    public func question(from sender: AppBundle) -> CanOpenQuestion {
        CanOpenQuestion(registry: registry, queried: Set(sender.countedQueriedSchemes))
    }
}
