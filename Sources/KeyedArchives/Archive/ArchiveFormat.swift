/// The property-list formats an archive is written in.
public enum ArchiveFormat: String, Sendable, Hashable, CaseIterable {
    /// `bplist00`, what NSKeyedArchiver writes by default.
    case binary = "binary1"
    /// XML, what NSKeyedArchiver writes with `outputFormat = .xml`.
    case xml = "xml1"
}
