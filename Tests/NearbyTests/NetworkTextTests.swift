import Foundation
@testable import Nearby
import Testing

/// Text from the network is made display-safe once, where it is decoded (issue #43): escaped by the
/// one rule, marks bounded, cut to a length; applying the rule again changes nothing, so decoded
/// messages still round-trip.
@Suite struct NetworkTextTests {
    static let hostile = "Eve\u{1b}[2J\u{1b}]0;PWNED\u{7}\u{1b}[8m\nAccept? [y/N] \u{202e}gpj.exe\u{2028}" + String(repeating: "W", count: 300)

    @Test func hostileTextIsEscapedAndCut() {
        let name = NetworkText.name(Self.hostile)
        #expect(name.count == NetworkText.nameLimit && name.hasSuffix("…"))
        #expect(name.hasPrefix("Eve\\u{1b}[2J\\u{1b}]0;PWNED\\u{7}\\u{1b}[8m\\nAccept? [y/N] \\u{"))
        #expect(NetworkText.name("\u{202e}gpj.exe\u{2028}x") == "\\u{202e}gpj.exe\\u{2028}x")
        #expect(!name.unicodeScalars.contains { $0.value < 0x20 || $0.properties.generalCategory == .format })
        #expect(NetworkText.name(name) == name)
    }

    @Test(arguments: ["Ann's laptop", "naïve café", "👩‍👩‍👧 family", "e\u{301}", "日本語の名前", "", String(repeating: "é", count: 64)])
    func ordinaryNamesStayAsTheyAre(name: String) {
        #expect(NetworkText.name(name) == name.precomposedStringWithCanonicalMapping)
    }

    @Test func combiningMarksAreBounded() {
        let zalgo = "Z" + String(repeating: "\u{336}", count: 50)
        #expect(NetworkText.name(zalgo).unicodeScalars.count == 1 + ItemName.maximumMarksPerCharacter)
    }

    @Test func decodersHandOverSafeText() throws {
        let ask = SessionMessage.ask(senderName: Self.hostile, senderApp: "com.example\u{1b}[31m", targetApp: nil, transfer: [UInt8](repeating: 1, count: 16),
                                     items: [ItemOffer(name: "a.txt", type: "public.plain-text\u{0}", size: 1)])
        guard case .ask(let name, let app, _, _, let items) = try SessionMessage.decode(ask.encoded()) else { Issue.record("not an ask"); return }
        #expect(name == NetworkText.name(Self.hostile) && app == "com.example\\u{1b}[31m" && items[0].type == "public.plain-text\\u{0}")
        let device = try LocalSendDevice.decode(LocalSendDevice(alias: Self.hostile, fingerprint: "f").json)
        #expect(device.alias == NetworkText.name(Self.hostile))
        let pairing = try PairingMessage.decode(PairingMessage.hello(name: Self.hostile, receivePort: 1).frame)
        guard case .hello(let peer, _) = pairing else { Issue.record("not a hello"); return }
        #expect(peer == NetworkText.name(Self.hostile))
        let airDrop = try AirDropAsk.decode(AirDropAsk(senderName: Self.hostile, senderModel: nil, senderID: nil, bundleID: nil,
                                                       files: [.init(name: "a.txt", type: nil)]).encoded())
        #expect(airDrop.senderName == NetworkText.name(Self.hostile))
    }
}
