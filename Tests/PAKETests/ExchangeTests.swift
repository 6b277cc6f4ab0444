@testable import PAKE
import Testing

/// Two sides with random ephemeral scalars: the same w agrees, anything different fails at
/// confirmation, and an exchange is finished once.
@Suite struct ExchangeTests {
    /// What the pairing binds as AAD: two SHA-256 certificate fingerprints.
    static let fingerprints = [UInt8](repeating: 0xa1, count: 32) + [UInt8](repeating: 0xb2, count: 32)

    @Test func theSameCodeAgreesAndEachSideAcceptsTheOther() throws {
        let w = SPAKE2.passwordScalar(Array("493-027".utf8))
        var a = try SPAKE2(role: .a, w: w, identityA: Array("laptop".utf8), identityB: Array("phone".utf8), aad: Self.fingerprints)
        var b = try SPAKE2(role: .b, w: w, identityA: Array("laptop".utf8), identityB: Array("phone".utf8), aad: Self.fingerprints)
        #expect(a.message.count == 65 && a.message[0] == 0x04)
        #expect(b.message.count == 65 && b.message[0] == 0x04)
        let keysA = try a.finish(peerMessage: b.message)
        let keysB = try b.finish(peerMessage: a.message)
        #expect(keysA.sharedKey.count == 16)
        #expect(keysA.sharedKey == keysB.sharedKey)
        #expect(keysA.confirmation != keysB.confirmation, "cA and cB come from different keys")
        try keysA.verify(peerConfirmation: keysB.confirmation)
        try keysB.verify(peerConfirmation: keysA.confirmation)
        #expect(throws: PAKEError.confirmationMismatch) { try keysA.verify(peerConfirmation: keysA.confirmation) }
    }

    @Test func twoExchangesWithTheSameCodeDrawDifferentScalars() throws {
        let w = SPAKE2.passwordScalar(Array("493-027".utf8))
        let first = try SPAKE2(role: .a, w: w, identityA: [], identityB: [])
        let second = try SPAKE2(role: .a, w: w, identityA: [], identityB: [])
        #expect(first.message != second.message)
    }

    @Test func differentCodesFailConfirmationBothWays() throws {
        var a = try SPAKE2(role: .a, w: SPAKE2.passwordScalar(Array("493-027".utf8)), identityA: [], identityB: [])
        var b = try SPAKE2(role: .b, w: SPAKE2.passwordScalar(Array("493-028".utf8)), identityA: [], identityB: [])
        let keysA = try a.finish(peerMessage: b.message)
        let keysB = try b.finish(peerMessage: a.message)
        #expect(keysA.sharedKey != keysB.sharedKey)
        #expect(throws: PAKEError.confirmationMismatch) { try keysA.verify(peerConfirmation: keysB.confirmation) }
        #expect(throws: PAKEError.confirmationMismatch) { try keysB.verify(peerConfirmation: keysA.confirmation) }
    }

    /// The AAD only enters the confirmation keys (RFC 9382 §4): Ke still agrees, but neither
    /// side accepts the other, which is what makes certificate fingerprints in the AAD binding.
    @Test func differentAADFailsConfirmation() throws {
        let w = SPAKE2.passwordScalar(Array("493-027".utf8))
        var a = try SPAKE2(role: .a, w: w, identityA: [], identityB: [], aad: Self.fingerprints)
        var b = try SPAKE2(role: .b, w: w, identityA: [], identityB: [], aad: Self.fingerprints.reversed())
        let keysA = try a.finish(peerMessage: b.message)
        let keysB = try b.finish(peerMessage: a.message)
        #expect(keysA.sharedKey == keysB.sharedKey)
        #expect(throws: PAKEError.confirmationMismatch) { try keysA.verify(peerConfirmation: keysB.confirmation) }
        #expect(throws: PAKEError.confirmationMismatch) { try keysB.verify(peerConfirmation: keysA.confirmation) }
    }

    @Test func differentIdentitiesFailConfirmation() throws {
        let w = SPAKE2.passwordScalar(Array("493-027".utf8))
        var a = try SPAKE2(role: .a, w: w, identityA: Array("laptop".utf8), identityB: Array("phone".utf8))
        var b = try SPAKE2(role: .b, w: w, identityA: Array("laptop".utf8), identityB: Array("tablet".utf8))
        let keysA = try a.finish(peerMessage: b.message)
        let keysB = try b.finish(peerMessage: a.message)
        #expect(keysA.sharedKey != keysB.sharedKey)
        #expect(throws: PAKEError.confirmationMismatch) { try keysA.verify(peerConfirmation: keysB.confirmation) }
    }

    /// The RFC allows AAD up to 2^16 - 128 bits; the longest must go through libcrypto's HKDF.
    @Test func theLongestAADTheRFCAllowsWorks() throws {
        let w = SPAKE2.passwordScalar(Array("493-027".utf8))
        let aad = [UInt8](repeating: 0x5a, count: ((1 << 16) - 128) / 8)
        var a = try SPAKE2(role: .a, w: w, identityA: [], identityB: [], aad: aad)
        var b = try SPAKE2(role: .b, w: w, identityA: [], identityB: [], aad: aad)
        let keysA = try a.finish(peerMessage: b.message)
        let keysB = try b.finish(peerMessage: a.message)
        try keysA.verify(peerConfirmation: keysB.confirmation)
    }

    @Test func anExchangeFinishesOnce() throws {
        let w = SPAKE2.passwordScalar(Array("493-027".utf8))
        var a = try SPAKE2(role: .a, w: w, identityA: [], identityB: [])
        let b = try SPAKE2(role: .b, w: w, identityA: [], identityB: [])
        _ = try a.finish(peerMessage: b.message)
        #expect(throws: PAKEError.alreadyFinished) { try a.finish(peerMessage: b.message) }
    }

    @Test func aRejectedPeerMessageEndsTheExchangeToo() throws {
        let w = SPAKE2.passwordScalar(Array("493-027".utf8))
        var a = try SPAKE2(role: .a, w: w, identityA: [], identityB: [])
        let b = try SPAKE2(role: .b, w: w, identityA: [], identityB: [])
        #expect(throws: PAKEError.self) { try a.finish(peerMessage: [0]) }
        #expect(throws: PAKEError.alreadyFinished) { try a.finish(peerMessage: b.message) }
    }

    @Test func wMustBeAReducedScalar() {
        let order = bytes(hex: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
        for w in [[UInt8](repeating: 1, count: 31), [UInt8](repeating: 1, count: 33), order, [UInt8](repeating: 0xff, count: 32)] {
            #expect(throws: PAKEError.self) { try SPAKE2(role: .a, w: w, identityA: [], identityB: []) }
        }
        var belowOrder = order
        belowOrder[31] -= 1
        #expect(throws: Never.self) { try SPAKE2(role: .b, w: belowOrder, identityA: [], identityB: []) }
    }

    @Test func errorsSayWhatWentWrong() {
        #expect(PAKEError.invalidPeerMessage(reason: "the point at infinity").description == "invalid SPAKE2 peer message: the point at infinity")
        #expect(PAKEError.libcrypto(function: "EC_POINT_mul").description == "libcrypto's EC_POINT_mul failed")
    }
}
