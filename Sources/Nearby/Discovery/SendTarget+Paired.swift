import NearbyDevices
import Synchronization

extension SendTarget {
    /// Where to reach a paired device: the address it was last reached at, when its own
    /// certificate answers there now; else where its tag is announced (DNS-SD, when `discover`).
    /// Both are tried at once, and the first to answer is taken; an address found by discovery
    /// is noted for next time.
    ///
    /// The remembered address is tried first-hand because a device's announcement can be missing
    /// when it is there: paired while its receiver ran (until the receiver re-announced), or asked
    /// again within a second of its last multicast answer (RFC 6762's rate limit), which made
    /// every second send by name wait 1.1 s. The probe is a TLS handshake that must show the
    /// paired certificate, so another device that took the address is never taken for it.
    /// - Parameter discover: browse too (`false`: the remembered address only, not probed).
    public static func reaching(_ device: PairedDevice, in folder: NearbyFolder, discover: Bool,
                                interfaces: [String]? = nil) async throws -> SendTarget {
        let remembered = device.lastAddress.flatMap { try? parseAddress($0) }
            .map { SendTarget(host: $0.host, port: $0.port, expected: device.fingerprint, name: device.name) }
        guard discover else {
            guard let remembered else {
                throw NearbyError.connection("no address is known for \(device.name), and discovery is off: give --to HOST:PORT")
            }
            return remembered
        }
        let identity = try DeviceIdentity.loadOrCreate(in: folder)
        enum Answer: Sendable { case remembered(SendTarget), rememberedFailed(String), found(DeviceFinder.Found?) }
        // Discovery starts when the probe has failed, or has not answered within
        // ``discoveryHeadStart``: a device that answers where it was (in milliseconds on a LAN) is
        // reached without the browser's set-up (sockets, group joins, a query), which made a send
        // by name 10-17 ms slower than by address (NearbyBenchmarks --person, 2026-12-06).
        let gate = Gate()
        let (answer, probeFailure): (SendTarget?, String?) = try await withThrowingTaskGroup(of: Answer.self) { group in
            if let remembered {
                group.addTask {
                    do {
                        try await Connection.probe(remembered, identity: identity, timeout: probeTimeout)
                        return .remembered(remembered)
                    } catch {
                        gate.open()
                        return .rememberedFailed(Connection.describe(error))
                    }
                }
                group.addTask {
                    try? await Task.sleep(for: .seconds(discoveryHeadStart))
                    gate.open()
                    return .found(nil)
                }
            } else {
                gate.open()
            }
            group.addTask {
                await gate.wait()
                try Task.checkCancellation()
                return .found(try await DeviceFinder.find(device, interfaces: interfaces))
            }
            var probeFailure: String?
            for try await answer in group {
                switch answer {
                case .remembered(let target):
                    group.cancelAll()
                    return (target, nil)
                case .rememberedFailed(let why): probeFailure = why
                case .found(let found?):
                    group.cancelAll()
                    return (SendTarget(host: found.host, port: found.port, expected: device.fingerprint, name: device.name), probeFailure)
                case .found(nil): continue
                }
            }
            return (nil, probeFailure)
        }
        if let answer {
            if answer != remembered, var paired = try? PairedDevices.load(from: folder) {
                paired.noteAddress(SendTarget(host: answer.host, port: answer.port, expected: nil).address, for: device.fingerprint)
                try? paired.save(to: folder)
            }
            return answer
        }
        let announced = device.discoveryKey == nil ? "it cannot be recognised on the network (paired without a discovery key)" : "it is not announced on the network"
        guard let remembered else { throw NearbyError.connection("\(device.name) is not in reach: \(announced), and no address is known for it") }
        throw NearbyError.connection("\(device.name) is not in reach: \(announced), and it does not answer at its last address \(remembered.address)"
            + (probeFailure.map { " (\($0))" } ?? "") + ". Is its receiver running (nearby receive)?")
    }

    /// Seconds the remembered address gets to answer the probe (a device on the LAN answers in
    /// milliseconds; discovery runs meanwhile and takes at most 3 s).
    static let probeTimeout: Double = 1.5
    /// Seconds the probe has alone before discovery starts beside it.
    static let discoveryHeadStart: Double = 0.15
}

/// Opened once, by whichever comes first; waiters (at most the one discovery task) go on then,
/// or at once when already open or cancelled.
private final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    func open() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.open = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.open { return true }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            open()
        }
    }
}
