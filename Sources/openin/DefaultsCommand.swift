import AppRegistry
import Handlers
import OrderedCollections
import PropertyLists
import Spelling
import ToolSupport
import UniformTypes

/// `openin default set|get|unset|list`: the user's default app per type, checked before it is
/// stored: the type must be one the registry knows (an extension or MIME type is answered with
/// the type it stands for, never stored as given), and the app must be registered and able to
/// open it.
struct DefaultsCommand {
    let root: DeviceRoot
    let registry: TypeRegistry
    let json: Bool

    func run(_ words: [String]) throws(OpeninCommands.Failure) -> Int32 {
        var store: HandlerDefaults
        do { store = try HandlerDefaults(root: root) } catch { throw .init(message: "\(error)") }
        switch (words.first.flatMap(OpeninDefaultAction.init(rawValue:)), words.count) {
        case (.set, 3):
            let type = try knownType(words[1])
            let app = try capableApp(words[2], for: type)
            do { try store.set(type.identifier, to: app.bundleIdentifier) } catch { throw .init(message: "\(error)") }
            Output.line("\(type.identifier) → \(app.bundleIdentifier)")
            return 0
        case (.unset, 2):
            let type = try knownType(words[1])
            guard store.get(type.identifier) != nil else { Output.error("openin: no default is set for \(type.identifier)"); return 1 }
            do { try store.set(type.identifier, to: nil) } catch { throw .init(message: "\(error)") }
            return 0
        case (.get, 2):
            let type = try knownType(words[1])
            guard let found = store.applying(to: type, registry: registry) else {
                Output.error("openin: no default for \(type.identifier) or its supertypes")
                return 1
            }
            Output.line(found.distance == 0 ? found.app : "\(found.app) (set for \(found.type))")
            return 0
        case (.list, 1):
            if json {
                let entries = store.entries.map { PropertyList.dictionary(["type": .string($0.key), "app": .string($0.value)]) }
                Output.text(String(decoding: (try? JSONPropertyListWriter(prettyPrinted: true).write(.array(entries))) ?? [], as: UTF8.self) + "\n")
            } else {
                for (type, app) in store.entries { Output.line("\(type)\t\(app)") }
            }
            return 0
        default:
            throw .init(message: "default takes: set TYPE BUNDLE-ID | get TYPE | unset TYPE | list")
        }
    }

    /// The declared type `text` names; for an extension, a MIME type or a near miss, an error
    /// that suggests the identifier.
    func knownType(_ text: String) throws(OpeninCommands.Failure) -> UTType {
        if let type = UTType(text, in: registry), type.isDeclared { return type }
        var suggestion: UTType?
        if text.contains("/") {
            suggestion = UTType(mimeType: text, in: registry)
        } else if !text.contains(".") || text.hasPrefix(".") {
            suggestion = UTType(filenameExtension: text.hasPrefix(".") ? String(text.dropFirst()) : text, in: registry)
        }
        if let suggestion, suggestion.isDeclared {
            let kind = text.contains("/") ? "a MIME type" : "a filename extension"
            throw .init(message: "\(text) is \(kind), not a type identifier; did you mean \(suggestion.identifier)?")
        }
        if let problem = TypeIdentifierSyntax.problem(with: text) { throw .init(message: "'\(text)' is not a type identifier: \(problem)") }
        let near = registry.allNumbers.map(registry.identifier(of:)).filter { Spelling.distance(text.lowercased(), $0.lowercased()) <= 2 }.sorted()
        throw .init(message: "unknown type \(text)" + (near.isEmpty ? "" : "; did you mean \(near.prefix(3).joined(separator: " or "))?"))
    }

    /// The app `identifier` (registered, or a desktop-file ID), when it can open `type`
    /// (``Handlers/DocumentChooser/capableApp(_:for:)``).
    func capableApp(_ identifier: String, for type: UTType) throws(OpeninCommands.Failure) -> AppBundle {
        do {
            return try DocumentChooser(root: root, registry: registry, configuration: .init(sourceApplication: "")).capableApp(identifier, for: type)
        } catch .noSuchApp(let id) {
            throw .init(message: "no registered app \(id) on \(root.path)")
        } catch {
            throw .init(message: "\(error)")
        }
    }
}
