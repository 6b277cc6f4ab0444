import SystemCalls

/// A query's question to the running watcher (``IndexWatcher``): "has anything the index of these
/// locations is built from changed?", answered with a token that changes whenever something did.
///
/// The protocol, over a Unix datagram socket in the abstract namespace named after the user and
/// the locations: the query sends its own socket's name; the watcher first reads every inotify
/// event already queued (the kernel queues an event within the system call that made the change,
/// so every change finished before the question is among them), advances its token when one
/// matters, and sends the token back. A query whose index records the same token skips the
/// freshness check's `stat` per file; any other answer, or none within ``timeout``, means the
/// check runs as it does without a watcher. Tokens start at a random number, so a restarted
/// watcher never repeats one an index recorded.
///
/// Replies are taken only from a process of the same user (the kernel's credentials, which the
/// sender cannot forge): an abstract name has no permissions, and another user's process bound
/// to it first could otherwise vouch for a stale index.
enum IndexWatch {
    /// How long a query waits for the answer before it checks the files itself (a watcher that
    /// is stopped or busy must not hold queries up).
    static let timeout = 0.05

    /// The socket name of the watcher for `locations` and this user: from the folders and
    /// desktops only (``DesktopLocations/sourcesKey``), since the locales do not change which
    /// files are watched.
    static func socketName(for locations: DesktopLocations) -> [UInt8] {
        Array("document-interchange/desktop-index/\(ProcessSignals.userID)/\(DesktopApps.locationsHash(locations, key: \.sourcesKey))".utf8)
    }

    /// What asking gave.
    enum Answer: Equatable {
        /// No watcher is bound to the name (the question was refused).
        case noWatcher
        /// A watcher is bound but vouches for nothing now: it answered "unknown" (token 0:
        /// ``IndexWatcher/isComplete``), or not within ``timeout`` (stopped, or busy).
        case unknown
        /// The watcher's token.
        case token(UInt64)

        /// The token, when there is one.
        var token: UInt64? {
            if case .token(let token) = self { return token }
            return nil
        }
    }

    /// Asks the watcher for `locations` and this user for its token. Locations with a relative
    /// folder are never asked about: a watcher started in another working folder would watch
    /// other folders under the same name.
    static func ask(for locations: DesktopLocations) -> Answer {
        guard locations.isAbsolute else { return .noWatcher }
        guard let socket = try? DatagramSocket(name: nil) else { return .unknown }
        // Refused at once (ECONNREFUSED) when no watcher is bound to the name.
        let sent = socket.name.withUnsafeBytes { bytes in (try? socket.send(bytes, to: socketName(for: locations))) != nil }
        guard sent else { return .noWatcher }
        let deadline = Clock.monotonic() + timeout
        var reply: UInt64 = 0
        while true {
            let remaining = deadline - Clock.monotonic()
            guard remaining > 0, let ready = try? Poll.readable([socket.descriptor], timeout: remaining), ready[0] else { return .unknown }
            let received = withUnsafeMutableBytes(of: &reply) { try? socket.receive(into: $0) }
            guard let received else { continue }
            if received.count == 8, received.senderUser == ProcessSignals.userID {
                let token = UInt64(littleEndian: reply)
                return token == 0 ? .unknown : .token(token)
            }
        }
    }
}
