import SystemCalls

/// Waits, on a thread of its own, for avahi-daemon to come back after it went away under a
/// responder or browser that went on with the built-in engine: every ``interval`` seconds it
/// tries to connect, and hands a running connection to `resume`, which goes back to the daemon
/// (true) or says to keep trying (false: the daemon refused what it asked). It ends when `wanted`
/// says the owner no longer waits (it stopped, or went back).
///
/// Polled rather than told: libavahi-client learns of a daemon's start only through a client
/// made with `AVAHI_CLIENT_NO_FAIL`, whose states (connecting, running, failed again) every
/// entry group and browser of ours would then have to follow; a try every two seconds costs one
/// D-Bus connection, refused at once while no daemon owns its name.
enum AvahiReturn {
    /// Seconds between tries.
    static let interval = 2.0

    /// Starts waiting. Without a thread to spare, the built-in engine simply goes on.
    static func watch(wanted: @escaping @Sendable () -> Bool, resume: @escaping @Sendable (AvahiConnection) -> Bool) {
        try? BackgroundThread.start {
            while true {
                // Short slices: an owner that stops is let go within a tenth of a second.
                let next = Clock.monotonic() + interval
                while Clock.monotonic() < next {
                    guard wanted() else { return }
                    Clock.sleep(0.1)
                }
                guard wanted() else { return }
                guard let connection = try? AvahiConnection.connect(timeout: DiscoveryBackend.avahiStartTimeout) else { continue }
                if resume(connection) { return }
            }
        }
    }
}
