import Synchronization

/// How often one unpaired sender may ask in everyone-mode: at most one ask waiting for the person
/// at a time, and at most ``ReceiverConfiguration/asksPerPeer`` asks per
/// ``ReceiverConfiguration/askWindow`` seconds. A sender is counted both by its certificate and by
/// its network address: a new certificate costs a stranger nothing, so the address is what stops
/// one machine from covering the screen with questions, or filling the disk when asks are
/// accepted without a question. Paired devices are not counted.
final class AskLimits: Sendable {
    let limit: Int
    let window: Double
    /// Per sender key: when its recent asks came, and whether one is waiting for an answer.
    let state = Mutex<[String: (times: [Double], waiting: Bool)]>([:])

    init(limit: Int, window: Double) {
        self.limit = limit
        self.window = window
    }

    /// A sender's admitted ask: its keys stay "waiting" until this value goes.
    final class Admission: Sendable {
        let keys: [String]
        let limits: AskLimits
        init(keys: [String], limits: AskLimits) {
            self.keys = keys
            self.limits = limits
        }
        deinit { limits.state.withLock { state in for key in keys { state[key]?.waiting = false } } }
    }

    /// Admits an ask from the sender with these `keys` (its fingerprint, its address) at `now`, or
    /// says why not.
    func admit(keys: [String], now: Double) -> Result<Admission, Refusal> {
        state.withLock { state in
            for key in keys {
                guard let entry = state[key] else { continue }
                if entry.waiting { return .failure(.waiting) }
                let recent = entry.times.filter { now - $0 < window }
                if recent.count >= limit, let oldest = recent.min() { return .failure(.tooMany(retryAfter: oldest + window - now)) }
            }
            for key in keys {
                var entry = state[key] ?? (times: [], waiting: false)
                entry.times = entry.times.filter { now - $0 < window } + [now]
                entry.waiting = true
                state[key] = entry
            }
            // Forget senders that have been quiet for a window and wait for nothing (bounded memory).
            state = state.filter { $0.value.waiting || $0.value.times.contains { now - $0 < window } }
            return .success(Admission(keys: keys, limits: self))
        }
    }

    /// Why an ask is not admitted.
    enum Refusal: Error, Equatable {
        /// The same sender already waits for an answer.
        case waiting
        /// The sender asked `limit` times within the window; seconds until it may ask again.
        case tooMany(retryAfter: Double)

        var reason: String {
            switch self {
            case .waiting: "this device already has a question waiting"
            case .tooMany(let seconds): "too many asks from this device; ask again in \(Int(seconds.rounded(.up))) s"
            }
        }
    }
}
