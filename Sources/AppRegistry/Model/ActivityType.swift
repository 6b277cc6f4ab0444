/// An `NSUserActivityTypes` entry, read as Handoff and SiriKit read it: a string compared exactly
/// (case and all) with the type of an activity another device offers. Apple asks for reverse-DNS
/// names (`com.example.editor.editing`); SiriKit puts intents' class names there
/// (`INSendMessageIntent`, `ConfigurationIntent`), which are not Handoff activities.
public enum ActivityType {
    /// What an entry names.
    public enum Kind: Sendable, Equatable {
        /// A reverse-DNS name: a Handoff activity.
        case reverseDNS
        /// A SiriKit intent's class name.
        case intent
        /// Neither: it works as a string, but nothing says whose it is.
        case other
    }

    /// The kind of `type`.
    public static func kind(of type: String) -> Kind {
        let components = type.split(separator: ".", omittingEmptySubsequences: false)
        let label: (Substring) -> Bool = { !$0.isEmpty && $0.unicodeScalars.allSatisfy(isLabelCharacter) }
        if components.count >= 2, components.allSatisfy(label), components[0].unicodeScalars.allSatisfy(isLetter) { return .reverseDNS }
        if type.hasSuffix("Intent"), let first = type.unicodeScalars.first, ("A"..."Z").contains(first),
           type.unicodeScalars.allSatisfy({ isLetter($0) || ("0"..."9").contains($0) || $0 == "_" }) {
            return .intent
        }
        return .other
    }

    /// The domain a reverse-DNS name or bundle identifier starts with (`com.example`), when it has one.
    public static func domain(of name: String) -> String? {
        let components = name.split(separator: ".", omittingEmptySubsequences: false)
        guard components.count >= 2, !components[0].isEmpty, !components[1].isEmpty else { return nil }
        return components[0].lowercased() + "." + components[1].lowercased()
    }

    private static func isLetter(_ c: Unicode.Scalar) -> Bool { ("a"..."z").contains(c) || ("A"..."Z").contains(c) }
    private static func isLabelCharacter(_ c: Unicode.Scalar) -> Bool { isLetter(c) || ("0"..."9").contains(c) || c == "-" || c == "_" }
}
