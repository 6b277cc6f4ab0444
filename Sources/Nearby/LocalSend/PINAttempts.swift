import Synchronization

/// Wrong PINs counted per address, as LocalSend's own receiver does: after ``LocalSendSettings/pinAttempts``
/// wrong ones an address is refused (429) for ``LocalSendSettings/pinLockout`` seconds, the right
/// PIN included, so a four-digit PIN cannot be guessed at the speed of the network. A request
/// without a PIN is no guess (LocalSend's apps ask the person for one after the first 401) and is
/// not counted; the right PIN clears the count.
final class PINAttempts: Sendable {
    let limit: Int
    let lockout: Double
    /// Per address: wrong PINs so far, and until when it is refused.
    let state = Mutex<[String: (wrong: Int, lockedUntil: Double)]>([:])
    /// The most addresses remembered (bounded memory under a flood of addresses; the oldest
    /// locks are let go first).
    static let maximumAddresses = 4096

    init(limit: Int, lockout: Double) {
        self.limit = limit
        self.lockout = lockout
    }

    /// How one request's PIN is judged.
    enum Verdict: Equatable {
        case right
        /// Missing or wrong (counted when given).
        case wrong
        /// Wrong, and the last guess the address had: it is refused from now on, for `seconds`.
        case wrongAndLocked(seconds: Double)
        /// The address guessed too often: seconds until it may try again.
        case locked(retryAfter: Double)
    }

    /// Judges `given` against `expected` for a request from `address` at `now`.
    func judge(_ given: String?, expected: String, address: String, now: Double) -> Verdict {
        state.withLock { state in
            var entry = state[address] ?? (wrong: 0, lockedUntil: 0)
            if entry.lockedUntil > now { return .locked(retryAfter: entry.lockedUntil - now) }
            if entry.lockedUntil > 0 { entry = (wrong: 0, lockedUntil: 0) }
            guard let given, !given.isEmpty else { return .wrong }
            if given == expected {
                state[address] = nil
                return .right
            }
            entry.wrong += 1
            if entry.wrong >= limit { entry.lockedUntil = now + lockout }
            state[address] = entry
            let verdict: Verdict = entry.wrong >= limit ? .wrongAndLocked(seconds: lockout) : .wrong
            if state.count > Self.maximumAddresses {
                state = state.filter { $0.value.lockedUntil > now }
                if state.count > Self.maximumAddresses {
                    for key in state.sorted(by: { $0.value.lockedUntil < $1.value.lockedUntil }).prefix(state.count - Self.maximumAddresses).map(\.key) {
                        state[key] = nil
                    }
                }
            }
            return verdict
        }
    }
}
