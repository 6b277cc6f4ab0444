import Foundation
import KeyedArchives
import PropertyLists
import TestHelpers
import Testing

struct Settings: Codable, Equatable {
    struct Window: Codable, Equatable {
        var width: Int
        var height: UInt16
    }
    enum Theme: String, Codable { case dark, light }
    var name: String
    var scale: Double
    var enabled: Bool
    var theme: Theme
    var windows: [Window]
    var nickname: String?
    var tags: Set<String>
    var created: Date
    var thumbnail: Data
    var bytes: [UInt8]
}

/// `encodeEncodable`/`decodeDecodable`: a Codable value archived as the property-list objects
/// Apple's PropertyListEncoder path makes, with Foundation's Data and Date as NSData and NSDate.
@Suite struct CodableTests {
    static let sample = Settings(name: "Editor", scale: 1.5, enabled: true, theme: .dark,
                                 windows: [.init(width: 800, height: 600), .init(width: -1, height: 0)], nickname: nil,
                                 tags: ["a"], created: Date(timeIntervalSinceReferenceDate: 1000.25),
                                 thumbnail: Data([0xCA, 0xFE]), bytes: [1, 2])

    @Test(arguments: ArchiveFormat.allCases)
    func codableValueRoundTrips(_ format: ArchiveFormat) throws {
        let archiver = KeyedArchiver()
        try archiver.encodeEncodable(Self.sample, forKey: "settings")
        let unarchiver = try KeyedUnarchiver(archiver.encodedData(format: format))
        #expect(try unarchiver.decodeDecodable(Settings.self, forKey: "settings") == Self.sample)
    }

    @Test func archivedAsPropertyListObjects() throws {
        let archiver = KeyedArchiver()
        try archiver.encodeEncodable(Self.sample, forKey: "settings")
        let unarchiver = KeyedUnarchiver(archive: archiver.finishEncoding())
        let graph = try #require(try unarchiver.decodeValue(forKey: "settings", allowing: ArchiveClass.propertyListClassNames))
        #expect(graph["name"] == .string("Editor"))
        #expect(graph["nickname"] == nil)  // synthesized Codable leaves nil optionals out
        #expect(graph["thumbnail"] == .data([0xCA, 0xFE]))
        #expect(graph["created"] == .date(PropertyListDate(secondsSinceReferenceDate: 1000.25)))
        #expect(graph["bytes"] == .array([.integer(1), .integer(2)]))
        #expect(graph["windows"]?.elements?.first?["height"] == .integer(600))
    }

    @Test func decodingErrorsCarryTheCodingPath() throws {
        let archiver = KeyedArchiver()
        try archiver.encode(.dictionary(["width": .string("wide"), "height": .integer(1)]), forKey: "window")
        try archiver.encode(.dictionary(["width": .integer(1), "height": .integer(70000)]), forKey: "tall")
        let unarchiver = KeyedUnarchiver(archive: archiver.finishEncoding())
        let wrongType = ArchiveCorpus.error { _ = try unarchiver.decodeDecodable(Settings.Window.self, forKey: "window") }
        #expect(wrongType?.keyPath == keys("window", "width"))
        guard case .decodingFailed(let message)? = wrongType?.reason else { Issue.record("\(String(describing: wrongType))"); return }
        #expect(message.contains("NSString"))
        let tooBig = ArchiveCorpus.error { _ = try unarchiver.decodeDecodable(Settings.Window.self, forKey: "tall") }
        #expect(tooBig?.keyPath == keys("tall", "height"))
    }

    @Test func onlyPropertyListClassesAreAccepted() throws {
        let archiver = KeyedArchiver()
        try archiver.encode(.array([.url(ArchivedURL("https://example.com"))]), forKey: "list")
        let unarchiver = KeyedUnarchiver(archive: archiver.finishEncoding())
        let error = ArchiveCorpus.error { _ = try unarchiver.decodeDecodable([String].self, forKey: "list") }
        #expect(error?.reason == .classNotAllowed(className: "NSURL", allowed: ArchiveClass.propertyListClassNames.sorted()))
    }
}
