import Handoff
import SystemCalls

/// Starts the helper that carries a continuing app's streams to the device its activity came
/// from: `nearby streams DEVICE --app --process --made-current`, with one end of a socket pair as
/// its standard input and output; the app speaks ``Handoff/ContinuationFrame``s on the other end.
/// One rule for ``IncomingActivity/openStreams()`` and InterchangeKit's `getContinuationStreams`.
///
/// A helper process rather than the network here: the pinned TLS connection lives in Nearby
/// (SwiftNIO, BoringSSL), which an app that links this library should not have to carry, as
/// nearby sending runs `nearby` too.
package enum ContinuationHelper {
    /// A started helper: the app's end, and the helper's process (to reap once done).
    package struct Started: Sendable {
        /// The app's end of the socket pair.
        package var channel: ContinuationChannel
        /// The helper's process id.
        package var process: Int32

        /// Waits for the helper's first frame: the streams are open, or why not.
        package func awaitOpened() throws(HandoffError) {
            let first: ContinuationFrame?
            do { first = try channel.read() } catch { throw .streams("\(error)") }
            switch first {
            case .opened?: return
            case .failed(let reason)?: throw .streams(reason)
            case nil: throw .streams("the helper (nearby streams) ended without a word")
            case let other?: throw .streams("the helper sent a \(other.kind) frame first")
            }
        }

        /// Closes the app's end and reaps the helper, on a thread of its own.
        package func end() {
            channel.close()
            let pid = process
            try? BackgroundThread.start { _ = try? Spawn.wait(for: pid) }
        }
    }

    /// Starts the helper for `activity`, continued by the app on device root `root`.
    package static func start(for activity: IncomingActivity, root: String) throws(HandoffError) -> Started {
        guard Environment.findExecutable("nearby") != nil else { throw .streams("the nearby tool is not installed (scripts/install)") }
        let offer = activity.offer
        let arguments = ["nearby", "streams", activity.originDevice, "--root", root, "--app", offer.bundleIdentifier,
                         "--process", String(offer.processIdentifier), "--made-current", "\(offer.madeCurrent)"]
        do {
            let (ours, theirs) = try StreamSocket.pair()
            return Started(channel: ContinuationChannel(ours), process: try Spawn.connected(arguments, socket: theirs))
        } catch { throw .streams("\(error)") }
    }
}
