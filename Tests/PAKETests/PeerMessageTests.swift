@testable import PAKE
import Testing

/// A peer message that is not a P-256 group element is refused before it is used (RFC 9382 §7:
/// an endpoint MUST abort if a received value is not a member of the group).
@Suite struct PeerMessageTests {
    /// A's side of the RFC's first vector, whose peer message is pB.
    static func sideA() throws -> SPAKE2 {
        let vector = try #require(RFC9382Vector.all.first)
        return try SPAKE2(role: .a, w: vector["w"], ephemeralScalar: vector["x"], identityA: vector.identityA, identityB: vector.identityB)
    }

    static func reason(finishing message: [UInt8]) throws -> String? {
        var side = try sideA()
        do {
            _ = try side.finish(peerMessage: message)
            return nil
        } catch {
            guard case .invalidPeerMessage(let reason) = error else { Issue.record("\(error)"); return nil }
            return reason
        }
    }

    @Test func theRFCsPeerMessageIsAccepted() throws {
        let vector = try #require(RFC9382Vector.all.first)
        #expect(try Self.reason(finishing: vector["pB"]) == nil)
    }

    @Test func aPointOffTheCurveIsRefused() throws {
        var offCurve = try #require(RFC9382Vector.all.first)["pB"]
        offCurve[64] ^= 1
        #expect(try Self.reason(finishing: offCurve) == "not a point on P-256")
        // (0, 0) is not on P-256 (b is not 0), and coordinates of all ones are not field elements.
        #expect(try Self.reason(finishing: [0x04] + [UInt8](repeating: 0, count: 64)) == "not a point on P-256")
        #expect(try Self.reason(finishing: [0x04] + [UInt8](repeating: 0xff, count: 64)) == "not a point on P-256")
    }

    @Test(arguments: [0, 1, 33, 64, 66, 130])
    func aMessageOfTheWrongLengthIsRefused(_ length: Int) throws {
        let message = [0x04] + [UInt8](repeating: 0x11, count: max(0, length - 1))
        let reason = try #require(try Self.reason(finishing: Array(message.prefix(length))))
        #expect(reason.contains("not the 65 of an uncompressed P-256 point"))
    }

    /// The compressed form of a valid point (the RFC's own M) is refused: the transcript
    /// carries the message as sent, so both sides must use the one encoding.
    @Test func aCompressedPointIsRefused() throws {
        #expect(try Self.reason(finishing: P256.Mask.m.compressed)?.contains("not the 65") == true)
    }

    @Test func thePointAtInfinityIsRefused() throws {
        #expect(try Self.reason(finishing: [0x00]) == "the point at infinity")
    }

    @Test func aWrongFirstByteIsRefused() throws {
        var message = try #require(RFC9382Vector.all.first)["pB"]
        message[0] = 0x06
        #expect(try Self.reason(finishing: message)?.hasPrefix("first byte 0x6") == true)
    }

    /// pB = w*N exactly (no ephemeral part) would make K the identity: refused, not hashed.
    @Test func aMessageThatCancelsTheMaskIsRefused() throws {
        let vector = try #require(RFC9382Vector.all.first)
        let maskOnly = try P256.share(scalar: [UInt8](repeating: 0, count: 32), w: vector["w"], mask: .n)
        #expect(try Self.reason(finishing: maskOnly)?.contains("K would be the identity") == true)
    }
}
