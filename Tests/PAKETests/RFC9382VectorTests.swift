@testable import PAKE
import Testing

/// Every vector of RFC 9382 Appendix B (SPAKE2-P256-SHA256-HKDF-HMAC), reproduced byte for byte
/// from w, x, y and the identities: both messages, K, the transcript, the key schedule and both
/// confirmations, computed by each side.
@Suite struct RFC9382VectorTests {
    @Test func theFixtureHoldsTheAppendix() {
        let vectors = RFC9382Vector.all
        #expect(vectors.map(\.description) == ["A='server', B='client'", "A='', B='client'", "A='server', B=''", "A='', B=''"])
        for vector in vectors {
            for name in RFC9382Vector.names {
                #expect(vector.values[name] != nil, "\(vector): no \(name)")
            }
            #expect(Set(vector.values.keys) == Set(RFC9382Vector.names), "\(vector): unexpected names")
        }
    }

    @Test(arguments: RFC9382Vector.all)
    func messagesAreTheRFCs(_ vector: RFC9382Vector) throws {
        let a = try SPAKE2(role: .a, w: vector["w"], ephemeralScalar: vector["x"], identityA: vector.identityA, identityB: vector.identityB)
        let b = try SPAKE2(role: .b, w: vector["w"], ephemeralScalar: vector["y"], identityA: vector.identityA, identityB: vector.identityB)
        #expect(hex(a.message) == hex(vector["pA"]))
        #expect(hex(b.message) == hex(vector["pB"]))
    }

    /// Each side finishes with the RFC's own message from the other (not the one we computed), so
    /// K and what follows are checked independently of the test above.
    @Test(arguments: RFC9382Vector.all)
    func keyScheduleIsTheRFCs(_ vector: RFC9382Vector) throws {
        var a = try SPAKE2(role: .a, w: vector["w"], ephemeralScalar: vector["x"], identityA: vector.identityA, identityB: vector.identityB)
        var b = try SPAKE2(role: .b, w: vector["w"], ephemeralScalar: vector["y"], identityA: vector.identityA, identityB: vector.identityB)
        let keysA = try a.finish(peerMessage: vector["pB"])
        let keysB = try b.finish(peerMessage: vector["pA"])
        for (side, keys) in [("A", keysA), ("B", keysB)] {
            #expect(hex(keys.transcript) == hex(vector["TT"]), "\(side): TT")
            // TT's fields, read back by their length prefixes: K is the fifth.
            let fields = Self.fields(of: keys.transcript)
            #expect(fields.map(hex) == [vector.identityA, vector.identityB, vector["pA"], vector["pB"], vector["K"], vector["w"]].map(hex),
                    "\(side): TT's fields (A, B, pA, pB, K, w)")
            #expect(hex(keys.sharedKey + keys.ka) == hex(vector["Hash(TT)"]), "\(side): Hash(TT)")
            #expect(hex(keys.sharedKey) == hex(vector["Ke"]), "\(side): Ke")
            #expect(hex(keys.ka) == hex(vector["Ka"]), "\(side): Ka")
            #expect(hex(keys.kcA) == hex(vector["KcA"]), "\(side): KcA")
            #expect(hex(keys.kcB) == hex(vector["KcB"]), "\(side): KcB")
        }
        #expect(hex(keysA.confirmation) == hex(vector["A conf"]))
        #expect(hex(keysB.confirmation) == hex(vector["B conf"]))
        try keysA.verify(peerConfirmation: vector["B conf"])
        try keysB.verify(peerConfirmation: vector["A conf"])
    }

    /// TT split at its eight-byte little-endian lengths; a length running past the end ends it.
    static func fields(of transcript: [UInt8]) -> [[UInt8]] {
        var fields: [[UInt8]] = []
        var offset = 0
        while offset + 8 <= transcript.count {
            let length = transcript[offset ..< offset + 8].reversed().reduce(0) { $0 << 8 | Int($1) }
            offset += 8
            guard length <= transcript.count - offset else { break }
            fields.append(Array(transcript[offset ..< offset + length]))
            offset += length
        }
        return fields
    }
}
