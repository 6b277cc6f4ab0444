import AppRegistry
import PropertyLists
import ToolSupport
import UniformTypes

/// `uti tree`, `subtypes` and `graph`: the conformance graph.
extension UtiCommands {
    func tree() throws(Failure) -> Int32 {
        let r = try registry()
        let t = try type(operands[0], in: r)
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
        if json {
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
        let r = try registry()
        let t = try type(operands[0], in: r)
        guard let target = r.number(of: t.identifier) else { return 0 }
        let found = r.allNumbers.filter { $0 != target && r.conforms($0, to: target) }.map(r.identifier(of:)).sorted()
        if json { Output.line(TypeReport.encode(.array(found.map(PropertyList.string)))) }
        else { for id in found { Output.line(id) } }
        return 0
    }

    func graph() throws(Failure) -> Int32 {
        let r = try registry()
        var nodes: [TypeRegistry.TypeID] = []
        if operands.isEmpty {
            nodes = Array(r.allNumbers)
        } else {
            var set: Set<TypeRegistry.TypeID> = []
            for id in operands {
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
        switch command[.format] ?? "dot" {
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

}
