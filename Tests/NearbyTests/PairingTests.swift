import Foundation
@testable import Nearby
import Synchronization
import TestHelpers
import Testing

/// Pairing with a one-time code, two device roots over loopback TLS: the right code pins both
/// ways; a wrong one pins nothing and spends the code.
@Suite(.serialized) struct PairingTests {
    /// Shows `code` on `b` on a free port and runs `body` with the port; returns what showing gave.
    static func showing(_ b: TransferTests.Device, code: PairingCode,
                        _ body: @escaping @Sendable (Int) async throws -> Void) async throws -> Result<PairedDevice, any Error> {
        let port = Mutex<Int?>(nil)
        // Both sides on a thread of their own (ThreadExecutor says why).
        let shown = Task(executorPreference: ThreadExecutor.shared) {
            // A long timeout: under a full test run, sync tests of other suites can hold the
            // cooperative pool (where this test's own steps run) for minutes.
            try await Pairing.showCode(Pairing.Side(root: b.root, name: "bee", receivePort: 53_400), code: code, host: "127.0.0.1", port: 0,
                                       timeout: 900) { p in port.withLock { $0 = p } }
        }
        #expect(await eventually(900) { port.withLock { $0 } != nil })
        let listening = try #require(port.withLock { $0 })
        try await withTaskExecutorPreference(ThreadExecutor.shared) { try await body(listening) }
        return await shown.result
    }

    @Test func theRightCodePinsBothDevicesCertificates() async throws {
        let a = try TransferTests.Device(), b = try TransferTests.Device()
        let code = PairingCode.random()
        let shown = try await Self.showing(b, code: code) { port in
            let device = try await Pairing.pair(Pairing.Side(root: a.root, name: "ay", receivePort: 53_401), code: code, host: "127.0.0.1", port: port)
            #expect(device.name == "bee" && device.fingerprint == b.identity.fingerprint)
            #expect(device.lastAddress == "127.0.0.1:53400")
        }
        let pinnedOnB = try shown.get()
        #expect(pinnedOnB.name == "ay" && pinnedOnB.fingerprint == a.identity.fingerprint)
        #expect(pinnedOnB.lastAddress == "127.0.0.1:53401")
        #expect(try PairedDevices.load(from: a.folder).device(with: b.identity.fingerprint)?.name == "bee")
        #expect(try PairedDevices.load(from: b.folder).device(with: a.identity.fingerprint)?.name == "ay")
        let mode = try FileManager.default.attributesOfItem(atPath: a.folder.paired)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func aWrongCodePinsNothingAndSpendsTheCode() async throws {
        let a = try TransferTests.Device(), b = try TransferTests.Device()
        let code = PairingCode(typed: "1234-5678")!
        let shown = try await Self.showing(b, code: code) { port in
            await #expect {
                try await Pairing.pair(Pairing.Side(root: a.root, name: "ay", receivePort: 1), code: PairingCode(typed: "1234 5679")!,
                                       host: "127.0.0.1", port: port)
            } throws: { "\($0)".contains("wrong code") }
            // The code is spent: the right code now finds nobody listening.
            await #expect(throws: NearbyError.self) {
                try await Pairing.pair(Pairing.Side(root: a.root, name: "ay", receivePort: 1), code: code, host: "127.0.0.1", port: port)
            }
        }
        #expect(throws: NearbyError.self) { try shown.get() }
        #expect(try PairedDevices.load(from: a.folder).devices.isEmpty)
        #expect(try PairedDevices.load(from: b.folder).devices.isEmpty)
    }

    @Test func codesAreEightDigitsAsTyped() {
        #expect(PairingCode(typed: "1234-5678")?.description == "1234-5678")
        #expect(PairingCode(typed: "12345678") == PairingCode(typed: "1234 5678"))
        #expect(PairingCode(typed: "1234-567") == nil)
        #expect(PairingCode(typed: "1234-567x") == nil)
        #expect(PairingCode(typed: "１２３４５６７８") == nil)
        let codes = Set((0..<200).map { _ in PairingCode.random().digits })
        #expect(codes.count > 190 && codes.allSatisfy { $0.count == 8 })
    }

    /// B waits to compare on a free loopback port; `body` gets the port. Returns what waiting gave.
    static func waitingToCompare(_ b: TransferTests.Device, confirm: @escaping @Sendable (Pairing.Comparison) async -> Bool,
                                 _ body: @escaping @Sendable (Int) async throws -> Void) async throws -> Result<PairedDevice, any Error> {
        let port = Mutex<Int?>(nil)
        let waited = Task(executorPreference: ThreadExecutor.shared) {
            try await Pairing.waitToCompare(Pairing.Side(root: b.root, name: "bee", receivePort: 53_400), host: "127.0.0.1", port: 0, timeout: 900,
                                            listening: { p in port.withLock { $0 = p } }, confirm: confirm)
        }
        #expect(await eventually(900) { port.withLock { $0 } != nil })
        let listening = try #require(port.withLock { $0 })
        try await withTaskExecutorPreference(ThreadExecutor.shared) { try await body(listening) }
        return await waited.result
    }

    /// Numeric comparison: both people see the same six digits; when both say so, each device
    /// pins the other, and both keep the same discovery key (so each recognises the other's tag).
    @Test func matchingDigitsConfirmedOnBothSidesPinBoth() async throws {
        let a = try TransferTests.Device(), b = try TransferTests.Device()
        let shown = Mutex<[String]>([])
        let waited = try await Self.waitingToCompare(b, confirm: { comparison in
            shown.withLock { $0.append(comparison.digits) }
            return comparison.peerName == "ay"
        }) { port in
            let device = try await Pairing.compare(Pairing.Side(root: a.root, name: "ay", receivePort: 53_401), host: "127.0.0.1", port: port) { comparison in
                shown.withLock { $0.append(comparison.digits) }
                return comparison.peerFingerprint == b.identity.fingerprint
            }
            #expect(device.name == "bee" && device.fingerprint == b.identity.fingerprint)
        }
        let onB = try waited.get()
        #expect(onB.name == "ay" && onB.fingerprint == a.identity.fingerprint && onB.lastAddress == "127.0.0.1:53401")
        let digits = shown.withLock { $0 }
        #expect(digits.count == 2 && digits[0] == digits[1], "\(digits)")
        #expect(digits[0].count == 7 && digits[0].filter(\.isNumber).count == 6)
        let keyOnA = try #require(try PairedDevices.load(from: a.folder).device(with: b.identity.fingerprint)?.discoveryKey)
        #expect(keyOnA == onB.discoveryKey)
        // B's tag, as A computes it from its own copy of the key, is what B announces.
        #expect(DiscoveryTag.matches(DiscoveryTag.tag(key: onB.discoveryKey!, publisher: b.identity.fingerprint, epoch: DiscoveryTag.epoch(at: 1e9)),
                                     key: keyOnA, publisher: b.identity.fingerprint, now: 1e9))
    }

    /// Either person saying the digits differ pins nothing, on either side.
    @Test(arguments: [true, false]) func digitsDeclinedOnEitherSidePinNothing(declinedOnA: Bool) async throws {
        let a = try TransferTests.Device(), b = try TransferTests.Device()
        let waited = try await Self.waitingToCompare(b, confirm: { _ in declinedOnA }) { port in
            await #expect(throws: NearbyError.self) {
                try await Pairing.compare(Pairing.Side(root: a.root, name: "ay", receivePort: 1), host: "127.0.0.1", port: port) { _ in !declinedOnA }
            }
        }
        #expect(throws: NearbyError.self) { try waited.get() }
        #expect(try PairedDevices.load(from: a.folder).devices.isEmpty)
        #expect(try PairedDevices.load(from: b.folder).devices.isEmpty)
    }

    /// A device in the middle (M: its own certificate towards each side, a comparison with each)
    /// cannot make the two people's digits agree: A is shown digits bound to M's certificate and
    /// B digits bound to another run with M, so people who compare decline and nothing is pinned.
    @Test func aDeviceInTheMiddleShowsDifferentDigitsOnTheTwoSides() async throws {
        let a = try TransferTests.Device(), m = try TransferTests.Device(), b = try TransferTests.Device()
        let screens = Mutex<[String: String]>([:])
        // Each person waits until both screens show digits, then compares them.
        let compare: @Sendable (String, String) async -> Bool = { side, digits in
            screens.withLock { $0[side] = digits }
            _ = await eventually(60) { screens.withLock { $0.count } == 2 }
            return screens.withLock { $0["A"] == $0["B"] }
        }
        let waited = try await Self.waitingToCompare(b, confirm: { await compare("B", $0.digits) }) { bPort in
            // M waits for A as if it were B, and meanwhile pairs with the real B as if it were A.
            let mPort = Mutex<Int?>(nil)
            let mFacingA = Task(executorPreference: ThreadExecutor.shared) {
                try await Pairing.waitToCompare(Pairing.Side(root: m.root, name: "bee", receivePort: 53_400), host: "127.0.0.1", port: 0, timeout: 900,
                                                listening: { p in mPort.withLock { $0 = p } }, confirm: { _ in true })
            }
            let mFacingB = Task(executorPreference: ThreadExecutor.shared) {
                try await Pairing.compare(Pairing.Side(root: m.root, name: "ay", receivePort: 53_401), host: "127.0.0.1", port: bPort) { _ in true }
            }
            #expect(await eventually(900) { mPort.withLock { $0 } != nil })
            await #expect(throws: NearbyError.self) {
                try await Pairing.compare(Pairing.Side(root: a.root, name: "ay", receivePort: 53_401), host: "127.0.0.1",
                                          port: mPort.withLock { $0 }!) { await compare("A", $0.digits) }
            }
            _ = await mFacingA.result
            _ = await mFacingB.result
        }
        #expect(throws: NearbyError.self) { try waited.get() }
        let shown = screens.withLock { $0 }
        #expect(shown.count == 2 && shown["A"] != shown["B"], "\(shown)")
        #expect(try PairedDevices.load(from: a.folder).devices.isEmpty)
        #expect(try PairedDevices.load(from: b.folder).devices.isEmpty)
    }

    /// A device waiting to compare refuses a code, with a reason the other side is shown.
    @Test func aCodeSentToADeviceWaitingToCompareIsRefused() async throws {
        let a = try TransferTests.Device(), b = try TransferTests.Device()
        let waited = try await Self.waitingToCompare(b, confirm: { _ in true }) { port in
            await #expect {
                try await Pairing.pair(Pairing.Side(root: a.root, name: "ay", receivePort: 1), code: PairingCode.random(), host: "127.0.0.1", port: port)
            } throws: { "\($0)".contains("pairing") }
        }
        #expect(throws: NearbyError.self) { try waited.get() }
        #expect(try PairedDevices.load(from: b.folder).devices.isEmpty)
    }

    /// The digits depend on every input: both certificates and both nonces; the commitment
    /// binds the nonce to both certificates.
    @Test func theDigitsAndTheCommitmentDependOnEveryInput() {
        let f = (0..<4).map { n in Fingerprint(bytes: [UInt8](repeating: UInt8(n), count: 32))! }
        let n1 = [UInt8](repeating: 1, count: 32), n2 = [UInt8](repeating: 2, count: 32)
        let base = ComparisonDigits.digits(a: f[0], b: f[1], nonceA: n1, nonceB: n2)
        let variants = [ComparisonDigits.digits(a: f[2], b: f[1], nonceA: n1, nonceB: n2), ComparisonDigits.digits(a: f[0], b: f[3], nonceA: n1, nonceB: n2),
                        ComparisonDigits.digits(a: f[0], b: f[1], nonceA: n2, nonceB: n2), ComparisonDigits.digits(a: f[0], b: f[1], nonceA: n1, nonceB: n1),
                        ComparisonDigits.digits(a: f[1], b: f[0], nonceA: n1, nonceB: n2)]
        #expect(variants.allSatisfy { $0 != base }, "\(base) \(variants)")
        #expect(ComparisonDigits.commitment(nonce: n1, a: f[0], b: f[1]) != ComparisonDigits.commitment(nonce: n1, a: f[0], b: f[2]))
        #expect(ComparisonDigits.commitment(nonce: n1, a: f[0], b: f[1]) != ComparisonDigits.commitment(nonce: n2, a: f[0], b: f[1]))
        // Spread: 2,000 random nonces give (nearly) 2,000 different digit strings of 6 digits.
        let many = Set((0..<2000).map { _ in ComparisonDigits.digits(a: f[0], b: f[1], nonceA: ComparisonDigits.nonce(), nonceB: n2) })
        #expect(many.count > 1990)
    }
}
