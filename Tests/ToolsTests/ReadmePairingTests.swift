import Foundation
import TestHelpers
import Testing

/// The README's pairing lines pair with the name the waiting device really has: a device waits
/// under its host name unless `--name` says otherwise, so `nearby pair desk` on the other device
/// follows a waiting line that names itself desk.
@Suite struct ReadmePairingTests {
    @Test func theWaitingDeviceIsCalledWhatTheOtherPairsWith() throws {
        let readme = try String(contentsOf: TestSupport.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        var checked = 0
        for block in readme.components(separatedBy: "```sh\n").dropFirst() {
            let commands = (block.components(separatedBy: "```").first ?? "").split(separator: "\n")
                .map { $0.components(separatedBy: "#").first!.split(separator: " ").map(String.init) }
                .filter { $0.count >= 2 && $0[0] == "nearby" && $0[1] == "pair" }
            let waiting = commands.filter { $0.contains("--wait") || $0.contains("--show-code") }
            guard !waiting.isEmpty else { continue }
            // Names the waiting lines give themselves (`--name NAME`).
            let named = Set(waiting.compactMap { words in words.firstIndex(of: "--name").flatMap { $0 + 1 < words.count ? words[$0 + 1] : nil } })
            for words in commands where words.count > 2 && !words[2].hasPrefix("-") {
                #expect(named.contains(words[2]), "\(words.joined(separator: " ")): no waiting line in its block says --name \(words[2])")
                checked += 1
            }
        }
        #expect(checked > 0)
    }
}
