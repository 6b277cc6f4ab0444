import SystemCalls

/// The type of a file, and the rule that decided.
///
/// With the shared MIME database in the registry (the usual case on Linux), this follows GIO's
/// `g_content_type_guess` step for step, so that the answers agree with the desktop's:
///
/// 1. The name's globs (``ContentTypingTable/candidates(forName:)``). One candidate decides.
///    None: the extension's declared type (from the catalog or an app) stands in, if there is one;
///    magic outweighs it unless that type conforms to what the magic found.
/// 2. Otherwise the content: the first magic rule that holds, by priority; else text/plain when the
///    first 32 bytes have no control character but tab, line feed and carriage return, or when no
///    byte at all is a control character but whitespace and backspace; else nothing. Empty data
///    is `application/x-zerosize`; an empty *file* is text, as GIO types files (``emptyFile(named:)``). A desktop entry recognised by content alone, under a name that
///    says otherwise, is only text (GIO's guard against disguised launchers).
/// 3. Name candidates and content together: a magic match of priority 80 or more wins; else the
///    first name candidate that is the content's type or a subclass of it; else the first name
///    candidate (highest glob weight). No name candidate: the content's type.
///
/// Without the database, the name's extension decides first, then an own table of signatures
/// (``ContentSignatures``) and the text test. Either way an unrecognised file whose extension no
/// type claims gets that extension's dynamic type, as on macOS.
///
/// ```swift
/// let answer = FileTypeDetector(registry: registry).type(ofFileAt: "notes/file.person")
/// print(answer.type.identifier, answer.rule)   // com.example.person, extension "person"
/// ```
public struct FileTypeDetector: Sendable {
    /// The registry types are looked up in.
    public var registry: TypeRegistry
    /// How many bytes of content are read at most (64 KiB, as GIO's own test of the database reads).
    public var sniffLength = 65_536

    /// Creates a detector.
    public init(registry: TypeRegistry) { self.registry = registry }

    /// What a file is judged by.
    public enum Evidence: String, Sendable, Hashable, CaseIterable {
        /// Its name only (its content is never read).
        case name
        /// Its content only (its name is ignored).
        case content
        /// Both, as GIO judges a file.
        case nameAndContent = "both"
    }

    /// A type and the rule behind it.
    public struct Answer: Sendable {
        /// The type.
        public var type: UTType
        /// Why.
        public var rule: Rule
        /// The MIME type the shared MIME database's globs or magic named, as the database spells
        /// it (`nil` when no rule of the database decided). Two MIME types Apple folds into one
        /// type stay apart here: a `.m3u8` playlist is `application/vnd.apple.mpegurl`.
        public var matchedMIMEType: String?

        /// Creates an answer.
        public init(type: UTType, rule: Rule, matchedMIMEType: String? = nil) {
            self.type = type
            self.rule = rule
            self.matchedMIMEType = matchedMIMEType
        }

        /// The MIME type to report: the one the database matched, else the type's preferred one
        /// (inherited from its parents when it has none, ``MIMEAnswer``).
        public var mimeType: String? { matchedMIMEType ?? MIMEAnswer.mimeType(of: type) }
    }

    /// The extension of the last path component, if it has one (`archive.tar.gz` → `gz`).
    public static func filenameExtension(of path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex, name.index(after: dot) != name.endIndex else { return nil }
        return String(name[name.index(after: dot)...])
    }

    /// The last path component.
    static func baseName(of path: String) -> String {
        var p = Substring(path)
        while p.count > 1, p.last == "/" { p = p.dropLast() }
        return String(p.split(separator: "/").last ?? p)
    }

    /// The type of the file at `path`, judged by `evidence`.
    public func type(ofFileAt path: String, judgedBy evidence: Evidence = .nameAndContent) -> Answer {
        let name = evidence == .content ? nil : Self.baseName(of: path)
        let status: FileStatus
        do { status = try FileSystem.statusOrError(path) } catch { return unreadableOrGuess(name, evidence, error) }
        if status.kind == .directory {
            let ext = name.flatMap(Self.filenameExtension(of:))
            let byName = ext.flatMap { UTType(tag: $0, tagClass: .filenameExtension, conformingTo: nil, in: registry) }
            if let byName, byName.isDeclared, let package = UTType("com.apple.package", in: registry), byName.conforms(to: package) {
                return Answer(type: byName, rule: .filenameExtension(ext!))
            }
            if let folder = UTType("public.folder", in: registry) ?? UTType("public.directory", in: registry) {
                return Answer(type: folder, rule: .directory)
            }
            return fallback(ext, rule: .directory)
        }
        if evidence == .name { return guess(name: name, content: nil) }
        if status.kind == .regular, status.size == 0, let empty = emptyFile(named: name) { return empty }
        // Only a name that cannot decide alone makes the content worth reading.
        if let name, let decided = decidedByName(name) { return decided }
        do {
            let file = try OwnedDescriptor.open(path, .readOnly, options: [.noControllingTerminal, .nonBlocking])
            return guess(name: name) { (buffer, offset) throws(SystemCallError) in try file.read(into: buffer, at: offset) }
        } catch {
            return unreadable(name, error.errno.description)
        }
    }

    /// The answer for a path that could not be looked at: by name alone when that is allowed.
    private func unreadableOrGuess(_ name: String?, _ evidence: Evidence, _ error: SystemCallError) -> Answer {
        if evidence == .name { return guess(name: name, content: nil) }
        if let name, let decided = decidedByName(name) { return decided }
        return unreadable(name, error.errno.description)
    }

    /// The type of a regular file already open as `fd`, named `name` (the name first, then the
    /// content, read with `pread` so the descriptor's offset is left alone). For a receiver that
    /// judges what it opened, never a path that may have changed since.
    public func type(ofFileNamed name: String, openAs fd: Int32) -> Answer {
        let file = BorrowedDescriptor(fd)
        if let status = try? file.status(), status.kind == .regular, status.size == 0,
           let empty = emptyFile(named: Self.baseName(of: name)) { return empty }
        if let decided = decidedByName(Self.baseName(of: name)) { return decided }
        return guess(name: Self.baseName(of: name)) { (buffer, offset) throws(SystemCallError) in try file.read(into: buffer, at: offset) }
    }

    /// Judges by the first `sniffLength` bytes, read with `read(buffer, offset)` (a positional
    /// read, so a caller's descriptor offset is left alone).
    private func guess(name: String?, read: (UnsafeMutableRawBufferPointer, Int64) throws(SystemCallError) -> Int) -> Answer {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: sniffLength, alignment: 16)
        defer { buffer.deallocate() }
        var count = 0
        while count < buffer.count {
            let n: Int
            do { n = try read(UnsafeMutableRawBufferPointer(rebasing: buffer[count...]), Int64(count)) } catch {
                return unreadable(name, error.errno.description)
            }
            if n == 0 { break }
            count += n
        }
        return guess(name: name, content: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
    }

    private func unreadable(_ name: String?, _ why: String) -> Answer {
        var answer = guess(name: name, content: nil)
        answer.rule = .unreadable(why)
        return answer
    }

    /// An empty regular file, as GIO types a file (`g_file_query_info`): text, so that a file
    /// just created opens in a text editor (GLib never sniffs an empty file, and answers
    /// `text/plain` for every one: `application/x-zerosize` is `g_content_type_guess`'s answer for
    /// empty data, which no app claims). A name whose type is text keeps that type (`empty.py` is
    /// a Python script, which is text); any other name gives plain text (`empty.png` is not an
    /// image yet). `nil` without the shared MIME database: the name decides, as on macOS.
    private func emptyFile(named name: String?) -> Answer? {
        guard let table = registry.contentTyping, let text = table.plainText else { return nil }
        let plain = UTType(number: table.type(text), in: registry)
        if let name {
            let byName = guess(name: name, content: nil)
            if byName.type.isDeclared, byName.type.conforms(to: plain) {
                return Answer(type: byName.type, rule: .emptyFile, matchedMIMEType: byName.matchedMIMEType)
            }
        }
        return Answer(type: plain, rule: .emptyFile, matchedMIMEType: table.name(text))
    }

    /// The answer when the name alone decides (one glob candidate), without reading anything.
    private func decidedByName(_ name: String) -> Answer? {
        guard let table = registry.contentTyping else {
            guard let ext = Self.filenameExtension(of: name),
                  let t = UTType(tag: ext, tagClass: .filenameExtension, conformingTo: nil, in: registry), t.isDeclared else { return nil }
            return Answer(type: t, rule: .filenameExtension(ext))
        }
        let found = table.candidates(forName: name)
        guard found.count == 1 else { return nil }
        return answer(found[0].mime, .fileName, ext: nil, table: table)
    }

    /// The type for a name (a path: its last component is used) and content, either of which may
    /// be absent, as GIO's `g_content_type_guess` decides (see the type's documentation); no file
    /// is touched.
    public func guess(name path: String?, content: UnsafeRawBufferPointer?) -> Answer {
        let name = path.map(Self.baseName(of:))
        guard let table = registry.contentTyping else { return guessWithoutDatabase(name: name, content: content) }
        let ext = name.flatMap(Self.filenameExtension(of:))
        let globbed = name.map { table.candidates(forName: $0).prefix(10).map(\.mime) } ?? []
        if globbed.count == 1 { return answer(globbed[0], .fileName, ext: nil, table: table) }
        // No glob: a declared type (an app's, or one only Apple knows) may still claim the extension.
        let claimed = globbed.isEmpty ? ext.flatMap { registry.firstType(tag: $0, tagClass: .filenameExtension, conformingTo: registry.publicData) } : nil
        guard let content else {
            if let first = globbed.first { return answer(first, .ambiguousFileName, ext: nil, table: table) }
            if let claimed { return Answer(type: UTType(number: claimed, in: registry), rule: .filenameExtension(ext!)) }
            return unknown(ext, .fallback, table)
        }

        var sniffed: (mime: ContentTypingTable.MIME, priority: Int, rule: Rule)?
        if content.isEmpty, let empty = table.empty {
            sniffed = (empty, 100, .emptyFile)
        } else if let match = table.magicMatch(content) {
            sniffed = (match.mime, match.priority, .magic(priority: match.priority))
        } else if let text = table.plainText, ContentSignatures.startsLikeText(content) || ContentSignatures.looksLikeText(content) {
            sniffed = (text, 0, .textContent)
        }
        if name != nil, let s = sniffed, s.mime == table.desktopEntry, let text = table.plainText {
            sniffed = (text, 0, .textContent)
        }

        if globbed.isEmpty {
            if let claimed {
                // Magic outweighs an extension the database does not know, unless the claiming
                // type conforms to what the magic found (an app's document that is a zip archive).
                if let s = sniffed, case .magic = s.rule, !registry.conforms(claimed, to: table.type(s.mime)) {
                    return answer(s.mime, s.rule, ext: ext, table: table)
                }
                return Answer(type: UTType(number: claimed, in: registry), rule: .filenameExtension(ext!))
            }
            guard let s = sniffed else { return unknown(ext, .fallback, table) }
            return answer(s.mime, s.rule, ext: ext, table: table)
        }
        if let s = sniffed {
            if s.priority >= 80 { return answer(s.mime, s.rule, ext: ext, table: table) }
            if let pick = globbed.first(where: { table.isSubclass($0, of: s.mime) }) {
                return answer(pick, .fileNameAndContent, ext: nil, table: table)
            }
        } else if let standIn = globbed.first(where: table.isStandIn) {
            // Binary content no magic knows, under a name a format the database lacks shares
            // (`*.smi`: SMIL is text, an old disk image is not): that format.
            return answer(standIn, .fileNameAndContent, ext: nil, table: table)
        }
        return answer(globbed[0], .ambiguousFileName, ext: nil, table: table)
    }

    /// The answer for a MIME type the database matched. Text under an extension no type claims
    /// becomes that extension's dynamic type conforming to `public.plain-text`, as on macOS.
    private func answer(_ mime: ContentTypingTable.MIME, _ rule: Rule, ext: String?, table: ContentTypingTable) -> Answer {
        if mime == table.unknown { return unknown(ext, rule, table) }
        let type = UTType(number: table.type(mime), in: registry)
        if let ext, mime == table.plainText, let dynamic = UTType(tag: ext, tagClass: .filenameExtension, conformingTo: type, in: registry) {
            return Answer(type: dynamic, rule: rule, matchedMIMEType: table.name(mime))
        }
        return Answer(type: type, rule: rule, matchedMIMEType: table.name(mime))
    }

    /// Nothing recognised: `application/octet-stream`, as the extension's dynamic type when there is one.
    private func unknown(_ ext: String?, _ rule: Rule, _ table: ContentTypingTable) -> Answer {
        var answer = fallback(ext, rule: rule)
        answer.matchedMIMEType = table.unknown.flatMap(table.name)
        return answer
    }

    private func guessWithoutDatabase(name: String?, content: UnsafeRawBufferPointer?) -> Answer {
        let ext = name.flatMap(Self.filenameExtension(of:))
        if let ext, let t = UTType(tag: ext, tagClass: .filenameExtension, conformingTo: nil, in: registry), t.isDeclared {
            return Answer(type: t, rule: .filenameExtension(ext))
        }
        guard let content else { return fallback(ext, rule: .fallback) }
        if let signature = ContentSignatures.match(content), let t = UTType(signature.identifier, in: registry), t.isDeclared {
            return Answer(type: t, rule: .contentSignature(signature.name))
        }
        if !content.isEmpty, ContentSignatures.isUTF8Text(content, truncated: content.count == sniffLength) {
            if let ext, let t = UTType(tag: ext, tagClass: .filenameExtension, conformingTo: UTType("public.plain-text", in: registry), in: registry) {
                return Answer(type: t, rule: .textContent)
            }
            if let t = UTType("public.plain-text", in: registry) { return Answer(type: t, rule: .textContent) }
        }
        return fallback(ext, rule: .fallback)
    }

    private func fallback(_ ext: String?, rule: Rule) -> Answer {
        if let ext, let t = UTType(filenameExtension: ext, in: registry) { return Answer(type: t, rule: rule) }
        if let data = UTType("public.data", in: registry) { return Answer(type: data, rule: rule) }
        // A catalog without public.data: the dynamic type for the (possibly empty) extension.
        let dynamic = DynamicTypeIdentifier.identifier(tag: ext ?? "", tagClass: TagClass.filenameExtension.rawValue, conformingTo: nil)
        return Answer(type: UTType(dynamic, in: registry)!, rule: rule)
    }
}
