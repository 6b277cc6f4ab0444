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
}
