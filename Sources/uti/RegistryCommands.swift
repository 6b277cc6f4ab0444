import AppRegistry
import PropertyLists
import ToolSupport
import UniformTypes

/// `uti register`, `unregister`, `rebuild` and `dump`: the registry of the device root.
extension UtiCommands {
    /// The build variables given with `--define NAME=VALUE`.
    func variables() throws(Failure) -> BuildVariables {
        var values: [String: String] = [:]
        for definition in command.all(.define) {
            guard let eq = definition.firstIndex(of: "="), eq != definition.startIndex else {
                throw Failure(message: "--define takes NAME=VALUE, not '\(definition)'")
            }
            values[String(definition[..<eq])] = String(definition[definition.index(after: eq)...])
        }
        return BuildVariables(values)
    }

    func register() throws(Failure) -> Int32 {
        let variables = try variables()
        _ = try requiredCatalog()
        for path in operands {
            do {
                let name = try Registration.register(path, on: root, variables: variables, creatingRoot: command.flag(.createRoot) || root.origin == .userDefault)
                if !quiet { Output.line("registered \(name)") }
            } catch {
                if case .noDeviceRootToCreate = error { throw Failure(message: "\(error)") }
                throw Failure(message: "\(path): \(error)")
            }
        }
        let status = try rebuild()
        syncDesktopEntries()
        return status
    }

    func unregister() throws(Failure) -> Int32 {
        if !root.exists { throw Failure(message: root.absence) }
        for name in operands {
            do { try Registration.unregister(name, on: root) } catch { throw Failure(message: "\(error)") }
        }
        let status = try rebuild()
        syncDesktopEntries()
        return status
    }

    func rebuild() throws(Failure) -> Int32 {
        if root.origin != .userDefault && !root.exists { throw Failure(message: root.absence) }
        let catalog = try requiredCatalog()
        let result: (registry: TypeRegistry, report: RegistryStore.BuildReport)
        do { result = try RegistryStore.rebuild(root: root, catalog: catalog) } catch {
            throw Failure(message: "cannot write the registry: \(error)")
        }
        if !quiet {
            for (file, d) in result.report.diagnostics { Output.error("\(file): \(d)") }
            for d in result.registry.diagnostics { Output.error("registry: \(d)") }
            for d in result.report.mimeDiagnostics { Output.error("\(d)") }
            Output.line("\(result.registry.typeCount) types; \(root.registryFile)")
        }
        return 0
    }

    func dump() throws(Failure) -> Int32 {
        let r = try registry()
        if json {
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
