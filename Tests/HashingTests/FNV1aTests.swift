import Hashing
import Testing

/// FNV-1a, the one hash the registry, the tables and the desktop index share, against the
/// published test vectors (Fowler, Noll and Vo's reference `test_fnv.c`, as listed in the IETF
/// draft draft-eastlake-fnv).
@Suite struct FNV1aTests {
    @Test func thirtyTwoBitsMatchesThePublishedVectors() {
        #expect(FNV1a32.hash("") == 0x811c_9dc5)
        #expect(FNV1a32.hash("a") == 0xe40c_292c)
        #expect(FNV1a32.hash("foobar") == 0xbf9c_f968)
    }

    @Test func sixtyFourBitsMatchesThePublishedVectors() {
        #expect(FNV1a64.hash("") == 0xcbf2_9ce4_8422_2325)
        #expect(FNV1a64.hash("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(FNV1a64.hash("foobar") == 0x8594_4171_f739_67e8)
        #expect(FNV1a64.hash(Array("foobar".utf8)) == FNV1a64.hash("foobar"))
    }
}
