import PropertyLists

/// Collects one file's findings: locations from the document, rules silenced by the caller left
/// out, and findings of one cause gathered into one (a file exporting 43 of Apple's types gets one
/// finding naming them, not 43 copies).
struct LintCollector {
    let document: PropertyListDocument
    let ignored: Set<LintRule>
    private(set) var findings: [LintFinding] = []
    /// Grouped findings: index in `findings`, the subjects so far, and how to say them.
    private var groups: [String: (index: Int, subjects: [String], plural: String, advice: String)] = [:]

    init(document: PropertyListDocument, ignored: Set<LintRule>) {
        self.document = document
        self.ignored = ignored
    }

    /// A finding of its own.
    mutating func add(_ rule: LintRule, _ severity: LintFinding.Severity, _ message: String, _ path: PropertyListPath) {
        guard !ignored.contains(rule) else { return }
        findings.append(LintFinding(rule, severity, message, at: path, location: document.location(of: path)))
    }

    /// A finding that is gathered with the others of the same rule and `plural` cause: alone it
    /// says `single`; with others, "N plural: subject, subject… ; advice".
    mutating func add(_ rule: LintRule, _ severity: LintFinding.Severity, _ single: String, _ path: PropertyListPath,
                      subject: String, plural: String, advice: String) {
        guard !ignored.contains(rule) else { return }
        let key = rule.rawValue + "\u{0}" + plural
        let place = LintFinding.Place(keyPath: path, location: document.location(of: path))
        if var group = groups[key] {
            group.subjects.append(subject)
            findings[group.index].places.append(place)
            let shown = group.subjects.prefix(5).joined(separator: ", ") + (group.subjects.count > 5 ? " and \(group.subjects.count - 5) more" : "")
            findings[group.index].message = "\(group.subjects.count) \(plural): \(shown)" + (advice.isEmpty ? "" : "; " + advice)
            groups[key] = group
            return
        }
        findings.append(LintFinding(rule, severity, single, at: path, location: place.location))
        groups[key] = (findings.count - 1, [subject], plural, advice)
    }

    /// The findings ordered by position.
    var sorted: [LintFinding] {
        findings.sorted { ($0.location?.line ?? 0, $0.keyPath.description) < ($1.location?.line ?? 0, $1.keyPath.description) }
    }
}
