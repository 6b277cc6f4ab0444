import Foundation
import TestHelpers
import Testing

/// `nearby list --timeout`: a bounded positive number of seconds; anything else is a usage error
/// (exit 2) naming the value, before anything is browsed. That list ends early once every paired
/// device is seen is shown across namespaces (NearbyLabTests: `list_ms`).
@Suite struct ListTimeoutTests {
    static let nearby = TestSupport.productsDirectory.appendingPathComponent("nearby").path

    @Test(arguments: ["61", "0", "-1", "abc", "nan", "inf"])
    func aBadTimeoutIsAUsageError(_ value: String) throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let run = try TestSupport.run(Self.nearby, ["list", "--root", root.path, "--timeout", value])
        #expect(run.status == 2, "\(value): \(run.stderr)")
        #expect(run.stderr.contains("--timeout") && run.stderr.contains(value), "\(run.stderr)")
    }

    @Test func aTimeoutWithinTheBoundIsTaken() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let run = try TestSupport.run(Self.nearby, ["list", "--root", root.path, "--timeout", "0.2", "--no-discovery", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.out == "[]\n")
    }
}
