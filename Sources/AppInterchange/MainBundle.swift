import AppRegistry
import PropertyLists
import SystemCalls

/// The app bundle this program was started from, found as Apple finds `Bundle.main`: from the
/// path the process was started as. An app run by hand (`ROOT/Apps/Contacts.app/bin/contacts`)
/// thereby knows who it is, and on which device root, without the launcher's variables.
///
/// The path is the command's first word as the process was given it (`argv[0]`): made absolute
/// against the working folder when relative, looked up on `PATH` when it has no slash. It is not
/// `/proc/self/exe`: an installed executable is usually a link into the build folder
/// (`scripts/install-samples`), and the kernel's path is the link's target, outside any bundle.
/// From the executable's folder up, the first `X.app` folder holding an Info.plist (where the
/// registry looks for one, ``RegisteredApp/infoPlistCandidates(_:)``) is the bundle; a bundle
/// in a folder named `Apps` is installed on the device root that holds it (`ROOT/Apps/X.app`).
/// `..` in the path is resolved where it stands (the folders before it may be links); nothing
/// after it is. ``InterchangeApp/current(fallbackIdentifier:root:)`` asks here when the
/// launcher's variables are not set.
public struct MainBundle: Sendable, Hashable {
    /// The bundle folder, as the program was started (links in it are not followed).
    public let bundlePath: String
    /// Its Info.plist, as the file holds it (Apple's `infoDictionary`).
    public let infoDictionary: PropertyList
    /// The device root it is installed on, when it is directly in one's `Apps` folder.
    public let deviceRoot: DeviceRoot?

    /// `CFBundleIdentifier`, when it can be an identity (``BundleIdentifier/usable(_:)``: not
    /// empty, no unresolved build variable).
    public var bundleIdentifier: String? { BundleIdentifier.usable(infoDictionary["CFBundleIdentifier"]?.stringValue) }

    /// This process's bundle, found once, on first use; `nil` when it was not started from one (a
    /// tool on `PATH`, a test runner, a program started from its build folder). A relative path is
    /// taken against the working folder of that moment: a program that changes folder first
    /// should be started by an absolute path.
    public static let current: MainBundle? = CommandLine.arguments.first.flatMap { startedAs($0) }

    /// The bundle holding the program started as `command` (`argv[0]` as given), with
    /// `workingDirectory` (else this process's) for a relative path and `searchPath` (else
    /// `PATH`) for a bare name; `nil` when it is in none, or its Info.plist cannot be read.
    public static func startedAs(_ command: String, workingDirectory: String? = nil, searchPath: String? = nil) -> MainBundle? {
        guard let executable = executablePath(startedAs: command, workingDirectory: workingDirectory, searchPath: searchPath) else { return nil }
        var folder = parent(of: executable)
        while let current = folder {
            let name = lastComponent(of: current)
            if name.hasSuffix(".app"), let registered = RegisteredApp(name: name, path: current), registered.infoPlistPath != current {
                guard let info = try? PropertyListReader.read(contentsOf: registered.infoPlistPath).value else { return nil }
                let apps = parent(of: current)
                let root = apps.flatMap { lastComponent(of: $0) == "Apps" ? parent(of: $0) : nil }
                return MainBundle(bundlePath: current, infoDictionary: info, deviceRoot: root.map { DeviceRoot(path: $0) })
            }
            folder = parent(of: current)
        }
        return nil
    }

    /// The executable's absolute path, as started: `..` components resolved (the folders before
    /// them may be links), nothing after them.
    static func executablePath(startedAs command: String, workingDirectory: String?, searchPath: String?) -> String? {
        guard !command.isEmpty else { return nil }
        // A bare name was found on PATH, as execvp found it (a relative entry of PATH from this
        // process's folder, which the starting shell shared).
        let named = command.contains("/") ? command
            : Environment.findExecutable(command, inPath: searchPath ?? Environment.value("PATH") ?? "/usr/bin:/bin")
        guard let named else { return nil }
        let joined: String
        if named.hasPrefix("/") {
            joined = named
        } else {
            guard let folder = workingDirectory ?? (try? CurrentProcess.workingDirectory()) else { return nil }
            joined = folder + "/" + named
        }
        guard let absolute = try? CurrentProcess.absolutePath(joined) else { return nil }
        let components = absolute.split(separator: "/")
        guard let up = components.lastIndex(of: "..") else { return absolute }
        guard let resolved = try? CanonicalPath.resolve("/" + components[...up].joined(separator: "/")) else { return nil }
        let rest = components[(up + 1)...].joined(separator: "/")
        return rest.isEmpty ? resolved : (resolved == "/" ? "" : resolved) + "/" + rest
    }

    /// The folder holding `path`, or `nil` for `/`.
    static func parent(of path: String) -> String? {
        guard path != "/", let slash = path.lastIndex(of: "/") else { return nil }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The last component of `path`.
    static func lastComponent(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }
}
