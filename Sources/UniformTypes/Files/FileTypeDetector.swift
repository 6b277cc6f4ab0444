#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The type of a file: from its name first, from its content when the name has no extension or
/// one no declared type claims, and the rule that decided.
///
/// ```swift
/// let answer = FileTypeDetector(registry: registry).type(ofFileAt: "notes/file.person")
/// print(answer.type.identifier, answer.rule)   // com.example.person, extension "person"
/// ```
public struct FileTypeDetector: Sendable {
    /// The registry types are looked up in.
    public var registry: TypeRegistry
    /// How many bytes of content are read when the name does not decide.
    public var sniffLength = 4096

    /// Creates a detector.
    public init(registry: TypeRegistry) { self.registry = registry }

    /// What decided a file's type.
    public enum Rule: Sendable, Hashable, CustomStringConvertible {
        /// A declared type claims the extension.
        case filenameExtension(String)
        /// The file is a folder (a package when its extension's type is one).
        case directory
        /// The first bytes matched a known signature.
        case contentSignature(String)
        /// The content is UTF-8 text without NUL bytes.
        case textContent
        /// Nothing matched: the dynamic type for the extension, or `public.data`.
        case fallback
        /// The file could not be read; the name alone was used.
        case unreadable(String)

        /// A short sentence for `--explain`.
        public var description: String {
            switch self {
            case .filenameExtension(let ext): "the extension \"\(ext)\" is claimed by a declared type"
            case .directory: "it is a folder"
            case .contentSignature(let name): "its content starts with a \(name)"
            case .textContent: "its content is UTF-8 text"
            case .fallback: "neither its name nor its content is recognised"
            case .unreadable(let why): "its content could not be read (\(why)); judged by name"
            }
        }
    }

    /// A type and the rule behind it.
    public struct Answer: Sendable {
        /// The type.
        public var type: UTType
        /// Why.
        public var rule: Rule
    }

    /// The extension of the last path component, if it has one (`archive.tar.gz` → `gz`).
    public static func filenameExtension(of path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex, name.index(after: dot) != name.endIndex else { return nil }
        return String(name[name.index(after: dot)...])
    }

    /// The type of the file at `path`.
    public func type(ofFileAt path: String) -> Answer {
        let ext = Self.filenameExtension(of: path)
        let byName = ext.flatMap { UTType(tag: $0, tagClass: .filenameExtension, conformingTo: nil, in: registry) }
        var info = stat()
        let exists = stat(path, &info) == 0
        if exists, info.st_mode & S_IFMT == S_IFDIR {
            if let byName, byName.isDeclared, let package = UTType("com.apple.package", in: registry), byName.conforms(to: package) {
                return Answer(type: byName, rule: .filenameExtension(ext!))
            }
            if let folder = UTType("public.folder", in: registry) ?? UTType("public.directory", in: registry) {
                return Answer(type: folder, rule: .directory)
            }
            return fallback(ext, rule: .directory)
        }
        if let byName, byName.isDeclared { return Answer(type: byName, rule: .filenameExtension(ext!)) }
        guard exists else { return fallback(ext, rule: .unreadable(String(cString: strerror(errno)))) }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else { return fallback(ext, rule: .unreadable(String(cString: strerror(errno)))) }
        defer { close(fd) }
        return byContent(of: fd, ext)
    }

    /// The type of a regular file already open as `fd`, named `name` (the name first, then the
    /// content, read with `pread` so the descriptor's offset is left alone). For a receiver that
    /// judges what it opened, never a path that may have changed since.
    public func type(ofFileNamed name: String, openAs fd: Int32) -> Answer {
        let ext = Self.filenameExtension(of: name)
        if let ext, let byName = UTType(tag: ext, tagClass: .filenameExtension, conformingTo: nil, in: registry), byName.isDeclared {
            return Answer(type: byName, rule: .filenameExtension(ext))
        }
        return byContent(of: fd, ext)
    }

    private func byContent(of fd: Int32, _ ext: String?) -> Answer {
        var buffer = [UInt8](repeating: 0, count: sniffLength)
        var count = 0
        while count < buffer.count {
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + count, sniffLength - count, off_t(count)) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            count += n
        }
        let prefix = Array(buffer[..<count])
        if let signature = ContentSignatures.match(prefix), let t = UTType(signature.identifier, in: registry), t.isDeclared {
            return Answer(type: t, rule: .contentSignature(signature.name))
        }
        if count > 0, ContentSignatures.looksLikeText(prefix, truncated: count == sniffLength) {
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
