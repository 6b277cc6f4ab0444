internal import CLibXML2
import OrderedCollections

/// Reads Apple's XML property lists with libxml2's SAX2 interface.
///
/// Safe on hostile input: no DTD is loaded, no network is used, any entity declaration is
/// refused (so no entity expansion attack can start), nesting is limited, and every libxml2
/// error stops the parse with its line and column.
enum XMLPropertyListParser {
    private static let initialized: Void = { xmlInitParser() }()

    static func parse(_ bytes: UnsafeRawBufferPointer, options: PropertyListReadOptions)
        throws(PropertyListError) -> PropertyListDocument
    {
        _ = initialized
        guard bytes.count < Int(Int32.max) else {
            throw PropertyListError("XML property lists over 2 GiB are not supported", format: .xml)
        }
        let source = UnsafeMutablePointer<ChunkSource>.allocate(capacity: 1)
        source.initialize(to: ChunkSource(rest: bytes))
        defer { source.deallocate() }
        guard let ctxt = makeContext(source) else {
            throw PropertyListError("libxml2 could not create a parser", format: .xml)
        }
        defer {
            // libxml2 builds a document node for a DOCTYPE's internal subset even with our SAX
            // handler, and the context does not own it (a leak the fuzzer found).
            if let doc = ctxt.pointee.myDoc { xmlFreeDoc(doc) }
            xmlFreeParserCtxt(ctxt)
        }

        // XML_PARSE_HUGE lifts libxml2's fixed depth (256) and text-node (10 MB) limits; our own
        // depth limit applies instead, and text can never exceed the input's size.
        let flags = XML_PARSE_NONET.rawValue | XML_PARSE_HUGE.rawValue | XML_PARSE_NOCDATA.rawValue
        xmlCtxtUseOptions(ctxt, Int32(flags))
        ctxt.pointee.sax.pointee = makeSAXHandler()
        ctxt.pointee.replaceEntities = 0
        ctxt.pointee.loadsubset = 0
        ctxt.pointee.validate = 0

        // The state lives behind a raw pointer rather than in a class: callbacks then mutate it
        // without the runtime's dynamic exclusivity checks, which cost a quarter of the parse.
        let state = UnsafeMutablePointer<XMLParseState>.allocate(capacity: 1)
        state.initialize(to: XMLParseState(ctxt: ctxt, options: options))
        defer { state.pointee.deallocate(); state.deinitialize(count: 1); state.deallocate() }
        ctxt.pointee.userData = UnsafeMutableRawPointer(state)
        // Errors libxml2 raises outside the parser context (encoding and I/O errors) go to its
        // per-thread handler, which would print them on stderr; route them to this parse instead.
        // Only recorded, not stopped: they arrive in the middle of libxml2's own bookkeeping
        // (switching encodings), where stopping the parser crashes it.
        xmlSetStructuredErrorFunc(UnsafeMutableRawPointer(state)) { ctx, error in
            guard let ctx, let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            let state = XMLParseState.from(ctx)
            guard state.pointee.error == nil else { return }
            let message = error.pointee.message.map { String(cString: $0) } ?? "XML error"
            state.pointee.error = PropertyListError(
                message.split(whereSeparator: { $0 == "\n" }).joined(separator: " "),
                at: state.pointee.location(), format: .xml)
        }
        defer { xmlSetStructuredErrorFunc(nil, nil) }
        let status = xmlParseDocument(ctxt)
        if let error = state.pointee.error { throw error }
        if status != 0 || ctxt.pointee.wellFormed == 0 {
            throw PropertyListError("the XML is not well-formed", at: state.pointee.location(), format: .xml)
        }
        return try state.pointee.finish()
    }

    /// A parser context that pulls `bytes` through a read callback, a few KiB at a time, into a
    /// small buffer libxml2 reuses. `xmlCreateMemoryParserCtxt` copies the whole document into a
    /// fresh buffer first, and in a short-lived process that copy costs a page fault per 4 KiB
    /// (925 of `plutil -lint`'s 4,200 faults on a 3.8 MB file) besides the copying. Parsing in
    /// place through `xmlParserInputBufferCreateStatic` is no way out: libxml2 2.9 then hands
    /// the SAX callbacks text from the wrong offset once it has shrunk the buffer.
    private static func makeContext(_ source: UnsafeMutablePointer<ChunkSource>) -> xmlParserCtxtPtr? {
        xmlCreateIOParserCtxt(nil, nil, { context, buffer, length in
            guard let context, let buffer, length > 0 else { return -1 }
            return context.assumingMemoryBound(to: ChunkSource.self).pointee.copy(into: buffer, length: Int(length))
        }, nil, UnsafeMutableRawPointer(source), XML_CHAR_ENCODING_NONE)
    }

    /// The unread rest of the input, for ``makeContext(_:)``'s read callback.
    struct ChunkSource {
        var rest: UnsafeRawBufferPointer

        mutating func copy(into buffer: UnsafeMutablePointer<CChar>, length: Int) -> Int32 {
            let n = min(length, rest.count)
            if n > 0 { UnsafeMutableRawPointer(buffer).copyMemory(from: rest.baseAddress!, byteCount: n) }
            rest = UnsafeRawBufferPointer(rebasing: rest[n...])
            return Int32(n)
        }
    }

    private static func makeSAXHandler() -> xmlSAXHandler {
        var sax = xmlSAXHandler()
        sax.initialized = UInt32(XML_SAX2_MAGIC)
        sax.startElementNs = { ctx, localname, prefix, _, _, _, _, _, _ in
            XMLParseState.from(ctx).pointee.startElement(localname!, prefix: prefix)
        }
        sax.endElementNs = { ctx, _, _, _ in XMLParseState.from(ctx).pointee.endElement() }
        sax.characters = { ctx, chars, count in XMLParseState.from(ctx).pointee.text(chars!, Int(count)) }
        sax.cdataBlock = sax.characters
        sax.ignorableWhitespace = sax.characters
        sax.entityDecl = { ctx, name, _, _, _, _ in
            XMLParseState.from(ctx).pointee.fail("entity declarations are not allowed in a property list (<!ENTITY \(XMLPropertyListParser.string(name))>)")
        }
        sax.reference = { ctx, name in
            XMLParseState.from(ctx).pointee.fail("undefined entity &\(XMLPropertyListParser.string(name));")
        }
        sax.serror = { ctx, error in
            guard let ctx, let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            let state = XMLParseState.from(ctx)
            var message = error.pointee.message.map { String(cString: $0) } ?? "XML error"
            message = message.split(whereSeparator: { $0 == "\n" }).joined(separator: " ")
            while message.last == " " { message.removeLast() }
            let location = error.pointee.line > 0
                ? SourceLocation.text(line: Int(error.pointee.line), column: Int(max(1, error.pointee.int2)))
                : state.pointee.location()
            state.pointee.fail(message, at: location)
        }
        return sax
    }

    static func string(_ p: UnsafePointer<xmlChar>?) -> String {
        p.map { String(cString: $0) } ?? ""
    }
}

/// The elements of the plist vocabulary.
private enum Element: UInt8 {
    case plist, dict, array, key, string, integer, real, `true`, `false`, date, data

    var isScalar: Bool { self != .plist && self != .dict && self != .array }

    init?(_ name: UnsafePointer<UInt8>) {
        func equals(_ literal: StaticString) -> Bool {
            let n = literal.utf8CodeUnitCount
            let p = literal.utf8Start
            for i in 0..<n where name[i] != p[i] { return false }
            return name[n] == 0
        }
        switch name[0] {
        case UInt8(ascii: "k") where equals("key"): self = .key
        case UInt8(ascii: "s") where equals("string"): self = .string
        case UInt8(ascii: "d") where equals("dict"): self = .dict
        case UInt8(ascii: "d") where equals("data"): self = .data
        case UInt8(ascii: "d") where equals("date"): self = .date
        case UInt8(ascii: "a") where equals("array"): self = .array
        case UInt8(ascii: "i") where equals("integer"): self = .integer
        case UInt8(ascii: "r") where equals("real"): self = .real
        case UInt8(ascii: "t") where equals("true"): self = .true
        case UInt8(ascii: "f") where equals("false"): self = .false
        case UInt8(ascii: "p") where equals("plist"): self = .plist
        default: return nil
        }
    }

    var tag: String { "<\(self)>" }
}

/// The parse in progress. Open containers are frames over two flat stacks (values and keys),
/// so building a container moves its children once instead of copying nested arrays.
private struct XMLParseState {
    struct Frame {
        var element: Element
        var valueStart: Int
        var keyStart: Int
        var line: Int
    }

    let ctxt: xmlParserCtxtPtr
    let options: PropertyListReadOptions
    // Small to start with: a small Info.plist, read in a process of its own, then touches no
    // more fresh pages than it needs (they grow by doubling).
    var frames = ParseStack<Frame>(capacity: 16)
    var values = ParseStack<PropertyList>(capacity: 32)
    var keys = ParseStack<String>(capacity: 32)
    /// Each key's fingerprint (``KeyInterner``), parallel to `keys`.
    var keyHashes = ParseStack<UInt64>(capacity: 32)
    var keyLines = ParseStack<Int>(capacity: 32)
    var interner = KeyInterner()
    var pendingKeyLocation: SourceLocation?
    /// The text of the open scalar element.
    var text = TextBuffer()
    var root: PropertyList?
    var error: PropertyListError?
    var duplicates: [PropertyListDocument.DuplicateKey] = []
    var locations: [PropertyListPath: SourceLocation] = [:]

    init(ctxt: xmlParserCtxtPtr, options: PropertyListReadOptions) {
        self.ctxt = ctxt
        self.options = options
    }

    /// Frees the stacks and buffers, with whatever an interrupted parse left in them.
    mutating func deallocate() {
        frames.deallocate()
        values.deallocate()
        keys.deallocate()
        keyHashes.deallocate()
        keyLines.deallocate()
        text.deallocate()
    }

    static func from(_ ctx: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<XMLParseState> {
        ctx!.assumingMemoryBound(to: XMLParseState.self)
    }

    func location() -> SourceLocation {
        guard let input = ctxt.pointee.input else { return .text(line: 0, column: 0) }
        return .text(line: Int(input.pointee.line), column: Int(max(1, input.pointee.col)))
    }

    mutating func fail(_ message: String, at location: SourceLocation? = nil) {
        guard error == nil else { return }
        error = PropertyListError(message, at: location ?? self.location(), keyPath: currentPath(), format: .xml)
        xmlStopParser(ctxt)
    }

    /// The key path of the value that would be added next, derived from the open frames.
    func currentPath() -> PropertyListPath {
        var path: [PropertyListPath.Component] = []
        for i in 0..<frames.count {
            let frame = frames[i]
            let childEnd = i + 1 < frames.count ? frames[i + 1].valueStart : values.count
            let index = childEnd - frame.valueStart
            switch frame.element {
            case .array:
                // The next child of an open array is at the count of its finished children.
                path.append(.index(index))
            case .dict:
                let keyEnd = i + 1 < frames.count ? frames[i + 1].keyStart : keys.count
                if keyEnd - frame.keyStart > index { path.append(.key(keys[frame.keyStart + index])) }
            default: break
            }
        }
        return PropertyListPath(path)
    }

    /// Whether the dictionary frame on top has a key waiting for its value.
    func hasPendingKey(_ frame: Frame) -> Bool {
        keys.count - frame.keyStart > values.count - frame.valueStart
    }

    mutating func startElement(_ name: UnsafePointer<UInt8>, prefix: UnsafePointer<UInt8>?) {
        guard error == nil else { return }
        if let prefix {
            return fail("unexpected namespaced element <\(String(cString: prefix)):\(String(cString: name))>")
        }
        if let parent = frames.last, parent.element.isScalar {
            return fail("element <\(String(cString: name))> inside \(parent.element.tag)")
        }
        guard let element = Element(name) else {
            return fail("unknown element <\(String(cString: name))>")
        }
        if let parent = frames.last {
            switch parent.element {
            case .plist:
                if values.count > parent.valueStart { return fail("<plist> holds more than one value") }
                if element == .plist { return fail("<plist> inside <plist>") }
            case .dict:
                if element == .key {
                    if hasPendingKey(parent) { return fail("two <key> elements in a row: the first has no value") }
                } else if !hasPendingKey(parent) {
                    return fail("\(element.tag) in a <dict> without a <key> before it")
                }
            case .array:
                if element == .key { return fail("<key> inside <array>") }
                if element == .plist { return fail("<plist> inside <array>") }
            default:
                return fail("element \(element.tag) inside \(parent.element.tag)")
            }
        } else if root != nil {
            return fail("more than one top-level value")
        } else if element == .key {
            return fail("<key> outside a <dict>")
        }
        if frames.count >= options.maximumDepth {
            return fail("nesting deeper than \(options.maximumDepth) levels")
        }
        if options.recordsLocations {
            let path = currentPath()
            let here = location()
            if element == .key { pendingKeyLocation = here }
            else if locations[path] == nil { locations[path] = here }
        }
        if element.isScalar { text.count = 0 }
        frames.append(Frame(element: element, valueStart: values.count, keyStart: keys.count,
                            line: location().line ?? 0))
    }

    mutating func text(_ chars: UnsafePointer<UInt8>, _ count: Int) {
        guard error == nil, let top = frames.last else { return }
        let buffer = UnsafeBufferPointer(start: chars, count: count)
        if top.element.isScalar {
            text.append(buffer)
        } else if buffer.contains(where: { !ScalarText.isSpace($0) }) {
            fail("unexpected text inside \(top.element.tag)")
        }
    }

    mutating func endElement() {
        guard error == nil, let frame = frames.popLast() else { return }
        let value: PropertyList
        switch frame.element {
        case .key:
            let (key, hash) = interner.key(text.bytes)
            keys.append(key)
            keyHashes.append(hash)
            keyLines.append(frame.line)
            if options.recordsLocations, let here = pendingKeyLocation {
                locations[currentPath()] = here
            }
            return
        case .plist:
            guard values.count > frame.valueStart else { return fail("<plist> holds no value") }
            root = values.popLast()
            return
        case .string: value = .string(String(decoding: text.bytes, as: UTF8.self))
        case .true, .false:
            if text.bytes.contains(where: { !ScalarText.isSpace($0) }) {
                return fail("\(frame.element.tag) must be empty")
            }
            value = .bool(frame.element == .true)
        case .integer:
            switch ScalarText.integer(Array(text.bytes)[...]) {
            case .success(let v): value = v
            case .failure(let e): return fail(e.message)
            }
        case .real:
            switch ScalarText.real(Array(text.bytes)[...]) {
            case .success(let v): value = .real(v)
            case .failure(let e): return fail(e.message)
            }
        case .date:
            switch ScalarText.date(Array(text.bytes)[...]) {
            case .success(let v): value = .date(v)
            case .failure(let e): return fail(e.message)
            }
        case .data:
            switch ScalarText.data(Array(text.bytes)[...]) {
            case .success(let v): value = .data(v)
            case .failure(let e): return fail(e.message)
            }
        case .array:
            value = .array(Array(values.removeAll(from: frame.valueStart)))
        case .dict:
            guard keys.count - frame.keyStart == values.count - frame.valueStart else {
                return fail("<key>\(keys.last ?? "")</key> has no value")
            }
            value = makeDictionary(frame)
        }
        if !frames.isEmpty {
            values.append(value)
        } else {
            root = value
        }
    }

    mutating func makeDictionary(_ frame: Frame) -> PropertyList {
        let count = keys.count - frame.keyStart
        var dict: OrderedDictionary<String, PropertyList>
        var repeated: [(key: String, line: Int)] = []
        if areDistinct(from: frame.keyStart) {
            // The common case, built in one go from the moved-out keys and values: inserting key
            // by key cost 3,400 instructions a dictionary (a uniqueness check, a hash-table probe
            // and two appends per key).
            dict = OrderedDictionary(uncheckedUniqueKeys: keys.removeAll(from: frame.keyStart),
                                     values: values.removeAll(from: frame.valueStart))
        } else {
            dict = OrderedDictionary(minimumCapacity: count)
            for i in 0..<count {
                let key = keys[frame.keyStart + i]
                if dict.updateValue(values[frame.valueStart + i], forKey: key) != nil {
                    repeated.append((key, keyLines[frame.keyStart + i]))
                }
            }
            keys.discard(from: frame.keyStart)
            values.discard(from: frame.valueStart)
        }
        keyHashes.discard(from: frame.keyStart)
        keyLines.discard(from: frame.keyStart)
        if !repeated.isEmpty {
            let base = currentPath()
            for (key, line) in repeated {
                duplicates.append(.init(keyPath: base.appending(key), location: .text(line: line, column: 1)))
            }
        }
        // CF's special form for keyed-archiver references: a lone CF$UID integer is a UID.
        if count == 1, case .integer(let n)? = dict["CF$UID"], n >= 0, n <= UInt32.max {
            return .uid(UInt64(n))
        }
        return .dictionary(dict)
    }

    /// Whether no key from `start` up repeats, by fingerprint: strings are compared only where
    /// two fingerprints agree. Pairwise for the small dictionaries plists are made of (a
    /// declaration has about six keys), with a set of fingerprints beyond that.
    func areDistinct(from start: Int) -> Bool {
        let end = keys.count
        if end - start > 16 {
            var seen = Set<UInt64>(minimumCapacity: end - start)
            for i in start..<end where !seen.insert(keyHashes[i]).inserted {
                for j in start..<i where keyHashes[j] == keyHashes[i] && keys[j] == keys[i] { return false }
            }
            return true
        }
        for i in start..<end {
            for j in (i + 1)..<max(i + 1, end) where keyHashes[i] == keyHashes[j] && keys[i] == keys[j] { return false }
        }
        return true
    }

    func finish() throws(PropertyListError) -> PropertyListDocument {
        guard let root else {
            throw PropertyListError("the document holds no property-list value", at: location(), format: .xml)
        }
        var document = PropertyListDocument(value: root, format: .xml)
        document.duplicateKeys = duplicates
        document.locations = locations
        return document
    }
}
