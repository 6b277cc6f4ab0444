import DesktopEntries
import Foundation
import Synchronization
import SystemCalls

/// Asks the desktop user about an unpaired sender's items: a notification with Accept and Decline
/// (org.freedesktop.Notifications on the session bus, ``DesktopEntries/NotificationServer``),
/// kept on screen until answered or the receiver's ask timeout. No notification server, or one
/// without actions, declines: nothing is accepted that nobody accepted.
public enum DesktopPrompt {
    /// Whether a session bus is there to ask on (`DBUS_SESSION_BUS_ADDRESS`).
    public static var isAvailable: Bool { SessionBus.address() != nil }

    /// A prompt for ``NearbyReceiver`` that waits at most `timeout` seconds, on the session bus at
    /// `busAddress` (the user's by default).
    public static func prompt(timeout: Double, busAddress: String? = SessionBus.address()) -> @Sendable (IncomingAsk) async -> Bool {
        { ask in
            let question = notification(for: ask)
            // Withdrawn (the notification closed) when the asking task is cancelled: the sender
            // went away, the ask timed out, the receiver stops.
            let withdrawn = Atomic<Bool>(false)
            // The call blocks while the question is on screen: on a thread of its own, not on
            // the cooperative pool the sessions run on.
            return await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    Thread {
                        let answer = NotificationServer.ask(question, on: try? SessionBus(address: busAddress), timeout: timeout,
                                                            withdrawn: { withdrawn.load(ordering: .relaxed) })
                        continuation.resume(returning: answer == .action(acceptKey))
                    }.start()
                }
            } onCancel: {
                withdrawn.store(true, ordering: .relaxed)
            }
        }
    }

    /// The action key that accepts.
    static let acceptKey = "accept"

    /// The question: who, how many items, what and where each would go.
    static func notification(for ask: IncomingAsk) -> DesktopNotification {
        let who = ask.pairedName ?? ask.senderName
        let count = ask.items.count == 1 ? "a file" : "\(ask.items.count) files"
        let lines = ask.items.prefix(5).map { "\($0.name) (\(SizeText.of($0.size))) → \($0.destination)" }
            + (ask.items.count > 5 ? ["and \(ask.items.count - 5) more"] : [])
        return DesktopNotification(appName: "Nearby", summary: "\(who) wants to send you \(count)",
                                   body: lines.joined(separator: "\n") + "\nNot a paired device: \(ask.fingerprint.hex.prefix(16))…",
                                   actions: [.init(key: acceptKey, label: "Accept"), .init(key: "decline", label: "Decline")],
                                   expiry: 0, urgency: .critical, iconName: "document-send")
    }
}
