import AppInterchange
import Foundation
import Handoff
import PropertyLists
import TestHelpers
import Testing
@testable import InterchangeKit

/// NSUserActivity's offer on the device root (docs/handoff.md): made current, replaced, resigned,
/// invalidated; `userInfo` checked to be a property list and bounded; and real processes (the
/// handoff-probe program) whose offers end with them, `kill -9` included.
extension InterchangeKitTests {
    static let contacts = "com.example.appA.list-contacts"
    var board: CurrentActivities { CurrentActivities(root: InterchangeDevice.root.path) }

    @MainActor @Test func anActivityIsOfferedWhileCurrentAndOnlyOnePerApp() throws {
        try acting(as: "com.example.appA") {
            let list = NSUserActivity(activityType: Self.contacts)
            list.title = "Contacts"
            list.userInfo = ["contacts": [["name": "Ada"], ["name": "Alan"]], "count": 2, "when": Date(timeIntervalSince1970: 1_700_000_000)]
            list.webpageURL = URL(string: "https://example.com/contacts")
            list.becomeCurrent()
            #expect(list.isCurrent && list.lastError == nil, "\(String(describing: list.lastError))")
            let offers = board.live().filter { $0.bundleIdentifier == "com.example.appA" }
            #expect(offers.count == 1)
            let offer = try #require(offers.first)
            #expect(offer.activityType == Self.contacts && offer.title == "Contacts" && offer.webpageURL == "https://example.com/contacts")
            #expect(offer.processIdentifier == ProcessInfo.processInfo.processIdentifier)
            #expect(offer.userInfo == .dictionary(["contacts": .array([.dictionary(["name": .string("Ada")]), .dictionary(["name": .string("Alan")])]),
                                                   "count": .integer(2), "when": .date(PropertyListDate(secondsSince1970: 1_700_000_000))]))
            // Private to the user: the folder 0700, the offer 0600.
            #expect(try FileManager.default.attributesOfItem(atPath: board.folder)[.posixPermissions] as? Int == 0o700)
            let kept = board.folder + "/com.example.appA.\(ProcessInfo.processInfo.processIdentifier).activity"
            #expect(try FileManager.default.attributesOfItem(atPath: kept)[.posixPermissions] as? Int == 0o600)
            // What is kept is what travels: the offer decodes from its own bytes unchanged.
            #expect(try ActivityOffer.decode(offer.encoded()) == offer)

            // Another activity made current takes the app's place; the first resigning changes nothing.
            let edit = NSUserActivity(activityType: Self.contacts)
            edit.userInfo = ["editing": "Ada"]
            edit.becomeCurrent()
            #expect(edit.isCurrent && !list.isCurrent)
            list.resignCurrent()
            #expect(board.live().filter { $0.bundleIdentifier == "com.example.appA" }.map(\.userInfo) == [.dictionary(["editing": .string("Ada")])])
            // needsSave while current asks the delegate and offers what it saved.
            final class Saver: NSUserActivityDelegate {
                func userActivityWillSave(_ userActivity: NSUserActivity) { userActivity.userInfo = ["editing": "Alan"] }
            }
            let saver = Saver()
            edit.delegate = saver
            edit.needsSave = true
            #expect(board.live().filter { $0.bundleIdentifier == "com.example.appA" }.map(\.userInfo) == [.dictionary(["editing": .string("Alan")])])
            edit.invalidate()
            #expect(board.live().filter { $0.bundleIdentifier == "com.example.appA" }.isEmpty)
            edit.becomeCurrent()  // an invalidated activity is never current again
            #expect(!edit.isCurrent && board.live().filter { $0.bundleIdentifier == "com.example.appA" }.isEmpty)
        }
    }

    @MainActor @Test func userInfoMustBeAPropertyListOfBoundedSize() throws {
        try acting(as: "com.example.appA") {
            let odd = NSUserActivity(activityType: Self.contacts)
            odd.userInfo = ["contacts": [["name": "Ada", "photo": NSNull()]]]
            odd.becomeCurrent()
            #expect(!odd.isCurrent)
            #expect("\(odd.lastError.map { "\($0)" } ?? "")".contains("userInfo.contacts[0].photo is NSNull"), "\(String(describing: odd.lastError))")
            let big = NSUserActivity(activityType: Self.contacts)
            big.userInfo = ["payload": Data(repeating: 1, count: UserInfoSize.limit)]
            big.becomeCurrent()
            #expect(!big.isCurrent && "\(big.lastError.map { "\($0)" } ?? "")".contains("over the limit of 65536 bytes"))
            #expect(board.live().filter { $0.bundleIdentifier == "com.example.appA" }.isEmpty)
            // Over Apple's 3 KB guidance: offered (with a warning on standard error).
            let large = NSUserActivity(activityType: Self.contacts)
            large.userInfo = ["payload": Data(repeating: 1, count: 4096)]
            large.becomeCurrent()
            #expect(large.isCurrent && board.live().contains { $0.bundleIdentifier == "com.example.appA" })
            large.invalidate()
        }
    }

    @Test func anOfferEndsWithItsProcessKilledOrNot() async throws {
        let probe = TestSupport.productsDirectory.appendingPathComponent("handoff-probe").path
        func start(_ app: String, _ type: String, _ bytes: Int) throws -> (Process, Pipe, Pipe, Pipe) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: probe)
            process.arguments = [type, String(bytes)]
            var environment = ProcessInfo.processInfo.environment
            environment["DI_BUNDLE_IDENTIFIER"] = app
            environment["DOCUMENT_INTERCHANGE_ROOT"] = InterchangeDevice.root.path
            process.environment = environment
            let input = Pipe(), output = Pipe(), errors = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            return (process, input, output, errors)
        }
        func line(_ pipe: Pipe) -> String {
            var bytes: [UInt8] = []
            while let byte = try? pipe.fileHandleForReading.read(upToCount: 1)?.first, byte != 10 { bytes.append(byte) }
            return String(decoding: bytes, as: UTF8.self)
        }
        // A, with 4 KB of userInfo (over Apple's guidance: a warning); then B, whose type is not
        // one it declares (a warning too). Both are offered, the newest first.
        let (a, aIn, aOut, aErr) = try start("com.example.appA", Self.contacts, 4096)
        #expect(line(aOut) == "current")
        let (b, bIn, bOut, bErr) = try start("com.example.appB", "com.example.appB.browsing", 0)
        #expect(line(bOut) == "current")
        let live = board.live()
        #expect(live.map(\.processIdentifier) == [b.processIdentifier, a.processIdentifier], "\(live)")
        #expect(live.last?.userInfo["payload"] == .data([UInt8](repeating: 7, count: 4096)))
        // A killed with SIGKILL: its offer is gone at once, and its file with it.
        kill(a.processIdentifier, SIGKILL)
        a.waitUntilExit()
        #expect(board.live().map(\.processIdentifier) == [b.processIdentifier])
        #expect(!FileManager.default.fileExists(atPath: board.folder + "/com.example.appA.\(a.processIdentifier).activity"))
        // B resigns and makes it current again, then its input ends and it exits.
        bIn.fileHandleForWriting.write(Data("resign\n".utf8))
        #expect(line(bOut) == "refused: not current")
        #expect(board.live().map(\.processIdentifier).isEmpty)
        bIn.fileHandleForWriting.write(Data("again\n".utf8))
        #expect(line(bOut) == "current" && board.live().map(\.processIdentifier) == [b.processIdentifier])
        try bIn.fileHandleForWriting.close()
        b.waitUntilExit()
        #expect(board.live().map(\.processIdentifier).isEmpty)
        try aIn.fileHandleForWriting.close()
        let aWarnings = String(decoding: aErr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let bWarnings = String(decoding: bErr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(aWarnings.contains("Apple advises at most 3072"), "\(aWarnings)")
        #expect(bWarnings.contains("com.example.appB.browsing is not in com.example.appB's NSUserActivityTypes"), "\(bWarnings)")
    }
}
