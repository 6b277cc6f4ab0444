import SystemCalls

/// Whether an ask is taken, for every protocol the receiver speaks (its own sessions, LocalSend):
/// sizes and free space first, then a paired sender or `--auto-accept` is taken, then an
/// unpaired sender within ``AskLimits`` is put to the person (``ReceiverConfiguration/askTimeout``).
struct AskPolicy: Sendable {
    let configuration: ReceiverConfiguration
    let prompt: (@Sendable (IncomingAsk) async -> Bool)?
    let askLimits: AskLimits

    /// Why the ask is refused, or `nil` to accept it. An unpaired sender's asks are counted
    /// (``AskLimits``) even when they are accepted without a question (`--auto-accept`): a
    /// stranger may not fill the disk at the rate it can ask.
    /// - Parameters:
    ///   - sizes: the items' declared sizes; `names`: their names as sent (for the reason);
    ///     `destinations`: where each goes (their file systems must have room, ``FreeSpace``).
    ///   - trusted: the sender is paired: no question.
    ///   - keys: what counts the sender's asks (its certificate, its address).
    ///   - stillAsking: called every ``ReceiverConfiguration/askingInterval`` seconds while the
    ///     person decides; its failure (the sender went away) ends the question.
    ///   - senderGone: returns when the sender's connection closes, which ends the question at once.
    func refusal(_ ask: IncomingAsk, sizes: [Int64], names: [String], destinations: [Destination], trusted: Bool, keys: [String],
                 stillAsking: @escaping @Sendable () async throws -> Void = {},
                 senderGone: (@Sendable () async -> Void)? = nil) async throws -> AskRefusal? {
        if let large = sizes.indices.first(where: { sizes[$0] > configuration.maximumItemSize }) {
            return .tooLarge(name: ItemName.safe(names[large]), limit: configuration.maximumItemSize)
        }
        if let short = try FreeSpace.shortfall(sizes: sizes, destinations: destinations, configuration: configuration) { return short }
        if trusted { return nil }
        let admission: AskLimits.Admission
        switch askLimits.admit(keys: keys, now: Clock.monotonic()) {
        case .success(let admitted): admission = admitted
        case .failure(let refusal): return .limited(refusal)
        }
        defer { withExtendedLifetime(admission) {} }
        if configuration.autoAccept { return nil }
        guard let prompt else { return .nobodyToAsk }
        switch await question(ask, prompt: prompt, stillAsking: stillAsking, senderGone: senderGone) {
        case .answered(true): return nil
        case .answered(false): return .declined
        case .timedOut: return .unanswered(seconds: Int(configuration.askTimeout))
        case .senderGone: return .senderGone
        case .stopped: return .receiverStopped
        }
    }

    /// How a question to the person ended.
    enum Outcome: Sendable {
        case answered(Bool)
        case timedOut
        case senderGone
        case stopped
    }

    /// Puts `ask` to the person until the first of: their answer, the ask timeout, the sender
    /// going away, the receiver stopping (this task cancelled). The others are then cancelled,
    /// which withdraws the question (the prompts take cancellation as that).
    func question(_ ask: IncomingAsk, prompt: @escaping @Sendable (IncomingAsk) async -> Bool,
                  stillAsking: @escaping @Sendable () async throws -> Void,
                  senderGone: (@Sendable () async -> Void)?) async -> Outcome {
        let timeout = configuration.askTimeout, interval = configuration.askingInterval
        let outcome: Outcome? = await withTaskGroup(of: Outcome?.self) { group in
            group.addTask {
                let answer = await prompt(ask)
                return Task.isCancelled ? nil : .answered(answer)
            }
            group.addTask {
                guard (try? await Task.sleep(for: .seconds(timeout))) != nil else { return nil }
                return .timedOut
            }
            group.addTask {
                while (try? await Task.sleep(for: .seconds(interval))) != nil {
                    do { try await stillAsking() } catch { return Task.isCancelled ? nil : .senderGone }
                }
                return nil
            }
            if let senderGone {
                group.addTask {
                    await senderGone()
                    return Task.isCancelled ? nil : .senderGone
                }
            }
            var first: Outcome?
            for await result in group {
                if let result {
                    first = result
                    break
                }
                // A child that ended without an outcome: the receiver is stopping, unless others remain.
                if Task.isCancelled { break }
            }
            group.cancelAll()
            return first
        }
        if Task.isCancelled { return .stopped }
        return outcome ?? .stopped
    }
}
