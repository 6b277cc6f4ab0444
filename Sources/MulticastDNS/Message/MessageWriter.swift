/// Writes a DNS message, compressing names (RFC 1035 §4.1.4): each name's longest suffix
/// already written becomes a pointer to it. Compression applies to owner names and to the names
/// inside PTR, SRV and NSEC data, as RFC 6762 §18.14 asks of Multicast DNS.
struct MessageWriter {
    private(set) var bytes: [UInt8] = []
    /// Where each name suffix (labels lowered) was first written; only offsets a 14-bit pointer
    /// reaches.
    private var written: [[[UInt8]]: Int] = [:]

    mutating func uint8(_ value: UInt8) { bytes.append(value) }

    mutating func uint16(_ value: UInt16) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(value & 0xFF))
    }

    mutating func uint32(_ value: UInt32) {
        uint16(UInt16(value >> 16))
        uint16(UInt16(value & 0xFFFF))
    }

    mutating func append(_ other: [UInt8]) { bytes.append(contentsOf: other) }

    /// Overwrites the 16-bit word at `offset` (a count or a data length written later).
    mutating func patch(_ value: UInt16, at offset: Int) {
        bytes[offset] = UInt8(value >> 8)
        bytes[offset + 1] = UInt8(value & 0xFF)
    }

    mutating func name(_ name: DNSName) {
        let canonical = name.canonicalLabels
        for index in canonical.indices {
            let suffix = Array(canonical[index...])
            if let target = written[suffix] {
                uint16(0xC000 | UInt16(target))
                return
            }
            if bytes.count < 0x4000 { written[suffix] = bytes.count }
            let label = name.labels[index]
            uint8(UInt8(label.count))
            append(label)
        }
        uint8(0)
    }

    /// Drops everything written from `offset` on (a record that turned out too large), with the
    /// compression targets inside it.
    mutating func truncate(to offset: Int) {
        bytes.removeSubrange(offset...)
        written = written.filter { $0.value < offset }
    }
}
