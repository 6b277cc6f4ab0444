extension DNSMessage {
    /// The header's flag bits (RFC 1035 §4.1.1). The opcode and response code share the word;
    /// ``DNSMessage/opcode`` and ``DNSMessage/responseCode`` read them.
    public struct Flags: OptionSet, Sendable, Hashable {
        /// The 16-bit flags word.
        public let rawValue: UInt16

        /// Flags of the word `rawValue`.
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// QR: a response, not a query.
        public static let response = Flags(rawValue: 0x8000)
        /// AA: an authoritative answer; every Multicast DNS response sets it (RFC 6762 §18.4).
        public static let authoritative = Flags(rawValue: 0x0400)
        /// TC: in a Multicast DNS query, more known answers follow in the next packet (§18.5).
        public static let truncated = Flags(rawValue: 0x0200)
        /// RD: recursion desired (unused in Multicast DNS).
        public static let recursionDesired = Flags(rawValue: 0x0100)
        /// RA: recursion available (unused in Multicast DNS).
        public static let recursionAvailable = Flags(rawValue: 0x0080)
    }
}
