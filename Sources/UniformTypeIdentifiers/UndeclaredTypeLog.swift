import Logging
import Synchronization
import UniformTypes

/// The warning Apple logs when `UTType(exportedAs:)` or `UTType(importedAs:)` names a type the
/// app does not declare, so that a missing `UTExportedTypeDeclarations` entry shows up on Linux as
/// it does in Xcode's console.
///
/// macOS checks the calling app's own Info.plist. A Linux process has no bundle of its own to
/// read, so this checks the registry: an exported type must be declared, and not only imported;
/// an imported type must be declared. Each identifier is reported once per process.
enum UndeclaredTypeLog {
    private static let log = Logger(label: "UniformTypeIdentifiers")
    private static let reported = Mutex<Set<String>>([])

    /// Logs once if `type`, asked for as `identifier`, lacks the declaration the call assumes.
    static func check(_ type: UTType, identifier: String, exported: Bool) {
        guard let problem = problem(type, identifier: identifier, exported: exported) else { return }
        let key = TypeIdentifierSyntax.normalized(identifier)
        guard reported.withLock({ $0.insert(key).inserted }) else { return }
        log.warning("\(problem)")
    }

    /// What is missing, in one sentence, or `nil` when the declaration is there.
    static func problem(_ type: UTType, identifier: String, exported: Bool) -> String? {
        let registry = type.registry
        let declaration = registry.number(of: identifier).flatMap(registry.declaration(of:))
        let call = exported ? "UTType(exportedAs: \"\(identifier)\")" : "UTType(importedAs: \"\(identifier)\")"
        guard let declaration else {
            let key = exported ? "UTExportedTypeDeclarations" : "UTImportedTypeDeclarations"
            return "\(call): no registered app declares this type; add it to the app's \(key) and register the app"
        }
        if exported, declaration.kind == .imported {
            return "\(call): \(declaration.source) declares this type as imported, not exported; move it to UTExportedTypeDeclarations"
        }
        return nil
    }
}
