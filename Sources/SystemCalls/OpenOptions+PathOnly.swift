extension OpenOptions {
    /// `O_PATH`: a descriptor that names the file without opening its contents (what the document
    /// portal takes to export a file: it proves the caller can reach it, nothing more).
    /// (`O_PATH` is 010000000 on every Linux architecture; Glibc's module does not export it
    /// outside `_GNU_SOURCE`.)
    package static let pathOnly = OpenOptions(rawValue: 0o10000000)
}
