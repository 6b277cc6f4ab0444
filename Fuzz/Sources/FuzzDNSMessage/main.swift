import FuzzDriver
import MulticastDNS

/// libFuzzer entry point for `DNSMessage(parsing:)`, with the oracle of ``checkDNSMessage(_:)``.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDNSMessage(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    checkDNSMessage(Array(UnsafeBufferPointer(start: start, count: count)))
    return 0
}

/// SwiftPM names an executable's entry point after its target.
@_cdecl("FuzzDNSMessage_main")
public func fuzzDNSMessageMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzDNSMessage)
}

/// Parses `bytes` as one UDP payload on port 5353. An error is expected; what traps is a broken
/// promise. A message that parses, encoded, parses again to an equal message (names compare
/// without ASCII case, which compression may change; bytes after the last record, which the
/// reader ignores, are not written), and its encoding is a fixed point: encoding the message read
/// back gives the same bytes. Byte equality with the input cannot hold (another encoder
/// compresses differently, or not at all). Everything a browser reads from a parsed message (TXT
/// pairs, NSEC types, the text forms) is computed too, so that it runs under the sanitizers.
public func checkDNSMessage(_ bytes: [UInt8]) {
    let message: DNSMessage
    do {
        message = try DNSMessage(parsing: bytes)
    } catch {
        precondition(!error.description.isEmpty)
        return
    }
    let encoded = message.encoded()
    let again: DNSMessage
    do {
        again = try DNSMessage(parsing: encoded)
    } catch {
        preconditionFailure("our own encoding did not parse: \(error)")
    }
    precondition(again == message, "the round trip changed the message")
    precondition(again.encoded() == encoded, "encoding the message read back gave other bytes")
    precondition(encoded.count >= 12)
    for question in message.questions {
        _ = question.description
        for record in message.answers { _ = question.isAnswered(by: record) }
    }
    for record in message.answers + message.authorities + message.additionals {
        _ = record.description
        _ = record.name.firstLabel
        _ = record.name.parent
        _ = record.data.nsecTypes
        if case .txt(let text) = record.data {
            _ = text.dictionary
            _ = text["v"]
        }
        // The text form of a name reads back as the same name (DNSName.init(_:) promises it for
        // the escapes description writes), unless a label is not UTF-8 and shows as U+FFFD.
        let name = record.name
        if name.labels.allSatisfy({ String(validating: $0, as: UTF8.self) != nil }) {
            guard let parsed = try? DNSName(name.description) else { preconditionFailure("the text form of \(name) did not read") }
            precondition(parsed == name, "the text form of \(name) read back as \(parsed)")
        }
    }
}
