import SystemCalls

/// Whether an ask is taken, for every protocol the receiver speaks (its own sessions, LocalSend):
/// sizes and free space first, then a paired sender or `--auto-accept` is taken, then an
/// unpaired sender within ``AskLimits`` is put to the person (``ReceiverConfiguration/askTimeout``).
struct AskPolicy: Sendable {
    let configuration: ReceiverConfiguration
    let prompt: (@Sendable (IncomingAsk) async -> Bool)?
    let askLimits: AskLimits

    /// Why the ask is refused, or `nil` to accept it.
    /// - Parameters:
    ///   - sizes: the items' declared sizes; `names`: their names as sent (for the reason).
    ///   - trusted: the sender is paired: no question.
    ///   - keys: what counts the sender's asks (its certificate, its address).
    ///   - stillAsking: called every ``ReceiverConfiguration/askingInterval`` seconds while the
    ///     person decides; its failure (the sender went away) ends the question.
    func refusal(_ ask: IncomingAsk, sizes: [Int64], names: [String], trusted: Bool, keys: [String],
                 stillAsking: @escaping @Sendable () async throws -> Void = {}) async throws -> String? {
        if let large = sizes.indices.first(where: { sizes[$0] > configuration.maximumItemSize }) {
            return "\(ItemName.safe(names[large])) is larger than this device takes (\(configuration.maximumItemSize) bytes)"
        }
        let total = sizes.reduce(Int64(0)) { $0 &+ $1 }
        let folder = NearbyFolder(root: configuration.root)
        try folder.create()
        let free: Int64
        do { free = try FileSystem.availableBytes(folder.spool) } catch { throw NearbyError.system(error) }
        // Twice the items: the spool, then the copy an app's delivery makes.
        if free < 2 * total + configuration.spaceMargin {
            return "not enough free space (\(total) bytes asked, \(free) free)"
        }
        if trusted || configuration.autoAccept { return nil }
        let admission: AskLimits.Admission
        switch askLimits.admit(keys: keys, now: Clock.monotonic()) {
        case .success(let admitted): admission = admitted
        case .failure(let refusal): return refusal.reason
        }
        defer { withExtendedLifetime(admission) {} }
        guard let prompt else { return "the sender is not paired and nobody is here to accept" }
        let answer = await withTaskGroup(of: Bool?.self) { group in
            group.addTask { await prompt(ask) }
            group.addTask {
                try? await Task.sleep(for: .seconds(configuration.askTimeout))
                return nil
            }
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(configuration.askingInterval))
                    if Task.isCancelled { break }
                    do { try await stillAsking() } catch { return nil }
                }
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        switch answer {
        case true?: return nil
        case false?: return "declined"
        case nil: return "nobody answered within \(Int(configuration.askTimeout)) s"
        }
    }
}
