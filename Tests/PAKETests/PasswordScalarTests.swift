import PAKE
import Testing

/// w from a code: HKDF-SHA256 to 40 bytes, reduced modulo the P-256 group order.
@Suite struct PasswordScalarTests {
    /// P-256's group order n (SEC 2, FIPS 186-4), big-endian: RFC 9382's p for this group.
    static let order = bytes(hex: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")

    @Test func isDeterministic() {
        #expect(SPAKE2.passwordScalar(Array("493-027".utf8)) == SPAKE2.passwordScalar(Array("493-027".utf8)))
    }

    @Test func isThirtyTwoBytesBelowTheOrder() {
        for password in ["", "0", "493-027", String(repeating: "long code ", count: 100)] {
            let w = SPAKE2.passwordScalar(Array(password.utf8))
            #expect(w.count == 32)
            #expect(w.lexicographicallyPrecedes(Self.order), "\(password): w is not below p")
        }
    }

    @Test func differsForDifferentPasswords() {
        let scalars = ["493-027", "493-028", "493027", ""].map { SPAKE2.passwordScalar(Array($0.utf8)) }
        #expect(Set(scalars.map(hex)).count == scalars.count)
    }

    /// Known answers computed apart from this code (Python's hmac and hashlib: RFC 5869 HKDF with
    /// an empty salt and info "document-interchange nearby SPAKE2 w", 40 bytes, then mod n), so
    /// that the derivation cannot change unnoticed: paired devices must derive the same w.
    @Test func matchesAnIndependentComputation() {
        #expect(hex(SPAKE2.passwordScalar(Array("123456".utf8))) == "65e3f0822a0bb5fa2bc7563742b5f9e08f68924847154312848fad656f26b60a")
        #expect(hex(SPAKE2.passwordScalar([])) == "815e1135c981fc940e084e870e95a74b24318d9831480d2e0ed9a5b1e907b18d")
    }

    /// A w made this way starts an exchange (it is reduced, so the initializer accepts it).
    @Test func startsAnExchange() throws {
        let w = SPAKE2.passwordScalar(Array("493-027".utf8))
        #expect(throws: Never.self) { try SPAKE2(role: .a, w: w, identityA: [], identityB: []) }
    }
}
