/// Turns the shared MIME database into type declarations beside the catalog's and the apps', and
/// into the rules content typing follows (``ContentTypingInput``).
///
/// - A MIME type, or one of its aliases, that a declared type lists among its MIME tags becomes
///   that type (Apple's identifier); so does one ``ReviewedCorrespondences/sameFormat`` names. The
///   declared type gains the MIME names and extensions no other declared type claims; its
///   conformance stays as declared.
/// - Any other MIME type becomes a type of its own, identified by ``identifier(forMIMEType:)``,
///   conforming to its `sub-class-of` parents (as types), to `public.image`, `public.audio`,
///   `public.movie` or `public.font` for those media, and otherwise to `public.data`
///   (`public.plain-text` for `text/*`, as shared-mime-info's implicit rule has it; `public.item`
///   for `inode/*`). Its source names the package file and line.
/// - Every glob and magic rule is kept, attached to the type its MIME type became.
public enum SharedMIMEImport {
    /// The prefix of identifiers made for MIME types no declared type stands for.
    public static let identifierPrefix = "org.freedesktop.mime."

    /// The source recorded on declarations made from the database (followed by file and line).
    public static let sourcePrefix = "shared-mime-info "

    /// The identifier of the type made for a MIME type no declared type stands for: the prefix,
    /// then the MIME type lower-cased with `/` written `.`, `+` written `-plus-` and any other
    /// character outside letters, digits, `-` and `.` written `-xHH-` (its UTF-8 bytes in hex):
    /// `audio/x-vorbis+ogg` → `org.freedesktop.mime.audio.x-vorbis-plus-ogg`. Stable across
    /// database versions, and the same on every machine.
    public static func identifier(forMIMEType mimeType: String) -> String {
        var out = identifierPrefix
        for byte in mimeType.lowercased().utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "/"): out += "."
            case UInt8(ascii: "+"): out += "-plus-"
            default:
                let hex = String(byte, radix: 16)
                out += "-x" + (hex.count == 1 ? "0" : "") + hex + "-"
            }
        }
        return out
    }

    /// The declarations (the given ones, some with more tags, then one per MIME type of its own)
    /// and the content-typing rules, from declarations read elsewhere and a database.
    static func merge(_ declarations: [TypeDeclaration], with database: SharedMIMEDatabase) -> (declarations: [TypeDeclaration], rules: ContentTypingInput) {
        guard !database.types.isEmpty else { return (declarations, ContentTypingInput()) }
        // Which declared type answers each MIME type and extension, as the registry ranks them.
        let ranked = declarations.indices.sorted { TagClaimOrder.precedes(declarations[$0], at: $0, declarations[$1], at: $1) }
        var mimeClaim: [String: String] = [:], extensionClaim: [String: String] = [:]
        var declaredIDs: [String: Int] = [:]
        for i in ranked {
            let d = declarations[i]
            if declaredIDs[d.normalizedIdentifier] == nil { declaredIDs[d.normalizedIdentifier] = i }
            for tag in d.tags[.mimeType] ?? [] where mimeClaim[tag.lowercased()] == nil { mimeClaim[tag.lowercased()] = d.identifier }
            for tag in d.tags[.filenameExtension] ?? [] where extensionClaim[tag.lowercased()] == nil { extensionClaim[tag.lowercased()] = d.identifier }
        }

        // 1. The identifier each MIME type (and alias) becomes.
        var typeOf: [String: String] = [:]   // lower-cased MIME type or alias → identifier
        var merged: Set<String> = []          // lower-cased canonical MIME types that became declared types
        for t in database.types {
            let names = [t.mimeType] + t.aliases
            var target = names.lazy.compactMap { mimeClaim[$0.lowercased()] }.first
            if target == nil, let reviewed = ReviewedCorrespondences.sameFormat[t.mimeType.lowercased()],
               declaredIDs[TypeIdentifierSyntax.normalized(reviewed)] != nil {
                target = reviewed
            }
            if target != nil { merged.insert(t.mimeType.lowercased()) }
            typeOf[t.mimeType.lowercased()] = target ?? identifier(forMIMEType: t.mimeType)
        }
        // Aliases after every canonical name, so an alias never hides a type of its own.
        for t in database.types {
            for alias in t.aliases where typeOf[alias.lowercased()] == nil { typeOf[alias.lowercased()] = typeOf[t.mimeType.lowercased()] }
        }
        func parentIDs(_ t: MIMETypeDefinition, excluding own: String) -> [String] {
            var result: [String] = []
            for p in t.parents {
                guard let id = typeOf[p.lowercased()] ?? mimeClaim[p.lowercased()], TypeIdentifierSyntax.normalized(id) != TypeIdentifierSyntax.normalized(own),
                      !result.contains(id) else { continue }
                result.append(id)
            }
            return result
        }
        func simpleExtensions(_ t: MIMETypeDefinition) -> [String] {
            var result: [String] = []
            for g in t.globs where !g.caseSensitive {
                guard case .suffix(let suffix) = g.kind, suffix.hasPrefix("."), suffix.count > 1 else { continue }
                let ext = String(suffix.dropFirst()).lowercased()
                if !result.contains(ext) { result.append(ext) }
            }
            return result
        }

        // 2. Declarations: more tags for declared types, a new declaration for every other type.
        var out = declarations
        var rules = ContentTypingInput()
        for t in database.types {
            let id = typeOf[t.mimeType.lowercased()]!
            let mimeNames = ([t.mimeType] + t.aliases)
            if merged.contains(t.mimeType.lowercased()) {
                guard let i = declaredIDs[TypeIdentifierSyntax.normalized(id)] else { continue }
                var d = out[i]
                var mimeTags = d.tags[.mimeType] ?? []
                for name in mimeNames where !mimeTags.contains(where: { $0.lowercased() == name.lowercased() }) {
                    if let owner = mimeClaim[name.lowercased()], TypeIdentifierSyntax.normalized(owner) != d.normalizedIdentifier { continue }
                    mimeTags.append(name)
                }
                var extensions = d.tags[.filenameExtension] ?? []
                for ext in simpleExtensions(t) where extensionClaim[ext] == nil && !extensions.contains(where: { $0.lowercased() == ext }) {
                    extensions.append(ext)
                }
                if !mimeTags.isEmpty { d.tags[.mimeType] = mimeTags }
                if !extensions.isEmpty { d.tags[.filenameExtension] = extensions }
                out[i] = d
            } else {
                out.append(declaration(for: t, identifier: id, parents: parentIDs(t, excluding: id), extensions: simpleExtensions(t)))
            }
            var entry = ContentTypingInput.MIMEEntry(name: t.mimeType, identifier: id)
            entry.parents = t.parents.map { database.canonical($0) }
            let media = t.media.lowercased()
            entry.isText = media == "text"
            entry.isInode = media == "inode"
            rules.mimeTypes.append(entry)
            for g in t.globs { rules.globs.append(.init(pattern: g.pattern, weight: g.weight, caseSensitive: g.caseSensitive, mimeType: t.mimeType)) }
            for m in t.magic { rules.magic.append(.init(priority: m.priority, mimeType: t.mimeType, matches: m.matches)) }
        }
        for (ext, appleID) in ReviewedCorrespondences.sharedExtensions {
            guard let i = declaredIDs[TypeIdentifierSyntax.normalized(appleID)] else { continue }
            // The Apple type stands in the name's candidates under its own preferred MIME type, or
            // under its identifier when it has none (then the answer names no MIME type).
            let preferred = out[i].tags[.mimeType]?.first
            let name = preferred ?? appleID
            if !rules.mimeTypes.contains(where: { $0.name.lowercased() == name.lowercased() }) {
                var entry = ContentTypingInput.MIMEEntry(name: name, identifier: appleID)
                entry.isMIMEType = preferred != nil
                entry.isStandIn = true
                rules.mimeTypes.append(entry)
            }
            rules.globs.append(.init(pattern: "*." + ext, weight: 50, caseSensitive: false, mimeType: name))
        }
        return (out, rules)
    }

    static func declaration(for t: MIMETypeDefinition, identifier: String, parents: [String], extensions: [String]) -> TypeDeclaration {
        let media = t.media.lowercased()
        let mediaRoot: String? = ["image": "public.image", "audio": "public.audio", "video": "public.movie", "font": "public.font"][media]
        var conformsTo = parents
        let parentMedia = t.parents.map { $0.lowercased().split(separator: "/").first.map(String.init) ?? "" }
        if conformsTo.isEmpty {
            conformsTo = [mediaRoot ?? (media == "text" ? "public.plain-text" : media == "inode" ? "public.item" : "public.data")]
        } else if let mediaRoot, !parentMedia.contains(media) {
            conformsTo.append(mediaRoot)
        }
        var icons: [String] = [t.icon ?? t.mimeType.replacing("/", with: "-")]
        if let generic = t.genericIcon ?? (media == "inode" ? nil : "\(media)-x-generic") { icons.append(generic) }
        var tags: [TagClass: [String]] = [.mimeType: [t.mimeType] + t.aliases]
        if !extensions.isEmpty { tags[.filenameExtension] = extensions }
        var d = TypeDeclaration(identifier: identifier, conformsTo: conformsTo, description: t.comment, iconFiles: icons,
                                tags: tags, kind: .system, source: sourcePrefix + t.source)
        d.localizedDescriptions = t.localizedComments
        return d
    }
}

/// What content typing needs from the shared MIME database: its MIME types with the type each
/// became, its globs and magic by MIME type. The registry compiler turns it into the image's
/// content-typing section (``ContentTypingTable``).
///
/// Detection works on MIME types, as xdgmime does, and only its answer is turned into a type: two
/// MIME types Apple treats as one type (`audio/x-mpegurl` and `application/vnd.apple.mpegurl`) stay
/// two answers, and shared-mime-info's own `sub-class-of` hierarchy breaks ties.
struct ContentTypingInput: Sendable {
    struct MIMEEntry: Sendable, Hashable {
        /// The canonical MIME type.
        var name: String
        /// The type it became.
        var identifier: String
        /// Canonical `sub-class-of` parents.
        var parents: [String] = []
        /// A `text/*` type (shared-mime-info makes those subclasses of text/plain).
        var isText = false
        /// An `inode/*` type (not a subclass of application/octet-stream).
        var isInode = false
        /// False for a declared type that stands in the name's candidates without a MIME type.
        var isMIMEType = true
        /// A declared type standing in the name's candidates for a format the database lacks
        /// (``ReviewedCorrespondences/sharedExtensions``): binary content with no magic picks it.
        var isStandIn = false
    }
    struct Glob: Sendable, Hashable {
        var pattern: String
        var weight: Int
        var caseSensitive: Bool
        var mimeType: String
    }
    struct Magic: Sendable, Hashable {
        var priority: Int
        var mimeType: String
        var matches: [MIMEMagicMatch]
    }
    var mimeTypes: [MIMEEntry] = []
    var globs: [Glob] = []
    var magic: [Magic] = []

    var isEmpty: Bool { mimeTypes.isEmpty }
}
