import AppRegistry
import PropertyLists
import ToolSupport
import UniformTypes

/// `uti lint`: Info.plists checked as the toolkit reads them, against the system catalog alone
/// (what other registered apps declare is no excuse), with the other registered apps for the
/// checks across apps; a summary line at the end.
extension UtiCommands {
    func lint() throws(Failure) -> Int32 {
        let catalog = try requiredCatalog()
        let ignored = Set(command.all(.ignore).compactMap(LintRule.init(rawValue:)))
        let others = root.exists ? AppBundle.all(on: root).apps : []
        let linter = InfoPlistLinter(catalog: RegistryStore.catalogOnly(catalog), variables: try variables(), otherApps: others, ignoring: ignored)
        var errors = 0, warnings = 0
        var values: [PropertyList] = []
        for file in operands {
            var options = PropertyListReadOptions()
            options.recordsLocations = true
            var findings: [LintFinding]
            do {
                let document = try PropertyListReader.read(contentsOf: .init(file), options: options)
                // An entitlements file (as Xcode names it, or a bundle's Entitlements.plist) is
                // checked as entitlements, not as an Info.plist.
                let isEntitlements = file.hasSuffix(".entitlements") || file.hasSuffix("/Entitlements.plist") || file == "Entitlements.plist"
                findings = isEntitlements ? linter.lint(entitlements: document) : linter.lint(document)
            } catch {
                findings = [LintFinding(error.location == nil ? .unreadable : .malformed, .error, error.message, at: error.keyPath ?? .root, location: error.location)]
            }
            for finding in findings {
                if finding.severity == .error { errors += 1 } else { warnings += 1 }
                if json { values.append(Self.json(finding, file: file)) } else { Output.line(finding.formatted(file: file)) }
            }
        }
        if json {
            Output.line(TypeReport.encode(.array(values)))
        } else {
            let files = operands.count == 1 ? "1 file" : "\(operands.count) files"
            let silenced = ignored.isEmpty ? "" : "; silenced: " + ignored.sorted().map(\.rawValue).joined(separator: ", ")
            Output.line("\(files): \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")\(silenced)")
        }
        return errors > 0 ? 1 : 0
    }

    static func json(_ f: LintFinding, file: String) -> PropertyList {
        var d: [(String, PropertyList)] = [("file", .string(file)), ("rule", .string(f.rule.rawValue)), ("severity", .string(f.severity.rawValue)),
                                           ("message", .string(f.message)), ("keyPath", .string(f.keyPath.description))]
        if case .text(let line, let column)? = f.location { d += [("line", .integer(Int64(line))), ("column", .integer(Int64(column)))] }
        if f.places.count > 1 {
            d.append(("places", .array(f.places.map { place in
                var entry: [(String, PropertyList)] = [("keyPath", .string(place.keyPath.description))]
                if case .text(let line, let column)? = place.location { entry += [("line", .integer(Int64(line))), ("column", .integer(Int64(column)))] }
                return .dictionary(.init(uniqueKeysWithValues: entry))
            })))
        }
        return .dictionary(.init(uniqueKeysWithValues: d))
    }

    func completions() throws(Failure) -> Int32 {
        guard let script = Completions.script(utiSpec, shell: operands[0]) else {
            throw Failure(message: "completions takes \(Completions.shells.joined(separator: ", ")), not '\(operands[0])'")
        }
        Output.text(script)
        return 0
    }
}
