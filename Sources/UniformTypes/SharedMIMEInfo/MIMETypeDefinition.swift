/// One MIME type as the freedesktop.org shared MIME database declares it (a `<mime-type>`
/// element of a `mime/packages/*.xml` file), after the packages of every folder are merged.
public struct MIMETypeDefinition: Sendable, Hashable {
    /// The MIME type, as spelled in the database (`audio/AMR` keeps its capitals).
    public var mimeType: String
    /// The untranslated `<comment>`.
    public var comment: String?
    /// Translated comments by language (`fr`, `pt_BR`).
    public var localizedComments: [String: String] = [:]
    /// `<acronym>` and `<expanded-acronym>`, when given.
    public var acronym: String?
    /// The expansion of ``acronym``.
    public var expandedAcronym: String?
    /// File-name patterns, in declared order.
    public var globs: [MIMEGlob] = []
    /// Content rules, in declared order.
    public var magic: [MIMEMagic] = []
    /// `<sub-class-of>` parents, in declared order.
    public var parents: [String] = []
    /// `<alias>` names of the same type.
    public var aliases: [String] = []
    /// `<icon name>`.
    public var icon: String?
    /// `<generic-icon name>`.
    public var genericIcon: String?
    /// Root elements of XML documents of this type (`<root-XML>`), as namespace and local name.
    public var rootXML: [MIMERootXML] = []
    /// The package file (and line) that declared the type last.
    public var source: String

    /// Creates a definition with no globs, magic or relations.
    public init(mimeType: String, source: String) {
        self.mimeType = mimeType
        self.source = source
    }

    /// The media type (`image` of `image/png`), as spelled.
    public var media: Substring {
        let lower = mimeType
        return lower[..<(lower.firstIndex(of: "/") ?? lower.endIndex)]
    }
}

/// A `<glob>`: a file-name pattern with a weight (0–100, default 50) and case sensitivity.
public struct MIMEGlob: Sendable, Hashable {
    /// The pattern (`*.png`, `Makefile`, `*.[1-9]`).
    public var pattern: String
    /// How much a match counts against other matches (default 50).
    public var weight: Int
    /// Whether the pattern matches only names spelled with the same case.
    public var caseSensitive: Bool

    /// Creates a glob.
    public init(pattern: String, weight: Int = 50, caseSensitive: Bool = false) {
        self.pattern = pattern
        self.weight = weight
        self.caseSensitive = caseSensitive
    }

    /// What kind of pattern, which decides where and in which order it is tried: literal names
    /// first, then the longest matching `*SUFFIX`, then the remaining patterns.
    public enum Kind: Sendable, Hashable {
        /// No wildcard: the whole name (`Makefile`).
        case literal
        /// `*` followed by text without wildcards (`*.tar.gz`): the text is the suffix.
        case suffix(String)
        /// Any other pattern, matched with `fnmatch`.
        case pattern
    }

    /// The kind of ``pattern``, as `update-mime-database` classifies it.
    public var kind: Kind {
        func wild(_ c: Character) -> Bool { c == "*" || c == "?" || c == "[" }
        if !pattern.contains(where: wild) { return .literal }
        if pattern.first == "*", !pattern.dropFirst().contains(where: wild) { return .suffix(String(pattern.dropFirst())) }
        return .pattern
    }
}

/// A `<magic>` rule: any of its top-level matches (each with all of its nested conditions) makes
/// the content of this type, at this priority (0–100, default 50).
public struct MIMEMagic: Sendable, Hashable {
    /// Higher priorities are tried first.
    public var priority: Int
    /// Alternatives: the rule holds when one of them holds.
    public var matches: [MIMEMagicMatch]

    /// Creates a rule.
    public init(priority: Int = 50, matches: [MIMEMagicMatch]) {
        self.priority = priority
        self.matches = matches
    }
}

/// A `<match>`: bytes (with an optional mask) expected at an offset or anywhere in a range of
/// offsets; it holds when they are there and, if it has nested matches, one of those holds too.
public struct MIMEMagicMatch: Sendable, Hashable {
    /// The first offset tried.
    public var rangeStart: Int
    /// How many consecutive offsets are tried (1 for a single offset).
    public var rangeLength: Int
    /// The bytes expected, in file order (numbers already in their byte order).
    public var value: [UInt8]
    /// Bits that take part in the comparison, as long as ``value``; `nil` compares every bit.
    public var mask: [UInt8]?
    /// Further conditions, one of which must hold as well.
    public var children: [MIMEMagicMatch]

    /// Creates a match.
    public init(rangeStart: Int, rangeLength: Int = 1, value: [UInt8], mask: [UInt8]? = nil, children: [MIMEMagicMatch] = []) {
        self.rangeStart = rangeStart
        self.rangeLength = rangeLength
        self.value = value
        self.mask = mask
        self.children = children
    }

    /// The number of bytes from the start of a file this match and its nested matches can look at.
    public var extent: Int {
        children.reduce(rangeStart + rangeLength - 1 + value.count) { max($0, $1.extent) }
    }
}

/// A `<root-XML>` element: XML documents whose root element has this namespace and name.
public struct MIMERootXML: Sendable, Hashable {
    /// The namespace URI (may be empty).
    public var namespaceURI: String
    /// The root element's local name.
    public var localName: String
}
