import PropertyLists
import UniformTypes

/// `CFBundleDocumentTypes`, read as the chooser reads them (``DocumentTypeClaim``): a role or rank
/// the chooser does not know is an error because the claim then opens nothing; a claim that names
/// no declared type never matches.
struct DocumentTypeChecks {
    let declarations: DeclarationChecks

    func check(_ value: PropertyList, claims: [DocumentTypeClaim], into out: inout LintCollector) {
        let entries = value["CFBundleDocumentTypes"]?.arrayValue ?? []
        for claim in claims {
            let entry = claim.keyPath
            guard case .index(let position)? = entry.components.last, position < entries.count else { continue }
            let raw = entries[position]
            if let role = claim.unknownRole {
                out.add(.role, .error, "CFBundleTypeRole \"\(role)\" is not Editor, Viewer, Shell, QLGenerator or None; the chooser never opens documents through this entry",
                        entry.appending("CFBundleTypeRole"))
            }
            if let rank = claim.unknownRank {
                out.add(.rank, .error, "LSHandlerRank \"\(rank)\" is not Owner, Default, Alternate or None; the chooser never opens documents through this entry",
                        entry.appending("LSHandlerRank"))
            } else if raw["LSHandlerRank"] == nil, claim.usesContentTypes {
                out.add(.missingRank, .warning, "no LSHandlerRank: the rank is Default; say Owner, Default, Alternate or None", entry,
                        subject: claim.name ?? entry.description, plural: "document types without LSHandlerRank",
                        advice: "the rank is Default; say Owner, Default, Alternate or None")
            }
            if claim.usesContentTypes {
                if raw["CFBundleTypeExtensions"] != nil || raw["CFBundleTypeMIMETypes"] != nil {
                    out.add(.ignoredLegacyKeys, .warning, "CFBundleTypeExtensions and CFBundleTypeMIMETypes are ignored when LSItemContentTypes is present", entry,
                            subject: claim.name ?? entry.description, plural: "document types whose CFBundleTypeExtensions and CFBundleTypeMIMETypes are ignored",
                            advice: "LSItemContentTypes is present, and wins")
                }
                checkContentTypes(raw["LSItemContentTypes"], at: entry.appending("LSItemContentTypes"), into: &out)
            }
            for (i, ext) in claim.extensions.enumerated() {
                let path = entry.appending("CFBundleTypeExtensions").appending(i)
                if ext.isEmpty { out.add(.legacyTag, .error, "an empty extension in CFBundleTypeExtensions never matches", path) }
                else if ext.hasPrefix(".") { out.add(.legacyTag, .error, "extension \"\(ext)\" must not start with a dot", path) }
            }
            for (i, mime) in claim.mimeTypes.enumerated() where mime != "*" {
                let parts = mime.split(separator: "/", omittingEmptySubsequences: false)
                if parts.count != 2 || parts.contains(where: \.isEmpty) {
                    out.add(.legacyTag, .error, "MIME type \"\(mime)\" is not of the form type/subtype", entry.appending("CFBundleTypeMIMETypes").appending(i))
                }
            }
            for (i, code) in InfoPlistValue.strings(raw["CFBundleTypeOSTypes"]).enumerated() where code.utf8.count != 4 && code != "****" {
                out.add(.legacyTag, .error, "OSType \"\(code)\" must be exactly 4 characters", entry.appending("CFBundleTypeOSTypes").appending(i))
            }
        }
    }

    func checkContentTypes(_ value: PropertyList?, at path: PropertyListPath, into out: inout LintCollector) {
        guard let value else { return }
        var seen: Set<String> = []
        for (i, element) in (value.arrayValue ?? [value]).enumerated() {
            let elementPath = value.arrayValue == nil ? path : path.appending(i)
            guard let id = element.stringValue else { continue }
            if !seen.insert(TypeIdentifierSyntax.normalized(id)).inserted {
                out.add(.undeclaredContentType, .warning, "\(id) is listed twice", elementPath)
            } else if let problem = TypeIdentifierSyntax.problem(with: id) {
                out.add(.invalidIdentifier, .error, "invalid type identifier \"\(id)\": \(problem)", elementPath)
            } else if TypeIdentifierSyntax.normalized(id).hasPrefix("dyn.") {
                out.add(.dynamicIdentifier, .error, "\(id) is a dynamic identifier; name a declared type", elementPath)
            } else if !declarations.isKnown(id) {
                out.add(.undeclaredContentType, .error, "\(id) is declared neither in this file nor by the system, so this document type never matches",
                        elementPath, subject: id, plural: "types named in CFBundleDocumentTypes are declared neither in this file nor by the system",
                        advice: "entries naming only them never match")
            }
        }
    }
}
