import SystemCalls
import AppRegistry
import ToolSupport
import PropertyLists
import UniformTypes

/// Carries out a parsed `uti` invocation; returns the exit status.
struct UtiCommands {
    let command: UtiCommand
    let root: DeviceRoot
    let catalog: String?

    init(_ command: UtiCommand) {
        self.command = command
        root = DeviceRoot.resolve(explicit: command[.root])
        catalog = TypeCatalog.directory(for: root)
    }

    var operands: [String] { command.operands }
    var json: Bool { command.flag(.json) }
    var quiet: Bool { command.flag(.quiet) }

    /// The catalog, or the failure naming every place looked in: without one, every answer
    /// would be a dynamic type.
    func requiredCatalog() throws(Failure) -> String {
        do { return try TypeCatalog.required(for: root) } catch { throw Failure(message: "\(error)") }
    }

    /// What went wrong, said as the tool prints it, with the exit status.
    typealias Failure = ToolFailure

    /// The registry; a root that was named must exist (a typo creates nothing).
    func registry() throws(Failure) -> TypeRegistry {
        do { return try RegistryStore.forQuery(root: root) } catch { throw Failure(message: "\(error)") }
    }

    func type(_ identifier: String, in registry: TypeRegistry) throws(Failure) -> UTType {
        if let problem = TypeIdentifierSyntax.problem(with: identifier) {
            throw Failure(message: "invalid type identifier '\(identifier)': \(problem)")
        }
        guard let t = UTType(identifier, in: registry) else { throw Failure(message: "unknown type \(identifier)") }
        return t
    }

    func run() throws(Failure) -> Int32 {
        switch command.verb {
        case .conforms: return try conforms()
        case .info: return try info()
        case .forExtension: return try forTags(.filenameExtension)
        case .forMime: return try forTags(.mimeType)
        case .forFile: return try forFiles()
        case .tree: return try tree()
        case .subtypes: return try subtypes()
        case .register: return try register()
        case .unregister: return try unregister()
        case .rebuild: return try rebuild()
        case .lint: return try lint()
        case .graph: return try graph()
        case .completions: return try completions()
        case .dump: return try dump()
        case nil: throw Failure(message: "name a verb (see uti --help)")
        }
    }

    func conforms() throws(Failure) -> Int32 {
        let r = try registry()
        let a = try type(operands[0], in: r), b = try type(operands[1], in: r)
        let answer = a.conforms(to: b)
        if !quiet { Output.line(answer ? "true" : "false") }
        return answer ? 0 : 1
    }

    func info() throws(Failure) -> Int32 {
        let r = try registry()
        let t: UTType
        if let ext = command[.extension] {
            guard let found = UTType(filenameExtension: ext, in: r) else { throw Failure(message: "no type for extension \(ext)") }
            t = found
        } else if let mime = command[.mime] {
            guard let found = UTType(mimeType: mime, in: r) else { throw Failure(message: "no type for MIME type \(mime)") }
            t = found
        } else if let path = command[.file] {
            guard FileSystem.exists(path) else { throw Failure(message: "\(path): no such file") }
            t = FileTypeDetector(registry: r).type(ofFileAt: path).type
        } else {
            guard operands.count == 1 else { throw Failure(message: "info takes one identifier, or --extension, --mime or --file") }
            t = try type(operands[0], in: r)
        }
        if json {
            Output.line(TypeReport.json(t))
        } else {
            Output.text(TypeReport.text(t))
        }
        return 0
    }

    func forTags(_ tagClass: TagClass) throws(Failure) -> Int32 {
        let r = try registry()
        let constraint: UTType?
        if let c = command[.conformingTo] { constraint = try type(c, in: r) } else { constraint = UTType("public.data", in: r) }
        var values: [PropertyList] = []
        for tag in operands {
            if command.flag(.all) {
                let candidates = UTType.types(tag: tag, tagClass: tagClass, conformingTo: constraint, in: r)
                let ids = candidates.isEmpty
                    ? [UTType(tag: tag, tagClass: tagClass, conformingTo: constraint, in: r)?.identifier ?? ""]
                    : candidates.map(\.identifier)
                if json { values.append(.dictionary([ "tag": .string(tag), "types": .array(ids.map(PropertyList.string))])) }
                else { Output.line("\(tag)\t\(ids.joined(separator: " "))") }
            } else {
                let id = UTType(tag: tag, tagClass: tagClass, conformingTo: constraint, in: r)?.identifier ?? ""
                if json { values.append(.dictionary(["tag": .string(tag), "identifier": .string(id)])) }
                else { Output.line(id) }
            }
        }
        if json { Output.line(TypeReport.encode(.array(values))) }
        return 0
    }

    func forFiles() throws(Failure) -> Int32 {
        let detector = FileTypeDetector(registry: try registry())
        var values: [PropertyList] = []
        let evidence = command[.by].flatMap(FileTypeDetector.Evidence.init(rawValue:)) ?? .nameAndContent
        for path in operands {
            guard FileSystem.exists(path) else { throw Failure(message: "\(path): no such file") }
            let answer = detector.type(ofFileAt: path, judgedBy: evidence)
            // What nothing names is application/octet-stream, as GIO says.
            let mime = answer.mimeType ?? "application/octet-stream"
            let shown = command.flag(.mime) ? mime : answer.type.identifier
            if json {
                values.append(.dictionary(["path": .string(path), "identifier": .string(answer.type.identifier), "mimeType": .string(mime),
                                           "reason": .string(answer.rule.description)]))
            } else if command.flag(.explain) {
                Output.line("\(TerminalText.escaped(path)): \(shown) (\(answer.rule))")
            } else {
                Output.line(shown)
            }
        }
        if json { Output.line(TypeReport.encode(.array(values))) }
        return 0
    }
}
