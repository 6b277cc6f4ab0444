import AppInterchange
import Handoff
import SystemCalls

/// Starts the helper that carries a continuing app's streams to the device its activity came
/// from: `nearby streams DEVICE --app --process --made-current`, with one end of a socket pair as
/// its standard input and output. The app speaks frames on the other end (``ContinuationStreamPair``).
///
/// A helper process rather than the network here: the pinned TLS connection lives in Nearby
/// (SwiftNIO, BoringSSL), which an app that links InterchangeKit should not have to carry, as
/// `InterchangeApp`'s nearby sending runs `nearby` too.
enum ContinuationHelper {
    /// Starts the helper for `activity`; the pair's channel waits for its first frame.
    static func open(_ activity: IncomingActivity) throws(HandoffError) -> ContinuationStreamPair {
        guard Environment.findExecutable("nearby") != nil else { throw .streams("the nearby tool is not installed (scripts/install)") }
        let root: String
        do { root = try CurrentApp.app.get().root.path } catch { throw .streams("\(error)") }
        let offer = activity.offer
        let arguments = ["nearby", "streams", activity.originDevice, "--root", root, "--app", offer.bundleIdentifier,
                         "--process", String(offer.processIdentifier), "--made-current", "\(offer.madeCurrent)"]
        do {
            let (ours, theirs) = try StreamSocket.pair()
            let pid = try Spawn.connected(arguments, socket: theirs)
            // Reaped on a thread of its own once both streams are closed (or it failed).
            return ContinuationStreamPair(ContinuationChannel(ours)) {
                try? BackgroundThread.start { _ = try? Spawn.wait(for: pid) }
            }
        } catch { throw .streams("\(error)") }
    }
}
