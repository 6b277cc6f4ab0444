import ToolSupport
import PropertyLists
import UniformTypes
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Carries out a parsed `uti` invocation; returns the exit status.
struct UtiCommands {
    let invocation: UtiInvocation
    let root: DeviceRoot
    let catalog: String?

    init(_ invocation: UtiInvocation) {
        self.invocation = invocation
        root = DeviceRoot.resolve(explicit: invocation.root)
        catalog = TypeCatalog.directory(for: root)
    }

    struct Failure: Error {
        var message: String
        var status: Int32 = 2
    }

    func registry() throws(Failure) -> TypeRegistry {
        do { return try RegistryStore.open(root: root, catalog: catalog) } catch {
            throw Failure(message: "cannot build the type registry: \(error)")
        }
    }

    func type(_ identifier: String, in registry: TypeRegistry) throws(Failure) -> UTType {
        if let problem = TypeIdentifierSyntax.problem(with: identifier) {
            throw Failure(message: "invalid type identifier '\(identifier)': \(problem)")
        }
        guard let t = UTType(identifier, in: registry) else { throw Failure(message: "unknown type \(identifier)") }
        return t
    }

    func run() throws(Failure) -> Int32 {
        switch invocation.verb {
        case "help": Output.text(usage); return 0
        case "conforms": return try conforms()
        case "info": return try info()
        case "for-extension": return try forTags(.filenameExtension)
        case "for-mime": return try forTags(.mimeType)
        case "for-file": return try forFiles()
        case "tree": return try tree()
        case "subtypes": return try subtypes()
        case "register": return try register()
        case "unregister": return try unregister()
        case "rebuild": return try rebuild()
        case "lint": return try lint()
        case "graph": return try graph()
        case "completions": return try completions()
        case "dump": return try dump()
        default: throw Failure(message: "unknown verb '\(invocation.verb)'; see uti --help")
        }
    }

    func conforms() throws(Failure) -> Int32 {
        guard invocation.operands.count == 2 else { throw Failure(message: "conforms takes two identifiers") }
        let r = try registry()
        let a = try type(invocation.operands[0], in: r), b = try type(invocation.operands[1], in: r)
        let answer = a.conforms(to: b)
        if !invocation.quiet { Output.line(answer ? "true" : "false") }
        return answer ? 0 : 1
    }

    func info() throws(Failure) -> Int32 {
        let r = try registry()
        let t: UTType
        switch invocation.lookup {
        case .extension(let ext)?:
            guard let found = UTType(filenameExtension: ext, in: r) else { throw Failure(message: "no type for extension \(ext)") }
            t = found
        case .mime(let mime)?:
            guard let found = UTType(mimeType: mime, in: r) else { throw Failure(message: "no type for MIME type \(mime)") }
            t = found
        case .file(let path)?: t = FileTypeDetector(registry: r).type(ofFileAt: path).type
        case nil:
            guard invocation.operands.count == 1 else { throw Failure(message: "info takes one identifier, or --extension/--mime") }
            t = try type(invocation.operands[0], in: r)
        }
        if invocation.json {
            Output.line(TypeReport.json(t))
        } else {
            Output.text(TypeReport.text(t))
        }
        return 0
    }

    func forTags(_ tagClass: TagClass) throws(Failure) -> Int32 {
        let r = try registry()
        let constraint: UTType?
        if let c = invocation.conformingTo { constraint = try type(c, in: r) } else { constraint = UTType("public.data", in: r) }
        var values: [PropertyList] = []
        for tag in invocation.operands {
            if invocation.all {
                let candidates = UTType.types(tag: tag, tagClass: tagClass, conformingTo: constraint, in: r)
                let ids = candidates.isEmpty
                    ? [UTType(tag: tag, tagClass: tagClass, conformingTo: constraint, in: r)?.identifier ?? ""]
                    : candidates.map(\.identifier)
                if invocation.json { values.append(.dictionary([ "tag": .string(tag), "types": .array(ids.map(PropertyList.string))])) }
                else { Output.line("\(tag)\t\(ids.joined(separator: " "))") }
            } else {
                let id = UTType(tag: tag, tagClass: tagClass, conformingTo: constraint, in: r)?.identifier ?? ""
                if invocation.json { values.append(.dictionary(["tag": .string(tag), "identifier": .string(id)])) }
                else { Output.line(id) }
            }
        }
        if invocation.json { Output.line(TypeReport.encode(.array(values))) }
        return 0
    }

    func forFiles() throws(Failure) -> Int32 {
        guard !invocation.operands.isEmpty else { throw Failure(message: "for-file takes paths") }
        let detector = FileTypeDetector(registry: try registry())
        var values: [PropertyList] = []
        for path in invocation.operands {
            let answer = detector.type(ofFileAt: path, judgedBy: invocation.evidence)
            // What nothing names is application/octet-stream, as GIO says.
            let mime = answer.mimeType ?? "application/octet-stream"
            let shown = invocation.mimeOutput ? mime : answer.type.identifier
            if invocation.json {
                values.append(.dictionary(["path": .string(path), "identifier": .string(answer.type.identifier), "mimeType": .string(mime),
                                           "reason": .string(answer.rule.description)]))
            } else if invocation.explain {
                Output.line("\(path): \(shown) (\(answer.rule))")
            } else {
                Output.line(shown)
            }
        }
        if invocation.json { Output.line(TypeReport.encode(.array(values))) }
        return 0
    }

    func tree() throws(Failure) -> Int32 {
        guard invocation.operands.count == 1 else { throw Failure(message: "tree takes one identifier") }
        let r = try registry()
        let t = try type(invocation.operands[0], in: r)
        var lines: [String] = [t.identifier]
        func walk(_ number: TypeRegistry.TypeID, prefix: String, path: Set<TypeRegistry.TypeID>) {
            let parents = r.parents(of: number)
            for (i, p) in parents.enumerated() {
                let last = i == parents.count - 1
                let cycle = path.contains(p)
                lines.append(prefix + (last ? "└── " : "├── ") + r.identifier(of: p) + (cycle ? " (cycle)" : r.isDeclared(p) ? "" : " (undeclared)"))
                if !cycle { walk(p, prefix: prefix + (last ? "    " : "│   "), path: path.union([p])) }
            }
        }
        if invocation.json {
            func node(_ number: TypeRegistry.TypeID, path: Set<TypeRegistry.TypeID>) -> PropertyList {
                var entry: [(String, PropertyList)] = [("identifier", .string(r.identifier(of: number))), ("isDeclared", .bool(r.isDeclared(number)))]
                if path.contains(number) { entry.append(("cycle", .bool(true))) }
                else { entry.append(("conformsTo", .array(r.parents(of: number).map { node($0, path: path.union([number])) }))) }
                return .dictionary(.init(uniqueKeysWithValues: entry))
            }
            if let n = r.number(of: t.identifier) { Output.line(TypeReport.encode(node(n, path: []))) }
            else { Output.line(TypeReport.json(t)) }
            return 0
        }
        if let n = r.number(of: t.identifier) { walk(n, prefix: "", path: [n]) }
        else { for parent in t.supertypes.map(\.identifier).sorted() { lines.append("└── " + parent) } }
        Output.text(lines.joined(separator: "\n") + "\n")
        return 0
    }

    func subtypes() throws(Failure) -> Int32 {
        guard invocation.operands.count == 1 else { throw Failure(message: "subtypes takes one identifier") }
        let r = try registry()
        let t = try type(invocation.operands[0], in: r)
        guard let target = r.number(of: t.identifier) else { return 0 }
        let found = r.allNumbers.filter { $0 != target && r.conforms($0, to: target) }.map(r.identifier(of:)).sorted()
        if invocation.json { Output.line(TypeReport.encode(.array(found.map(PropertyList.string)))) }
        else { for id in found { Output.line(id) } }
        return 0
    }

    func register() throws(Failure) -> Int32 {
        guard !invocation.operands.isEmpty else { throw Failure(message: "register takes bundle folders or Info.plist files") }
        do { try Registration.ensureAppsDirectory(root) } catch { throw Failure(message: "\(error)") }
        for path in invocation.operands {
            do {
                let name = try Registration.register(path, on: root)
                if !invocation.quiet { Output.line("registered \(name)") }
            } catch { throw Failure(message: "\(path): \(error.message)") }
        }
        return try rebuild()
    }

    func unregister() throws(Failure) -> Int32 {
        for name in invocation.operands {
            do { try Registration.unregister(name, on: root) } catch { throw Failure(message: "\(name): \(error.message)") }
        }
        return try rebuild()
    }

    func rebuild() throws(Failure) -> Int32 {
        let result: (registry: TypeRegistry, report: RegistryStore.BuildReport)
        do { result = try RegistryStore.rebuild(root: root, catalog: catalog) } catch {
            throw Failure(message: "cannot write the registry: \(error)")
        }
        if !invocation.quiet {
            for (file, d) in result.report.diagnostics { Output.error("\(file): \(d)") }
            for d in result.registry.diagnostics { Output.error("registry: \(d)") }
            for d in result.report.mimeDiagnostics { Output.error("\(d)") }
            Output.line("\(result.registry.typeCount) types; \(root.registryFile)")
        }
        return 0
    }

    func lint() throws(Failure) -> Int32 {
        guard !invocation.operands.isEmpty else { throw Failure(message: "lint takes Info.plist files") }
        // Lint against the system catalog alone: what other registered apps declare is no excuse.
        var diagnostics: [DeclarationDiagnostic] = []
        var system: [TypeDeclaration] = []
        for file in catalog.map(TypeCatalog.files(in:)) ?? [] {
            if let plist = try? PropertyListReader.read(contentsOf: .init(file)).value {
                system += TypeDeclaration.declarations(in: plist, source: String(file.split(separator: "/").last ?? ""), asSystem: true, diagnostics: &diagnostics)
            }
        }
        let linter = InfoPlistLinter(catalog: TypeRegistry(declarations: system), definitions: invocation.definitions)
        var failed = false
        var json: [PropertyList] = []
        for file in invocation.operands {
            var options = PropertyListReadOptions()
            options.recordsLocations = true
            let document: PropertyListDocument
            do { document = try PropertyListReader.read(contentsOf: .init(file), options: options) } catch {
                failed = true
                let finding = LintFinding(.error, error.message, at: error.keyPath ?? .root, location: error.location)
                if invocation.json { json.append(Self.json(finding, file: file)) } else { Output.line(finding.formatted(file: file)) }
                continue
            }
            for finding in linter.lint(document) {
                if finding.severity == .error { failed = true }
                if invocation.json { json.append(Self.json(finding, file: file)) } else { Output.line(finding.formatted(file: file)) }
            }
        }
        if invocation.json { Output.line(TypeReport.encode(.array(json))) }
        return failed ? 1 : 0
    }

    static func json(_ f: LintFinding, file: String) -> PropertyList {
        var d: [(String, PropertyList)] = [("file", .string(file)), ("severity", .string(f.severity.rawValue)),
                                           ("message", .string(f.message)), ("keyPath", .string(f.keyPath.description))]
        if case .text(let line, let column)? = f.location { d += [("line", .integer(Int64(line))), ("column", .integer(Int64(column)))] }
        return .dictionary(.init(uniqueKeysWithValues: d))
    }

    func graph() throws(Failure) -> Int32 {
        let r = try registry()
        var nodes: [TypeRegistry.TypeID] = []
        if invocation.operands.isEmpty {
            nodes = Array(r.allNumbers)
        } else {
            var set: Set<TypeRegistry.TypeID> = []
            for id in invocation.operands {
                _ = try type(id, in: r)
                guard let n = r.number(of: id) else { continue }
                set.insert(n)
                set.formUnion(r.supertypes(of: n))
            }
            nodes = set.sorted()
        }
        var dot = "digraph conformance {\n  rankdir=BT;\n  node [shape=box, fontname=\"Helvetica\"];\n"
        func quoted(_ s: String) -> String { "\"" + s.replacing("\"", with: "\\\"") + "\"" }
        for n in nodes {
            let style = r.isDeclared(n) ? "" : " [style=dashed]"
            dot += "  \(quoted(r.identifier(of: n)))\(style);\n"
        }
        for n in nodes {
            for p in r.parents(of: n) { dot += "  \(quoted(r.identifier(of: n))) -> \(quoted(r.identifier(of: p)));\n" }
        }
        dot += "}\n"
        switch invocation.format {
        case "dot": Output.text(dot)
        case "svg":
            guard let svg = ExternalCommand.run(["dot", "-Tsvg"], input: Array(dot.utf8)) else {
                throw Failure(message: "--format svg needs Graphviz's dot (apt-get install graphviz); --format dot prints the graph")
            }
            Output.text(String(decoding: svg, as: UTF8.self))
        default: throw Failure(message: "--format takes dot or svg")
        }
        return 0
    }

    func completions() throws(Failure) -> Int32 {
        guard let shell = invocation.operands.first, let script = Completions.script(for: shell) else {
            throw Failure(message: "completions takes bash, zsh or fish")
        }
        Output.text(script)
        return 0
    }

    func dump() throws(Failure) -> Int32 {
        let r = try registry()
        if invocation.json {
            let types = r.allNumbers.compactMap { UTType(r.identifier(of: $0), in: r)?.propertyListRepresentation }
            Output.line(TypeReport.encode(.dictionary([
                "catalog": .string(catalog ?? ""), "registry": .string(root.registryFile),
                "types": .array(types), "diagnostics": .array(r.diagnostics.map { .string($0.description) }),
            ])))
            return 0
        }
        var out = "catalog: \(catalog ?? "(none)")\nregistry: \(root.registryFile)\n"
        for n in r.allNumbers {
            guard let t = UTType(r.identifier(of: n), in: r) else { continue }
            out += "\n" + TypeReport.text(t)
        }
        out += "\ndiagnostics:\n" + r.diagnostics.map { "  \($0)\n" }.joined()
        Output.text(out)
        return 0
    }
}
