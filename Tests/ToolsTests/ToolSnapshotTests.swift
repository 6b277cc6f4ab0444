import Foundation
import TestHelpers
import Testing

/// Every tool's `--help`, man page and completion scripts, compared with the snapshots in
/// Snapshots/: a change to a tool's command line shows in review as a change of these files.
/// After a deliberate change: `DI_UPDATE_SNAPSHOTS=1 swift test --filter ToolSnapshotTests`
/// rewrites them (and the run records that it did, so it never passes silently).
@Suite struct ToolSnapshotTests {
    static let tools = ["plutil", "uti", "openin", "inboxd", "openurl", "defaults", "notifyutil", "pbcopy", "pbpaste", "pasteboardd", "nearby"]
    static let outputs: [(suffix: String, arguments: [String])] = [
        ("help", ["--help"]), ("1", ["--generate-man"]),
        ("bash", ["--generate-completion", "bash"]), ("zsh", ["--generate-completion", "zsh"]), ("fish", ["--generate-completion", "fish"]),
    ]
    static let folder = TestSupport.packageRoot.appendingPathComponent("Tests/ToolsTests/Snapshots")

    @Test(arguments: tools)
    func theCommandLineIsAsRecorded(_ tool: String) throws {
        let updating = ProcessInfo.processInfo.environment["DI_UPDATE_SNAPSHOTS"] == "1"
        for (suffix, arguments) in Self.outputs {
            let run = try TestSupport.run(TestSupport.productsDirectory.appendingPathComponent(tool).path, arguments)
            #expect(run.status == 0, "\(tool) \(arguments.joined(separator: " ")): \(run.stderr)")
            let file = Self.folder.appendingPathComponent("\(tool).\(suffix)")
            if updating {
                try run.stdout.write(to: file)
                Issue.record("\(file.lastPathComponent) rewritten (DI_UPDATE_SNAPSHOTS=1)")
                continue
            }
            let recorded = try Data(contentsOf: file)
            #expect(run.stdout == recorded, "\(tool) \(arguments.joined(separator: " ")) differs from Snapshots/\(file.lastPathComponent); after a deliberate change, DI_UPDATE_SNAPSHOTS=1 swift test --filter ToolSnapshotTests")
        }
    }

    /// Each tool reads its command line only through its option and verb enums; `--check-names`
    /// proves they name exactly what its spec declares (an option read but never declared would
    /// never be given, a declared one never read is dead).
    @Test(arguments: tools)
    func theNamesTheCodeReadsAreTheSpecsOwn(_ tool: String) throws {
        let run = try TestSupport.run(TestSupport.productsDirectory.appendingPathComponent(tool).path, ["--check-names"])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(tool) --check-names: \(run.stderr)")
    }
}
