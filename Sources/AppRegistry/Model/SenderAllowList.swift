/// The senders whose documents an app accepts, by bundle identifier: exact identifiers, or
/// prefixes that end at a dot. `com.example.` admits `com.example.notes` but not
/// `com.examplevil.notes`; `com.example` (no dot) admits `com.example` and `com.example.notes`,
/// never `com.exampleEvil` (the `hasPrefix:` mistake of seed 000's check).
public struct SenderAllowList: Sendable, Hashable {
    /// The entries as given.
    public var entries: [String]

    /// An allow-list; empty admits every sender, and documents without a request.
    public init(_ entries: [String] = []) { self.entries = entries }

    /// Whether any sender is admitted.
    public var admitsEveryone: Bool { entries.isEmpty }

    /// Whether `sender` is admitted.
    public func admits(_ sender: String) -> Bool {
        entries.contains { entry in
            if entry.hasSuffix(".") { return sender.hasPrefix(entry) && sender.count > entry.count }
            return sender == entry || sender.hasPrefix(entry + ".")
        }
    }
}
