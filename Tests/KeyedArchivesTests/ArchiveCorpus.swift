import Foundation
import KeyedArchives
import PropertyLists
import TestHelpers

/// The keyed-archive corpus in ../shared/corpus/keyed-archives.
enum ArchiveCorpus {
    static let directory = TestSupport.shared.appendingPathComponent("corpus/keyed-archives")
    static let foundation = directory.appendingPathComponent("foundation")
    static let hostile = directory.appendingPathComponent("hostile")

    /// The macOS-written fixtures swift-corelibs-foundation's tests read.
    static let foundationFixtures = ((try? FileManager.default.contentsOfDirectory(atPath: foundation.path)) ?? [])
        .filter { $0.hasSuffix(".plist") }.sorted()

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    static func foundationBytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: foundation.appendingPathComponent(name)))
    }

    static func hostileBytes(_ number: Int) throws -> [UInt8] {
        Array(try Data(contentsOf: hostile.appendingPathComponent(String(format: "%02d.bplist", number))))
    }

    /// The classes the fixtures hold beyond the ones ArchivedValue models.
    static let fixtureClasses = ArchiveClass.foundationClassNames.union(["NSNotification", "_NSKeyedCoderOldStyleArray"])

    /// Decodes `root` allowing every class the fixtures use.
    static func decodeRoot(_ bytes: [UInt8]) throws -> ArchivedValue {
        try KeyedUnarchiver.unarchivedValue(from: bytes, allowing: fixtureClasses)
    }

    static func isBinary(_ bytes: [UInt8]) -> Bool { bytes.starts(with: Array("bplist".utf8)) }

    /// The error `body` throws, which must be a KeyedArchiveError.
    static func error(_ body: () throws -> Void) -> KeyedArchiveError? {
        do { try body() } catch let error as KeyedArchiveError { return error } catch { return nil }
        return nil
    }
}

/// A key path of dictionary keys only.
func keys(_ names: String...) -> PropertyListPath { PropertyListPath(names.map { .key($0) }) }
