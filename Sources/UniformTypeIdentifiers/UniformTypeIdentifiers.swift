// Apple's UniformTypeIdentifiers framework on Linux: code written for it builds here unchanged.
//
//     import UniformTypeIdentifiers
//
//     UTType.png.conforms(to: .image)              // true
//     UTType(filenameExtension: "md")?.identifier  // "dyn.ah62d4rv4ge8043a", as on macOS
//
// There is one `UTType`: the engine's (UniformTypes), re-exported here with what Apple's has and the
// engine does not (initializers without a registry, the constants, `Codable`, `URL` and `Int`
// properties). Calls without a registry answer from `DefaultTypeRegistry`. docs/uttype-api.md lists
// what differs from macOS.

@_exported import UniformTypes

/// Apple's name for a tag class (`UTTagClass.filenameExtension`, `UTTagClass(rawValue:)`).
public typealias UTTagClass = TagClass
