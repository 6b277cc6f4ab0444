import AppRegistry
import SystemCalls

/// Whether an app is running and taking its URL requests as they come, so that opening a URL
/// hands it to that app instead of starting another copy: on iOS a URL for an app that is
/// already running reaches it in `application(_:open:options:)`, without a relaunch.
///
/// While it listens (``AppInterchange``'s `requests()`), the app holds a shared `flock` on
/// `Library/OpenRequests/.listening`; an opener asks with a non-blocking exclusive lock, which it
/// drops at once. The lock belongs to the open file, so an app that ends or is killed stops being
/// a listener with it: no stale mark can make an opener skip a launch. The opener asks after its
/// request is in the folder, and the listener watches the folder before it takes the lock, so a
/// request an opener did not launch for is always seen by a listener (or, if that listener ends
/// first, by the app's next start: ``InterchangeApp``'s `pendingURLs()`).
public enum RequestListener {
    /// The mark's name in the app's `Library/OpenRequests/` (hidden: requests are `*.plist`).
    public static let fileName = ".listening"

    /// The mark's path in `container`.
    public static func path(in container: AppContainer) -> String { container.openRequests + "/" + fileName }

    /// Marks `container`'s app as listening for as long as the returned descriptor lives.
    /// The corresponding C functions are `open` and `flock` (`LOCK_SH`).
    package static func listen(in container: AppContainer) throws(SystemCallError) -> OwnedDescriptor {
        let mark = try OwnedDescriptor.open(path(in: container), .readOnly, options: [.create, .noFollow], permissions: 0o644)
        try mark.lock(.shared)
        return mark
    }

    /// Whether an instance of `container`'s app is listening now. A missing mark, or one nobody
    /// holds, says no; so does a mark that cannot be opened (the app is then started, as before).
    public static func isListening(in container: AppContainer) -> Bool {
        guard let mark = try? OwnedDescriptor.open(path(in: container), .readOnly, options: [.noFollow]) else { return false }
        // Getting the exclusive lock means no listener holds its shared one; it goes with `mark`.
        return (try? mark.tryLock(.exclusive)) == false
    }
}
