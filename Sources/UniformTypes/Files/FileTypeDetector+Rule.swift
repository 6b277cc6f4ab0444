extension FileTypeDetector {
    /// What decided a file's type.
    public enum Rule: Sendable, Hashable, CustomStringConvertible {
        /// A declared type claims the extension (no pattern of the shared MIME database matched).
        case filenameExtension(String)
        /// One type's file-name pattern matches the name.
        case fileName
        /// Several types' patterns match the name; the content picked this one.
        case fileNameAndContent
        /// Several types' patterns match the name and the content did not decide: the first.
        case ambiguousFileName
        /// The file is a folder (a package when its extension's type is one).
        case directory
        /// The content matched the type's magic, at this priority.
        case magic(priority: Int)
        /// The first bytes matched a known signature (without the shared MIME database).
        case contentSignature(String)
        /// The content is text (no control characters).
        case textContent
        /// The file is empty.
        case emptyFile
        /// Nothing matched: the dynamic type for the extension, or `public.data`.
        case fallback
        /// The file could not be read; the name alone was used.
        case unreadable(String)
        /// Not detected here: whoever sent the item declared its type (a nearby ask).
        case declared

        /// A short sentence for `--explain`.
        public var description: String {
            switch self {
            case .filenameExtension(let ext): "the extension \"\(ext)\" is claimed by a declared type"
            case .fileName: "its name matches the type's file-name pattern"
            case .fileNameAndContent: "its name matches several types' patterns and its content picks this one"
            case .ambiguousFileName: "its name matches several types' patterns and its content does not decide: the first"
            case .directory: "it is a folder"
            case .magic(let priority): "its content matches the type's magic (priority \(priority))"
            case .contentSignature(let name): "its content starts with a \(name)"
            case .textContent: "its content is text"
            case .emptyFile: "it is empty, and an empty file is text, as GIO types it"
            case .fallback: "neither its name nor its content is recognised"
            case .unreadable(let why): "its content could not be read (\(why)); judged by name"
            case .declared: "its sender declared its type"
            }
        }
    }
}
