/// A question: a name, a type and a class, and in Multicast DNS whether the asker prefers a
/// unicast answer (the QU bit, RFC 6762 §5.4).
public struct DNSQuestion: Sendable, Hashable, CustomStringConvertible {
    /// The name asked about.
    public var name: DNSName
    /// The type asked for (``DNSRecordType/any`` for all).
    public var type: DNSRecordType
    /// The class, normally ``DNSClass/internet``.
    public var recordClass: DNSClass
    /// The QU bit: answer by unicast to the asker's address and port.
    public var unicastResponse: Bool

    /// A question for `type` records of `name`.
    public init(name: DNSName, type: DNSRecordType, recordClass: DNSClass = .internet, unicastResponse: Bool = false) {
        self.name = name
        self.type = type
        self.recordClass = recordClass
        self.unicastResponse = unicastResponse
    }

    /// Whether a record of `name`, `type` and `recordClass` answers it.
    public func isAnswered(by record: DNSRecord) -> Bool {
        record.name == name && (type == .any || type == record.type)
            && (recordClass == .any || recordClass == record.recordClass)
    }

    /// `name type class` with ` QU` when the bit is set.
    public var description: String {
        "\(name) \(type) \(recordClass)\(unicastResponse ? " QU" : "")"
    }
}
