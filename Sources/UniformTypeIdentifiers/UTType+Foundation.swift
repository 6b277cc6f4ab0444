import FoundationEssentials
import UniformTypes

/// Apple's properties whose types are Foundation's. FoundationEssentials only, which is what
/// defines `URL`: the rest of Foundation costs start-up time and a program that imports Foundation
/// gets the same `URL`.
extension UTType {
    /// The declared reference URL (`UTTypeReferenceURL`), not inherited and not validated, as on
    /// macOS; `nil` when the declared string is not a URL.
    public var referenceURL: URL? { referenceURLString.flatMap { URL(string: $0) } }

    /// The declared version (`UTTypeVersion`): the whole number it starts with (`"2.1"` gives 2),
    /// `nil` when none is declared or it does not start with a number.
    public var version: Int? {
        guard let text = versionString?.drop(while: { $0 == " " }) else { return nil }
        return Int(text.prefix(while: \.isASCIIDigitCharacter))
    }
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}

/// Apple's `URL` additions for naming files after a type (declared in UniformTypeIdentifiers).
extension URL {
    /// This URL with `partialName` appended, and the type's preferred extension after it unless
    /// `partialName` already has an extension whose type conforms to `contentType` (`puppy.jpg`
    /// stays `puppy.jpg` for `.jpeg`, `readme` becomes `readme.txt` for `.plainText`).
    public func appendingPathComponent(_ partialName: String, conformingTo contentType: UTType) -> URL {
        appendingPathComponent(Self.fileName(partialName, conformingTo: contentType))
    }

    /// Appends `partialName` and, where needed, the type's preferred extension (see
    /// ``appendingPathComponent(_:conformingTo:)``).
    public mutating func appendPathComponent(_ partialName: String, conformingTo contentType: UTType) {
        self = appendingPathComponent(partialName, conformingTo: contentType)
    }

    /// This URL with `partialName` appended as by ``appendingPathComponent(_:conformingTo:)``.
    public func appending<S: StringProtocol>(component partialName: S, conformingTo contentType: UTType) -> URL {
        appendingPathComponent(String(partialName), conformingTo: contentType)
    }

    /// Appends `partialName` as by ``appendingPathComponent(_:conformingTo:)``.
    public mutating func append<S: StringProtocol>(component partialName: S, conformingTo contentType: UTType) {
        appendPathComponent(String(partialName), conformingTo: contentType)
    }

    /// This URL with the type's preferred extension appended, unless its last component already
    /// has an extension whose type conforms to `contentType`.
    public func appendingPathExtension(for contentType: UTType) -> URL {
        let name = lastPathComponent
        let named = Self.fileName(name, conformingTo: contentType)
        return named == name ? self : deletingLastPathComponent().appendingPathComponent(named)
    }

    /// Appends the type's preferred extension where needed (see ``appendingPathExtension(for:)``).
    public mutating func appendPathExtension(for contentType: UTType) {
        self = appendingPathExtension(for: contentType)
    }

    /// `name`, with `contentType`'s preferred extension added unless `name`'s own extension
    /// already stands for a type conforming to `contentType`.
    static func fileName(_ name: String, conformingTo contentType: UTType) -> String {
        if let dot = name.lastIndex(of: "."), dot != name.startIndex, name.index(after: dot) != name.endIndex,
           let existing = UTType(filenameExtension: String(name[name.index(after: dot)...]), conformingTo: contentType,
                                 in: contentType.registry), existing.isDeclared {
            return name
        }
        guard let ext = contentType.preferredFilenameExtension else { return name }
        return name + "." + ext
    }
}
