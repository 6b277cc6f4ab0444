/// A resource record: owner name, class, time to live and data, with Multicast DNS's cache-flush
/// bit (RFC 6762 §10.2: this record replaces every other of its name and type the receiver holds).
public struct DNSRecord: Sendable, Hashable, CustomStringConvertible {
    /// The owner name.
    public var name: DNSName
    /// The class, normally ``DNSClass/internet``.
    public var recordClass: DNSClass
    /// The cache-flush bit (the class field's top bit).
    public var cacheFlush: Bool
    /// Seconds the record may be kept; 0 in a goodbye (RFC 6762 §10.1).
    public var ttl: UInt32
    /// The data, which also gives the type.
    public var data: DNSRecordData

    /// A record of `name` holding `data`.
    public init(name: DNSName, data: DNSRecordData, ttl: UInt32, cacheFlush: Bool = false, recordClass: DNSClass = .internet) {
        self.name = name
        self.recordClass = recordClass
        self.cacheFlush = cacheFlush
        self.ttl = ttl
        self.data = data
    }

    /// The type, from the data.
    public var type: DNSRecordType { data.type }

    /// Whether `other` is the same record apart from its TTL and cache-flush bit: the same name,
    /// type, class and data (known-answer suppression and goodbyes compare this way).
    public func isSameRecord(as other: DNSRecord) -> Bool {
        name == other.name && recordClass == other.recordClass && data == other.data
    }

    /// `name ttl class type data`, with `(flush)` for the cache-flush bit.
    public var description: String {
        "\(name) \(ttl) \(recordClass)\(cacheFlush ? " (flush)" : "") \(type) \(data)"
    }
}
