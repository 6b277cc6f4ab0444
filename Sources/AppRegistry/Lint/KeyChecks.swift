import PropertyLists
import Spelling

/// Keys and value types: a misspelt key (did you mean…), and a value of the wrong type where the
/// app model reads a boolean (a string or number macOS still reads as one is only a warning).
enum KeyChecks {
    static func check(_ value: PropertyList, into out: inout LintCollector) {
        unknownKeys(value, known: InfoPlistKeys.topLevel, at: .root, into: &out)
        for (index, entry) in (value["CFBundleDocumentTypes"]?.arrayValue ?? []).enumerated() {
            unknownKeys(entry, known: InfoPlistKeys.documentType, at: PropertyListPath.root.appending("CFBundleDocumentTypes").appending(index), into: &out)
        }
        for (index, entry) in (value["CFBundleURLTypes"]?.arrayValue ?? []).enumerated() {
            unknownKeys(entry, known: InfoPlistKeys.urlType, at: PropertyListPath.root.appending("CFBundleURLTypes").appending(index), into: &out)
        }
        for key in ["UTExportedTypeDeclarations", "UTImportedTypeDeclarations"] {
            for (index, entry) in (value[key]?.arrayValue ?? []).enumerated() {
                unknownKeys(entry, known: InfoPlistKeys.typeDeclaration, at: PropertyListPath.root.appending(key).appending(index), into: &out)
            }
        }
        booleans(value, at: .root, into: &out)
    }

    /// A key of a dictionary the catalog of keys does not know, close to one it does.
    static func unknownKeys(_ value: PropertyList, known: Set<String>, at path: PropertyListPath, into out: inout LintCollector) {
        guard case .dictionary(let entries) = value else { return }
        for key in entries.keys where !known.contains(key) {
            let near = known.first { $0.lowercased() == key.lowercased() }
                ?? Spelling.nearest(to: key, among: known.sorted())
            if let near { out.add(.unknownKey, .warning, "unknown key \(key); did you mean \(near)?", path.appending(key)) }
        }
    }

    /// Boolean keys anywhere in the plist, read as the app model reads them.
    static func booleans(_ value: PropertyList, at path: PropertyListPath, into out: inout LintCollector) {
        switch value {
        case .dictionary(let entries):
            for (key, child) in entries {
                if InfoPlistKeys.booleans.contains(key) {
                    switch InfoPlistValue.boolean(child) {
                    case .boolean: break
                    case .tolerated(let truth, let from):
                        out.add(.toleratedBoolean, .warning, "\(key) is \(from), not a boolean; macOS reads it as \(truth ? "true" : "false") (write <\(truth)/>)",
                                path.appending(key), subject: "\(path.appending(key)) (\(from))", plural: "booleans written as strings or numbers",
                                advice: "macOS reads them, but write <true/> or <false/>")
                    case .invalid:
                        out.add(.valueType, .error, "\(key) must be a boolean (<true/> or <false/>), not \(child.typeNameWithArticle)", path.appending(key))
                    }
                }
                booleans(child, at: path.appending(key), into: &out)
            }
        case .array(let elements):
            for (i, element) in elements.enumerated() { booleans(element, at: path.appending(i), into: &out) }
        default: break
        }
    }
}
