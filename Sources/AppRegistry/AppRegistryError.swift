import SystemCalls

/// What went wrong in the app model, the registration or the registry of a device, as a value.
public enum AppRegistryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A system call failed.
    case system(SystemCallError)
    /// A file that cannot be read as what it should be: its path and why.
    case unreadable(path: String, reason: String)
    /// No Info.plist in a bundle folder (looked for these paths).
    case noInfoPlist(lookedIn: [String])
    /// A string that cannot name an app's container or registration.
    case invalidBundleIdentifier(String)
    /// A property list that is not an app's Info.plist: its path, and what it lacks.
    case notAnApp(path: String, reason: NotAnApp)
    /// A named device root that does not exist, where only an explicit request may create one:
    /// its path, and a folder beside it with a similar name.
    case noDeviceRootToCreate(String, similar: String?)

    /// What makes a property list no app's.
    public enum NotAnApp: Sendable, Hashable, CustomStringConvertible {
        /// Its top level is not a dictionary.
        case notADictionary
        /// It has none of the keys an Info.plist has (``InfoPlistKeys/topLevel``): a document, or
        /// some other property list.
        case noInfoPlistKeys
        /// Its `CFBundleIdentifier` is not a bundle identifier, and why.
        case invalidBundleIdentifier(String, problem: String)

        /// What it lacks, as a clause.
        public var description: String {
            switch self {
            case .notADictionary: "its top level is not a dictionary"
            case .noInfoPlistKeys: "it has no CFBundleIdentifier, nor any other key of an Info.plist (CFBundleDocumentTypes, UTExportedTypeDeclarations, …)"
            case .invalidBundleIdentifier(let value, let problem): "its CFBundleIdentifier \"\(value)\" is not a bundle identifier: \(problem)"
            }
        }
    }
    /// No device root at this path.
    case noDeviceRoot(String)
    /// Not registered on the root.
    case notRegistered(String)
    /// A registration entry that is a bundle stored in the root, not a link: removing it would
    /// delete the app.
    case storedInRoot(String)
    /// No type catalog: the places looked in.
    case noCatalog(lookedIn: [String])

    /// One sentence.
    public var description: String {
        switch self {
        case .system(let error): error.description
        case .unreadable(let path, let reason): "\(path): \(reason)"
        case .noInfoPlist(let places): "no Info.plist there (looked for " + places.joined(separator: ", ") + ")"
        case .invalidBundleIdentifier(let id): "\"\(id)\" cannot name an app's container"
        case .notAnApp(let path, let reason): "\(path) is not an app's Info.plist: \(reason); nothing was registered"
        case .noDeviceRootToCreate(let path, let similar):
            DeviceRoot.absence(at: path) + (similar.map { " (did you mean \($0)?)" } ?? "") + "; --create-root makes a new one there"
        case .noDeviceRoot(let path): DeviceRoot.absence(at: path)
        case .notRegistered(let name): "\(name) is not registered"
        case .storedInRoot(let path): "\(path) is a bundle stored in the device root, not a registration link; remove it yourself"
        case .noCatalog(let places): "no type catalog found; looked in " + places.joined(separator: ", ")
        }
    }
}
