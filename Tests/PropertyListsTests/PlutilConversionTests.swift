import Foundation
import PropertyLists
import TestHelpers
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The built `plutil` as a user runs it: conversions among XML, binary and JSON on every corpus
/// file, JSON input as Apple's tool reads it, `-bool`'s words, the README's examples as printed,
/// and the memory a fresh process touches to lint a large file.
@Suite struct PlutilConversionTests {
    let plutil = TestSupport.plutil

    func run(_ arguments: [String], in directory: URL? = nil) throws -> TestSupport.Run {
        guard let directory else { return try TestSupport.run(plutil, arguments) }
        // Relative paths as printed in the README: run from `directory` through a shell.
        let quoted = ([plutil] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        return try TestSupport.run("/bin/sh", ["-c", "cd '\(directory.path)' && " + quoted.joined(separator: " ")])
    }

    func document(_ url: URL) throws -> PropertyListDocument {
        var options = PropertyListReadOptions()
        options.readsJSON = true
        return try PropertyListReader.read(Array(try Data(contentsOf: url)), options: options)
    }

    /// Every corpus file, converted by `plutil` along every path among the three formats, keeps
    /// its value. Values JSON cannot hold (dates, data) would be taken out first, and converting
    /// the file with them to JSON must fail (the corpus has none today; generated values with
    /// them are in `JSONInputTests`, the refusal in `datesAndDataAreRefusedForJSONWithTheirKeyPath`).
    @Test func corpusFilesRoundTripThroughEveryConversion() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let files = TestSupport.corpusFiles()
        try #require(files.count == 31)
        for (n, file) in files.enumerated() {
            let original = try TestSupport.read(file).value
            let holdable = JSONInputTests.jsonHoldable(original)
            var start = file
            if holdable != original {
                let refused = try run(["-convert", "json", "-o", dir.appendingPathComponent("\(n).refused.json").path, file.path])
                #expect(refused.status == 1, "\(file.lastPathComponent)")
                #expect(refused.stderr.contains("cannot be written as JSON, which has no "), "\(refused.stderr)")
                #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("\(n).refused.json").path))
                start = dir.appendingPathComponent("\(n).start.plist")
                try Data(XMLPropertyListWriter().write(holdable)).write(to: start)
            }
            // xml → binary → json → xml, and the other three edges back.
            let steps: [(from: String, to: String, format: PropertyListFormat)] = [
                (start.path, "b.plist", .binary), ("b.plist", "j.json", .json), ("j.json", "x.plist", .xml),
                ("j.json", "jb.plist", .binary), ("b.plist", "bx.plist", .xml), (start.path, "xj.json", .json),
            ]
            for step in steps {
                let source = step.from.hasPrefix("/") ? step.from : dir.appendingPathComponent("\(n).\(step.from)").path
                let target = dir.appendingPathComponent("\(n).\(step.to)")
                let converted = try run(["-convert", step.format.rawValue, "-o", target.path, source])
                #expect(converted.status == 0, "\(file.lastPathComponent) → \(step.to): \(converted.stderr)")
                let result = try document(target)
                #expect(result.format == step.format)
                #expect(result.value == holdable, "\(file.lastPathComponent) → \(step.to)")
            }
        }
    }

    /// The issue's case: a file `plutil` wrote as JSON converts back (it failed with an OpenStep
    /// parser error), and -p, -extract, -type and the edits read JSON too.
    @Test func jsonWrittenByPlutilIsReadBack() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let json = dir.appendingPathComponent("Info.json").path
        let source = TestSupport.corpusFiles()[0].path
        #expect(try run(["-convert", "json", "-o", json, source]).status == 0)
        let back = try run(["-convert", "xml1", "-o", "-", json])
        #expect(back.status == 0, "\(back.stderr)")
        #expect(try PropertyListReader.read(Array(back.stdout)).value == TestSupport.read(URL(fileURLWithPath: source)).value)
        #expect(try run(["-extract", "CFBundleIdentifier", "raw", "-o", "-", json]).out
                == (TestSupport.read(URL(fileURLWithPath: source)).value["CFBundleIdentifier"]?.stringValue ?? "") + "\n")
        #expect(try run(["-type", "CFBundleIdentifier", json]).out == "string\n")
        #expect(try run(["-p", json]).out == run(["-p", source]).out)
        #expect(try run(["-replace", "Added", "-integer", "7", json]).status == 0)
        #expect(try document(URL(fileURLWithPath: json)).format == .json, "an edited JSON file stays JSON")
        #expect(try document(URL(fileURLWithPath: json)).value["Added"] == .integer(7))
    }

    @Test func lintRefusesJSONAsApplesPlutilDoes() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let json = dir.appendingPathComponent("a.json"), empty = dir.appendingPathComponent("empty.json")
        try Data(#"{"a": [1, 2.5]}"#.utf8).write(to: json)
        let lint = try run(["-lint", json.path])
        #expect(lint.status == 1)
        #expect(lint.stderr == "\(json.path): the input is JSON, not a property list; -lint checks property lists only, as Apple's plutil does (-convert xml1 reads JSON)\n")
        // `{}` is OpenStep as well as JSON: lint passes, and edits of a file `-create json` made keep it JSON.
        #expect(try run(["-create", "json", empty.path]).status == 0)
        #expect(try run(["-lint", empty.path]).status == 0)
        #expect(try run(["-insert", "k", "-string", "v", empty.path]).status == 0)
        #expect(try String(contentsOf: empty, encoding: .utf8) == #"{"k":"v"}"#)
    }

    @Test func datesAndDataAreRefusedForJSONWithTheirKeyPath() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("d.plist")
        let value = PropertyList.dictionary(["list": .array([.string("x"), .date(PropertyListDate(iso8601: "2020-01-02T03:04:05Z")!)]),
                                             "blob": .dictionary(["bytes": .data([1])])])
        try Data(XMLPropertyListWriter().write(value)).write(to: file)
        let converted = try run(["-convert", "json", "-o", "-", file.path])
        #expect(converted.status == 1 && converted.stdout.isEmpty)
        #expect(converted.stderr == "\(file.path): cannot write json: data cannot be written as JSON, which has no data type [blob.bytes]\n")
        let extracted = try run(["-extract", "list", "json", "-o", "-", file.path])
        #expect(extracted.status == 1)
        #expect(extracted.stderr.contains("a date cannot be written as JSON, which has no date type [[1]]"))
        #expect(try run(["-extract", "list.0", "json", "-o", "-", file.path]).out == #""x""#)
    }

    /// Apple's plutil stores YES for "yes" or "true" in any case and NO for anything else; we take
    /// the same words, "no" and "false" for NO, and refuse the rest instead of storing NO.
    @Test func boolTakesApplesWordsAndRefusesTheRest() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("b.plist")
        try Data(XMLPropertyListWriter().write(.dictionary([:]))).write(to: file)
        for (word, expected) in [("YES", true), ("yes", true), ("Yes", true), ("true", true), ("TRUE", true),
                                 ("NO", false), ("no", false), ("false", false), ("False", false)] {
            #expect(try run(["-replace", "k", "-bool", word, file.path]).status == 0, "\(word)")
            #expect(try TestSupport.read(file).value["k"] == .bool(expected), "\(word)")
        }
        let before = try Data(contentsOf: file)
        for word in ["maybe", "1", "0", "", "y", "nope"] {
            let refused = try run(["-replace", "k", "-bool", word, file.path])
            #expect(refused.status == 1, "\(word)")
            #expect(refused.stderr.hasPrefix("plutil: -bool takes YES, NO, true or false (in any case), not '\(word)'"))
            #expect(try Data(contentsOf: file) == before, "-bool \(word) must not touch the file")
        }
    }

    /// The README's `plutil` block, run line by line as printed, from a folder holding `Samples/`
    /// (its first line copies the Person Editor's Info.plist to change).
    @Test func readmeExamplesWorkAsPrinted() throws {
        let readme = try String(contentsOf: TestSupport.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## `plutil`").map { readme[$0.upperBound...] })
        let block = try #require(section.range(of: "```sh\n").map { section[$0.upperBound...] })
        let commands = block[..<block.range(of: "```")!.lowerBound].split(separator: "\n").map { line in
            String(line.split(separator: "#", maxSplits: 1)[0]).trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
        try #require(commands.count >= 13)

        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent("Samples"), withDestinationURL: TestSupport.packageRoot.appendingPathComponent("Samples"))

        var outputs: [String: String] = [:]
        for command in commands {
            var words = command.split(separator: " ").map(String.init)
            if words.first == "cp", words.count == 3 {
                try FileManager.default.copyItem(at: dir.appendingPathComponent(words[1]), to: dir.appendingPathComponent(words[2]))
                continue
            }
            #expect(words.removeFirst() == "plutil")
            let result = try run(words, in: dir)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            outputs[command] = result.out
        }
        #expect(outputs["plutil -lint Info.plist"] == "Info.plist: OK\n")
        #expect(outputs["plutil -extract CFBundleIdentifier raw -o - Info.plist"] == "com.example.person-editor\n")
        #expect(outputs["plutil -type UTExportedTypeDeclarations Info.plist"] == "array\n")
        #expect(try document(dir.appendingPathComponent("Info.bin")).format == .binary)
        #expect(try document(dir.appendingPathComponent("Info.json")).format == .json)
        #expect(try document(dir.appendingPathComponent("Info.xml")).value == document(dir.appendingPathComponent("Info.bin")).value)
        let edited = try TestSupport.read(dir.appendingPathComponent("Info.plist")).value
        #expect(edited.value(at: PropertyListPath(dotted: "CFBundleDocumentTypes.0.CFBundleTypeIconFile")) == .string("person.png"))
        #expect(edited["CFBundleVersion"] == .string("2"))
        #expect(edited["LSSupportsOpeningDocumentsInPlace"] == nil)
        #expect(edited["LSRequiresIPhoneOS"] == .bool(false))
    }

    /// Where the first parse in a fresh process went: every 4 KiB page it touched for the first
    /// time was a fault (about 2 µs each here). `plutil -lint` of the 3.8 MB XML took 6,042 faults;
    /// one read into a buffer of the file's size, libxml2 fed through a callback instead of a
    /// whole copy, no teardown of the tree before exit and a heap of 2 MiB pages bring it to a
    /// few hundred. Where transparent huge pages are off, only the first three count.
    @Test func lintOfALargeFileTouchesFewPages() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let generator = TestSupport.shared.appendingPathComponent("peers/plist/gen_plist.py").path
        let made = try TestSupport.run("/usr/bin/env", ["python3", generator, "-n", "5000", "-o", dir.path])
        try #require(made.status == 0, "gen_plist.py: \(made.stderr)")
        let big = dir.appendingPathComponent("big.xml.plist").path
        let hugePagesOff = (try? String(contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8))?.contains("[never]") ?? true
        // The input alone is 925 pages; the tree about 2,100 more.
        let budget = hugePagesOff ? 3_600 : 1_000
        let faults = try Self.minorFaults([plutil, "-lint", "-s", big])
        #expect(faults < budget, "plutil -lint touched \(faults) fresh pages (budget \(budget))")
        let binary = dir.appendingPathComponent("big.bin.plist").path
        #expect(try Self.minorFaults([plutil, "-lint", "-s", binary]) < budget)
    }

    /// The minor page faults of one run of `argv` (its exit status must be 0).
    static func minorFaults(_ argv: [String]) throws -> Int {
        var pid = pid_t()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        try #require(posix_spawn(&pid, argv[0], &actions, nil, cArgs, environ) == 0)
        var status: Int32 = 0
        var usage = rusage()
        try #require(wait4(pid, &status, 0, &usage) == pid)
        try #require(status == 0, "\(argv) exited with \(status)")
        return usage.ru_minflt
    }
}
