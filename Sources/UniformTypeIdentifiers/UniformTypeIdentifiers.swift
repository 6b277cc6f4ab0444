// Apple's UniformTypeIdentifiers framework on Linux: code written for it builds here unchanged.
//
//     import UniformTypeIdentifiers
//
//     UTType.png.conforms(to: .image)              // true
//     UTType(filenameExtension: "md")?.identifier  // "dyn.ah62d4rv4ge8043a", as on macOS
//
// There is one `UTType`: the engine's (UniformTypes), given here by Apple's name with what Apple's
// has and the engine does not (initializers without a registry, the constants, `Codable`, `URL` and
// `Int` properties). Calls without a registry answer from `DefaultTypeRegistry`. docs/uttype-api.md
// lists what differs from macOS.
//
// The engine is not re-exported: `import UniformTypeIdentifiers` gives an app Apple's names
// (`UTType`, `UTTagClass`) and nothing of the engine's (registries, compilers, detectors, tables);
// a program that wants those imports UniformTypes itself.

import UniformTypes

/// Apple's type, the engine's `UTType` (its members: `identifier`, `conforms(to:)`, the tags…).
public typealias UTType = UniformTypes.UTType

/// Apple's name for a tag class (`UTTagClass.filenameExtension`, `UTTagClass(rawValue:)`).
public typealias UTTagClass = TagClass
