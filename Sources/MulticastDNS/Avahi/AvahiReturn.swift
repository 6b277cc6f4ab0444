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

    /// Starts waiting on behalf of `owner` (a responder or browser), held weakly: while it is
    /// alive and `waiting` says so, a connection that runs goes to `resume`. Without a thread to
    /// spare, the built-in engine simply goes on.
    static func watch<Owner: AnyObject & Sendable>(for owner: Owner, waiting: @escaping @Sendable (Owner) -> Bool,
                                                   resume: @escaping @Sendable (Owner, AvahiConnection) -> Bool) {
        // The thread holds only these closures: the owner's last release still ends it (its
        // deinit stops it, and `waiting` then says no).
        let current: @Sendable () -> Owner? = { [weak owner] in owner }
        let wanted: @Sendable () -> Bool = { current().map(waiting) ?? false }
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
                // An owner gone meanwhile takes nothing: the connection is closed.
                guard let owner = current() else {
                    connection.close()
                    return
                }
                if resume(owner, connection) { return }
            }
        }
    }
}
