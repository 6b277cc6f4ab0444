import PropertyLists
import UniformTypes

/// How `uti info` and `uti dump` print a type.
enum TypeReport {
    static func encode(_ value: PropertyList) -> String {
        String(decoding: (try? JSONPropertyListWriter(prettyPrinted: true).write(value)) ?? [], as: UTF8.self)
    }

    static func json(_ t: UTType) -> String { encode(t.propertyListRepresentation) }

    static func text(_ t: UTType) -> String {
        var out = "identifier: \(t.identifier)\n"
        if let d = t.localizedDescription { out += "description: \(d)\n" }
        var kinds: [String] = [t.isDeclared ? "declared" : t.isDynamic ? "dynamic" : "undeclared"]
        if t.isPublic { kinds.append("public") }
        if let source = t.declaringSource, let declaration = t.declaration {
            let part = declaration.isCoreType ? " (CoreTypes)" : ""
            kinds.append("\(declaration.kind) by \(source)\(part)")
        }
        out += "kind: \(kinds.joined(separator: ", "))\n"
        if case .array(let parents)? = t.propertyListRepresentation["conformsTo"], !parents.isEmpty {
            out += "conforms to: \(parents.compactMap(\.stringValue).joined(separator: ", "))\n"
        }
        let supertypes = t.supertypes.map(\.identifier).sorted()
        if !supertypes.isEmpty { out += "supertypes: \(supertypes.joined(separator: ", "))\n" }
        for (tagClass, tags) in t.tags.sorted(by: { $0.key < $1.key }) where !tags.isEmpty {
            out += "\(tagClass.rawValue): \(tags.joined(separator: ", "))\n"
        }
        if let url = t.referenceURLString { out += "reference: \(url)\n" }
        if let v = t.versionString { out += "version: \(v)\n" }
        return out
    }
}
