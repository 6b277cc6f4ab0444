import Foundation
import KeyedArchives
import OrderedCollections
import PropertyLists
import TestHelpers
import Testing

/// Depth, object-count, size and expansion limits, and the stack guard: hostile shapes end in
/// an error, quickly, on any thread.
@Suite struct LimitTests {
    /// `levels` arrays, each holding the next one twice: 2^levels objects once expanded.
    static func referenceBomb(levels: Int) -> KeyedArchive {
        var objects: [PropertyList] = [.string("$null")]
        let classIndex = levels + 2
        for i in 0..<levels {
            let next = PropertyList.uid(UInt64(i + 2))
            objects.append(.dictionary(["NS.objects": .array([next, next]), "$class": .uid(UInt64(classIndex))]))
        }
        objects.append(.string("leaf"))
        objects.append(.dictionary(["$classname": .string("NSArray"), "$classes": .array([.string("NSArray"), .string("NSObject")])]))
        return KeyedArchive(objects: objects, top: ["root": .uid(1)])
    }

    @Test func referenceBombIsRefusedQuickly() throws {
        let archive = Self.referenceBomb(levels: 60)
        let clock = ContinuousClock()
        let start = clock.now
        let error = ArchiveCorpus.error {
            _ = try KeyedUnarchiver(archive: archive).decodeValue(forKey: "root", allowing: ["NSArray", "NSString"])
        }
        #expect(error?.reason == .expansionLimit(limit: 1 << 20))
        let resolved = ArchiveCorpus.error { _ = try archive.resolvedTopLevel() }
        #expect(resolved?.reason == .expansionLimit(limit: 1 << 20))
        #expect(clock.now - start < .seconds(10))
        // A small bomb within the limit decodes, each shared array decoded once.
        let small = try KeyedUnarchiver(archive: Self.referenceBomb(levels: 4)).decodeValue(forKey: "root", allowing: ["NSArray", "NSString"])
        #expect(small?.elements?.first?.elements?.first?.elements?.first?.elements?.first == .string("leaf"))
    }

    @Test func objectCountAndSizeLimits() throws {
        let bytes = try ArchiveCorpus.hostileBytes(0)
        var limits = KeyedArchiveLimits()
        limits.maximumObjects = 5
        #expect(ArchiveCorpus.error { _ = try KeyedArchive(parsing: bytes, limits: limits) }?.reason == .tooManyObjects(count: 8, limit: 5))
        limits = KeyedArchiveLimits()
        limits.maximumBytes = 100
        #expect(ArchiveCorpus.error { _ = try KeyedArchive(parsing: bytes, limits: limits) }?.reason == .tooLarge(bytes: bytes.count, limit: 100))
    }

    @Test func deepestAllowedNestingDecodes() throws {
        var value = ArchivedValue.string("core")
        for _ in 0..<40 { value = .array([value]) }
        let bytes = try KeyedArchiver.archivedData(withRootValue: value)
        var limits = KeyedArchiveLimits()
        limits.maximumDepth = 40
        #expect(try KeyedUnarchiver.unarchivedValue(from: bytes, allowing: ["NSArray", "NSString"], limits: limits) == value)
        limits.maximumDepth = 39
        #expect(ArchiveCorpus.error { _ = try KeyedUnarchiver.unarchivedValue(from: bytes, allowing: ["NSArray", "NSString"], limits: limits) }?
            .reason == .tooDeep(limit: 39))
    }

    @Test func encodingTooDeepIsAnError() throws {
        var value = ArchivedValue.string("core")
        for _ in 0..<600 { value = .array([value]) }
        let error = ArchiveCorpus.error { _ = try KeyedArchiver.archivedData(withRootValue: value) }
        guard case .encodingFailed(let message)? = error?.reason else { Issue.record("\(String(describing: error))"); return }
        #expect(message.contains("nested"))
    }

    @Test func deepNestingOnASmallStackIsAnErrorNotACrash() throws {
        let bytes = try ArchiveCorpus.hostileBytes(10)
        let archive = try KeyedArchive(parsing: bytes)
        final class Outcome: @unchecked Sendable { var errors: [KeyedArchiveError?] = [] }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            var limits = KeyedArchiveLimits()
            limits.maximumDepth = 100_000
            limits.maximumDecodedObjects = 1 << 22
            outcome.errors.append(ArchiveCorpus.error {
                _ = try KeyedUnarchiver(archive: archive, limits: limits).decodeValue(forKey: "root", allowing: ["NSArray"])
            })
            outcome.errors.append(ArchiveCorpus.error { _ = try archive.resolvedTopLevel(limits: limits) })
            done.signal()
        }
        thread.stackSize = 256 << 10
        thread.start()
        done.wait()
        for error in outcome.errors {
            guard case .stackExhausted(let depth)? = error?.reason else { Issue.record("\(String(describing: error))"); continue }
            #expect(depth >= 8)
        }
    }
}
