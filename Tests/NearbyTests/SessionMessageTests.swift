@testable import Nearby
import PropertyLists
import Testing

/// The session's messages as bytes: each one read back as written, and malformed ones refused
/// with the key that is wrong.
@Suite struct SessionMessageTests {
    static let digest = [UInt8](repeating: 7, count: 32)

    @Test func everyMessageReadsBackAsWritten() throws {
        let messages: [SessionMessage] = [
            .ask(senderName: "Ann's laptop", senderApp: "com.example.sender", targetApp: "com.example.notes",
                 transfer: [UInt8](repeating: 1, count: 16),
                 items: [ItemOffer(name: "notes.txt", type: "public.plain-text", size: 12),
                         ItemOffer(name: "é.png", type: "public.png", size: 0)]),
            .ask(senderName: "b", senderApp: "c", targetApp: nil, transfer: [UInt8](repeating: 2, count: 16),
                 items: [ItemOffer(name: "x", type: "public.data", size: 1 << 40)]),
            .answer(accepted: true, reason: nil, token: [1, 2, 3], held: [0, 5]),
            .answer(accepted: false, reason: "declined", token: [], held: []),
            .upload(token: [9, 9], item: 1, offset: 77),
            .uploaded(item: 1, sha256: Self.digest),
            .delivered(item: 3, destination: "com.example.notes"),
            .refused("why"),
            .asking,
        ]
        for message in messages {
            let bytes = message.encoded()
            #expect(Array(bytes.prefix(8)) == Array("bplist00".utf8))
            #expect(try SessionMessage.decode(bytes) == message)
        }
    }

    @Test(arguments: [
        (PropertyList.dictionary(["Type": .string("Nope")]), "unknown message type 'Nope'"),
        (.dictionary(["Type": .integer(1)]), "Type is missing or not a string"),
        (.array([]), "not a dictionary"),
        (.dictionary(["Type": .string("Upload"), "Token": .data([]), "Item": .integer(-1), "Offset": .integer(0)]), "Upload of item -1"),
        (.dictionary(["Type": .string("Ask"), "SenderName": .string("a"), "SenderApp": .string("b"), "Transfer": .data([UInt8](repeating: 0, count: 16)),
                      "Items": .array([.dictionary(["Name": .string("n"), "Type": .string("public.data"), "Size": .integer(-5)])])]), "Items[0].Size is negative"),
        (.dictionary(["Type": .string("Uploaded"), "Item": .integer(0), "SHA256": .data([1, 2])]), "SHA256 is not 32 bytes"),
        (.dictionary(["Type": .string("Ask"), "SenderName": .string("a"), "SenderApp": .string("b"), "Transfer": .data([1]),
                      "Items": .array([.dictionary(["Name": .string("n"), "Type": .string("public.data"), "Size": .integer(5)])])]), "Transfer is not 16 bytes"),
        (.dictionary(["Type": .string("Ask"), "SenderName": .string("a"), "SenderApp": .string("b"), "Transfer": .data([UInt8](repeating: 0, count: 16)),
                      "Items": .array([])]), "Ask with 0 items"),
    ])
    func malformedMessagesAreRefusedNamingTheKey(value: PropertyList, expected: String) {
        let bytes = BinaryPropertyListWriter().write(value)
        #expect { try SessionMessage.decode(bytes) } throws: { "\($0)".contains(expected) }
    }

    @Test func tooManyItemsAreRefused() {
        let item = ItemOffer(name: "n", type: "public.data", size: 1)
        let ask = SessionMessage.ask(senderName: "a", senderApp: "b", targetApp: nil, transfer: [UInt8](repeating: 0, count: 16),
                                     items: Array(repeating: item, count: SessionMessage.maximumItems + 1))
        #expect { try SessionMessage.decode(ask.encoded()) } throws: { "\($0)".contains("Ask with 1001 items") }
    }

    @Test func bytesThatAreNotAPropertyListAreRefused() {
        #expect { try SessionMessage.decode(Array("GET / HTTP/1.1\r\n".utf8)) } throws: { "\($0)".contains("not a binary property list") }
    }
}
