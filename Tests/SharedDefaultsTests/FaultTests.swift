import Foundation
import PropertyLists
import SharedDefaults
import SystemCalls
import Testing
import TestHelpers

/// System calls made to fail (FaultInjection, test builds only): a failed write is not
/// acknowledged, a failed merge leaves the property list and the journal as they were.
@Suite struct FaultTests {
    @Test func failedAppendIsNotAcknowledgedNorApplied() throws {
        let folder = try Probe.folder()
        let defaults = SharedDefaults(location: try DefaultsLocation(suite: "group.fault", folder: folder))
        defaults.set("kept", forKey: "a")
        FaultInjection.with([.fail(.write, errno: .noSpace, pathSuffix: ".journal")]) {
            #expect(throws: SharedDefaultsError.system(SystemCallError(.write, path: defaults.location.journal, errno: .noSpace))) {
                try defaults.save(.string("lost"), forKey: "b")
            }
            defaults.set("lost too", forKey: "c")
        }
        #expect(defaults.object(forKey: "b") == nil && defaults.object(forKey: "c") == nil)
        #expect(defaults.lastError != nil)
        #expect(!defaults.synchronize(), "an earlier failed write makes synchronize() false once")
        #expect(defaults.synchronize())
        let fresh = SharedDefaults(location: defaults.location)
        #expect(fresh.persistentDomain() == ["a": .string("kept")])
    }

    @Test func failedMergeLeavesEverythingAsItWas() throws {
        let folder = try Probe.folder()
        let defaults = SharedDefaults(location: try DefaultsLocation(suite: "group.fault", folder: folder))
        defaults.set("one", forKey: "a")
        #expect(defaults.synchronize())
        defaults.set("two", forKey: "a")
        let before = try Data(contentsOf: URL(fileURLWithPath: defaults.location.propertyList))
        FaultInjection.with([.fail(.fsync, errno: .ioError)]) {
            #expect(!defaults.synchronize())
        }
        guard case .system(let error)? = defaults.lastError else { Issue.record("no error recorded"); return }
        #expect(error.call == .fsync)
        #expect(try Data(contentsOf: URL(fileURLWithPath: defaults.location.propertyList)) == before)
        #expect(SharedDefaults(location: defaults.location).string(forKey: "a") == "two", "the change is still in the journal")
        #expect(defaults.synchronize())
        #expect(try TestSupport.read(URL(fileURLWithPath: defaults.location.propertyList)).value == .dictionary(["a": .string("two")]))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
    }
}
