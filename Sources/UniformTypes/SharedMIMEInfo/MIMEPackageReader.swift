internal import CLibXML2
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads one `mime/packages/*.xml` file of the freedesktop.org shared MIME database with libxml2.
///
/// Safe on hostile input as the property-list reader is: no network, no external DTD, no entity
/// substitution, and libxml2's own limits on depth and expansion. A malformed file is an error
/// naming the file and line; a malformed element inside a well-formed file (a magic value that is
/// not a number, a priority out of range) is reported and skipped, as `update-mime-database` does.
public enum MIMEPackageReader {
    /// What a package file declares, in file order, with the problems found.
    public struct Package: Sendable {
        /// Each `<mime-type>`, in file order (one type may appear more than once).
        public var types: [Entry] = []
        /// Problems with individual elements, each with its line.
        public var diagnostics: [MIMEPackageDiagnostic] = []
    }

    /// One `<mime-type>` element.
    public struct Entry: Sendable {
        /// The type's definition as this element gives it.
        public var definition: MIMETypeDefinition
        /// `<glob-deleteall/>`: the globs of earlier packages are dropped.
        public var deletesGlobs = false
        /// `<magic-deleteall/>`: the magic of earlier packages is dropped.
        public var deletesMagic = false
    }

    private static let initialized: Void = { xmlInitParser() }()

    /// Parses a package file's bytes; `path` names it in sources and messages.
    /// - Throws: ``MIMEPackageDiagnostic`` when the file is not well-formed XML or not a
    ///   `<mime-info>` document.
    public static func read(_ bytes: [UInt8], path: String) throws(MIMEPackageDiagnostic) -> Package {
        _ = initialized
        guard bytes.count < Int(Int32.max) else { throw MIMEPackageDiagnostic(file: path, line: 0, message: "file over 2 GiB") }
        guard let ctxt = xmlNewParserCtxt() else { throw MIMEPackageDiagnostic(file: path, line: 0, message: "libxml2 could not create a parser") }
        defer { xmlFreeParserCtxt(ctxt) }
        // Errors go to this parse rather than to libxml2's default printer on stderr.
        final class ErrorBox { var first: (Int, String)? }
        let box = ErrorBox()
        let unmanaged = Unmanaged.passRetained(box)
        defer { unmanaged.release() }
        xmlSetStructuredErrorFunc(unmanaged.toOpaque()) { context, error in
            guard let context, let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            let box = Unmanaged<ErrorBox>.fromOpaque(context).takeUnretainedValue()
            if box.first == nil {
                let message = error.pointee.message.map { String(cString: $0) } ?? "XML error"
                box.first = (Int(error.pointee.line), message.split(whereSeparator: \.isNewline).joined(separator: " "))
            }
        }
        defer { xmlSetStructuredErrorFunc(nil, nil) }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOERROR.rawValue)
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                xmlCtxtReadMemory(ctxt, chars.baseAddress, Int32(chars.count), path, nil, options)
            }
        }
        guard let document else {
            let (line, message) = box.first ?? (0, "not well-formed XML")
            throw MIMEPackageDiagnostic(file: path, line: line, message: message)
        }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document), isNamed(root, "mime-info") else {
            throw MIMEPackageDiagnostic(file: path, line: 1, message: "the root element is not <mime-info>")
        }
        var package = Package()
        forEachElement(under: root) { node in
            guard isNamed(node, "mime-type") else { return }
            if let entry = readType(node, path: path, diagnostics: &package.diagnostics) { package.types.append(entry) }
        }
        return package
    }

    // MARK: Elements

    private static func readType(_ node: xmlNodePtr, path: String, diagnostics: inout [MIMEPackageDiagnostic]) -> Entry? {
        let line = Int(xmlGetLineNo(node))
        func problem(_ message: String, _ at: xmlNodePtr) {
            diagnostics.append(MIMEPackageDiagnostic(file: path, line: Int(xmlGetLineNo(at)), message: message))
        }
        guard let type = attribute(node, "type"), MIMETypeSyntax.isValid(type) else {
            problem("<mime-type> without a valid type=\"media/subtype\" attribute; skipped", node)
            return nil
        }
        var entry = Entry(definition: MIMETypeDefinition(mimeType: type, source: "\(path):\(line)"))
        forEachElement(under: node) { child in
            switch Tag(child) {
            case .comment?:
                let text = content(child)
                if let language = attribute(child, "lang", namespace: "http://www.w3.org/XML/1998/namespace") {
                    entry.definition.localizedComments[language] = text
                } else {
                    entry.definition.comment = text
                }
            case .acronym?: entry.definition.acronym = content(child)
            case .expandedAcronym?: entry.definition.expandedAcronym = content(child)
            case .icon?: entry.definition.icon = attribute(child, "name")
            case .genericIcon?: entry.definition.genericIcon = attribute(child, "name")
            case .alias?:
                if let alias = attribute(child, "type"), MIMETypeSyntax.isValid(alias) { entry.definition.aliases.append(alias) }
                else { problem("<alias> without a valid type; skipped", child) }
            case .subClassOf?:
                if let parent = attribute(child, "type"), MIMETypeSyntax.isValid(parent) { entry.definition.parents.append(parent) }
                else { problem("<sub-class-of> without a valid type; skipped", child) }
            case .glob?:
                guard let pattern = attribute(child, "pattern"), !pattern.isEmpty else { problem("<glob> without a pattern; skipped", child); return }
                var weight = 50
                if let text = attribute(child, "weight") {
                    guard let w = Int(text), (0...100).contains(w) else { problem("glob weight '\(text)' is not 0-100; skipped", child); return }
                    weight = w
                }
                entry.definition.globs.append(MIMEGlob(pattern: pattern, weight: weight, caseSensitive: attribute(child, "case-sensitive") == "true"))
            case .globDeleteAll?: entry.deletesGlobs = true
            case .magicDeleteAll?: entry.deletesMagic = true
            case .magic?:
                var priority = 50
                if let text = attribute(child, "priority") {
                    guard let p = Int(text), (0...100).contains(p) else { problem("magic priority '\(text)' is not 0-100; skipped", child); return }
                    priority = p
                }
                var matches: [MIMEMagicMatch] = []
                forEachElement(under: child) { m in
                    if isNamed(m, "match"), let match = readMatch(m, depth: 0, path: path, diagnostics: &diagnostics) { matches.append(match) }
                }
                if !matches.isEmpty { entry.definition.magic.append(MIMEMagic(priority: priority, matches: matches)) }
            case .rootXML?:
                if let local = attribute(child, "localName") {
                    entry.definition.rootXML.append(MIMERootXML(namespaceURI: attribute(child, "namespaceURI") ?? "", localName: local))
                }
            default: break   // treemagic and unknown elements: not used for content typing here
            }
        }
        return entry
    }

    /// Nested matches deeper than this are refused (the database's deepest is 4).
    static let maximumMatchDepth = 32

    private static func readMatch(_ node: xmlNodePtr, depth: Int, path: String, diagnostics: inout [MIMEPackageDiagnostic]) -> MIMEMagicMatch? {
        let line = Int(xmlGetLineNo(node))
        do throws(MIMEMagicValueError) {
            guard depth < maximumMatchDepth else { throw MIMEMagicValueError("nested deeper than \(maximumMatchDepth) levels") }
            guard let type = attribute(node, "type") else { throw MIMEMagicValueError("<match> without a type") }
            guard let valueText = attribute(node, "value") else { throw MIMEMagicValueError("<match> without a value") }
            guard let offsetText = attribute(node, "offset") else { throw MIMEMagicValueError("<match> without an offset") }
            let kind = try MIMEMagicValue.Kind(type)
            let value = try MIMEMagicValue.bytes(valueText, kind: kind)
            var mask: [UInt8]?
            if let text = attribute(node, "mask") { mask = try MIMEMagicValue.mask(text, kind: kind, length: value.count) }
            let (start, length) = try MIMEMagicValue.offsets(offsetText)
            var children: [MIMEMagicMatch] = []
            forEachElement(under: node) { m in
                if isNamed(m, "match"), let match = readMatch(m, depth: depth + 1, path: path, diagnostics: &diagnostics) { children.append(match) }
            }
            return MIMEMagicMatch(rangeStart: start, rangeLength: length, value: value, mask: mask, children: children)
        } catch {
            diagnostics.append(MIMEPackageDiagnostic(file: path, line: line, message: "\(error.message); this <match> is skipped"))
            return nil
        }
    }

    // MARK: libxml2 tree helpers

    // Element and attribute names are compared as C strings: a database has about 50,000 elements,
    // and making a Swift string of each name cost a good part of a rebuild.
    private static func forEachElement(under node: xmlNodePtr, _ body: (xmlNodePtr) -> Void) {
        var child = node.pointee.children
        while let c = child {
            if c.pointee.type == XML_ELEMENT_NODE { body(c) }
            child = c.pointee.next
        }
    }

    static func isNamed(_ node: xmlNodePtr, _ name: StaticString) -> Bool {
        guard let n = node.pointee.name else { return false }
        return strcmp(UnsafeRawPointer(n).assumingMemoryBound(to: CChar.self), UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)) == 0
    }

    /// The elements of a `<mime-type>` that are read here.
    private enum Tag {
        case comment, acronym, expandedAcronym, icon, genericIcon, alias, subClassOf, glob, globDeleteAll, magic, magicDeleteAll, rootXML

        static let names: [(tag: Tag, name: StaticString)] = [
            (.comment, "comment"), (.glob, "glob"), (.magic, "magic"), (.alias, "alias"), (.subClassOf, "sub-class-of"),
            (.genericIcon, "generic-icon"), (.icon, "icon"), (.acronym, "acronym"), (.expandedAcronym, "expanded-acronym"),
            (.globDeleteAll, "glob-deleteall"), (.magicDeleteAll, "magic-deleteall"), (.rootXML, "root-XML"),
        ]

        init?(_ node: xmlNodePtr) {
            guard let found = Self.names.first(where: { MIMEPackageReader.isNamed(node, $0.name) }) else { return nil }
            self = found.tag
        }
    }

    /// An attribute's value, read from the tree in place (no copy to free with `xmlFree`, a
    /// global libxml2 variable Swift's strict concurrency will not let us read).
    private static func attribute(_ node: xmlNodePtr, _ name: String, namespace: String? = nil) -> String? {
        var attr = node.pointee.properties
        while let a = attr {
            defer { attr = a.pointee.next }
            guard let n = a.pointee.name, strcmp(UnsafeRawPointer(n).assumingMemoryBound(to: CChar.self), name) == 0 else { continue }
            let ns = a.pointee.ns.flatMap { $0.pointee.href }
            if let namespace {
                guard let ns, strcmp(UnsafeRawPointer(ns).assumingMemoryBound(to: CChar.self), namespace) == 0 else { continue }
            } else if ns != nil { continue }
            return text(of: a.pointee.children)
        }
        return nil
    }

    private static func content(_ node: xmlNodePtr) -> String { text(of: node.pointee.children) }

    /// The text of a chain of sibling nodes (text and entity-free content), concatenated.
    private static func text(of first: xmlNodePtr?) -> String {
        var out = ""
        var node = first
        while let n = node {
            if n.pointee.type == XML_TEXT_NODE || n.pointee.type == XML_CDATA_SECTION_NODE, let c = n.pointee.content {
                out += String(cString: c)
            }
            node = n.pointee.next
        }
        return out
    }
}

/// A problem in a package file: the file, the line, and what is wrong.
public struct MIMEPackageDiagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    /// The package file.
    public var file: String
    /// The 1-based line (0 when unknown).
    public var line: Int
    /// What is wrong.
    public var message: String

    /// `FILE:LINE: message`.
    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}

/// The form of a MIME type name: `media/subtype`, printable ASCII without spaces.
enum MIMETypeSyntax {
    static func isValid(_ s: String) -> Bool {
        guard let slash = s.firstIndex(of: "/"), slash != s.startIndex, s.index(after: slash) != s.endIndex else { return false }
        return s.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F } && s.utf8.filter { $0 == 0x2F }.count == 1
    }
}
