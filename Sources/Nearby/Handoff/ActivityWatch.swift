import Handoff
import NIOCore
import SystemCalls

/// The receiver's side of a paired device's ``SessionMessage/watchActivities``: the activities
/// this device's apps offer (``CurrentActivities``), sent at once, again whenever they change,
/// and every ``heartbeat`` seconds unchanged (so that neither side's idle timeout ends a quiet
/// watch), until the watcher closes the connection.
///
/// Only to paired devices: the connection is mutual TLS between pinned certificates, so the offers
/// are encrypted and authenticated for this pair alone, and discovery carries nothing new (the
/// paired-mode announcement's rotated tag). It is made only for a paired device (``NearbyReceiver``
/// refuses an unpaired one, which everyone-mode lets connect, before anything is read).
struct ActivityWatch {
    let root: String
    /// The paired device watching.
    let paired: PairedDevice

    /// How often the board is read. Polled rather than watched with inotify: a process killed
    /// with SIGKILL withdraws its offer by losing its lock, which inotify does not report when
    /// nothing had the file open for writing, and the board is a handful of small files.
    static let interval = 0.1
    /// Seconds between sends when nothing changed.
    static let heartbeat = 10.0

    /// Serves the watch until the watcher closes the connection (noticed within ``interval``).
    func run(_ channel: any Channel, _ outbound: NIOAsyncChannelOutboundWriter<Frame>) async throws {
        let board = CurrentActivities(root: root)
        var sent: [[UInt8]]? = nil
        var lastSend = 0.0
        while channel.isActive {
            let offers = Array(board.live().prefix(SessionMessage.maximumOffers).map { $0.encoded() })
            let now = Clock.monotonic()
            if offers != sent || now - lastSend >= Self.heartbeat {
                try await outbound.write(SessionMessage.activities(offers).frame)
                sent = offers
                lastSend = now
            }
            try await Task.sleep(for: .seconds(Self.interval))
        }
    }
}
