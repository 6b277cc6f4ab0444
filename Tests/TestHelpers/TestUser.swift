import Foundation

/// The unprivileged user the tests start our tools and apps as, when the suite runs as root (as
/// CI does): people run `nearby`, the receivers and the apps as themselves, and a suite run only
/// as root once let `nearby` ship unable to open a socket for anyone else (a socket option that
/// needs `CAP_NET_ADMIN`). Only the set-up (network namespaces, mounts) stays root.
///
/// The user is `nobody` (Debian's 65534:65534), with a home of its own under the temporary folder.
/// The test process sets its umask to 0 (``prepare()``), so that the folders and files a test
/// makes for a tool can be written by that user; the tool itself starts with the usual 022.
public enum TestUser {
    /// Whether tools are started as ``uid``: the test process is root.
    public static let active = geteuid() == 0

    /// The user's id.
    public static let uid: uid_t = getpwnam("nobody").map { $0.pointee.pw_uid } ?? 65534
    /// The user's group.
    public static let gid: gid_t = getpwnam("nobody").map { $0.pointee.pw_gid } ?? 65534

    /// The user's home: a folder of its own (`nobody`'s `/nonexistent` does not exist).
    public static let home: String = {
        let path = NSTemporaryDirectory() + "document-interchange-test-home-\(uid)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        chown(path, uid, gid)
        chmod(path, 0o700)
        return path
    }()

    /// Makes what this process creates from now on writable by the user (umask 0), once; called
    /// before a test starts a tool as the user.
    public static func prepare() { _ = prepared }
    private static let prepared: Bool = {
        if active { umask(0) }
        return true
    }()

    /// The programs a test starts as the user: `nearby` (sender, receiver, pairing), the sample
    /// apps, the probes that stand in for an app or a peer's mDNS stack, and `openin` and
    /// `openurl`, which start apps (an app they start runs as they do). The other tools
    /// (`inboxd` among them) still run as the test process: their tests write into an Inbox
    /// from the test process, playing another app of the same user, and inboxd's checks (who
    /// holds a file open, who owns it) would see a stranger.
    public static let programs: Set<String> = ["nearby", "PersonEditor", "PersonViewer", "Contacts", "SeedAppB", "handoff-probe", "mdns-probe",
                                               "openin", "openurl"]

    /// Whether `executable` is one of ``programs`` (built into the products folder, or a link there
    /// from an app's bundle).
    public static func startsAsUser(_ executable: String) -> Bool {
        let resolved = URL(fileURLWithPath: executable).resolvingSymlinksInPath()
        return programs.contains(resolved.lastPathComponent)
            && resolved.deletingLastPathComponent().path == TestSupport.productsDirectory.resolvingSymlinksInPath().path
    }

    /// `executable` with `arguments` as the user starts it: through `setpriv` (no supplementary
    /// groups, no capabilities) and a shell that sets the umask people have (022). Unchanged when
    /// the test process is not root: it is then a user already.
    public static func command(_ executable: String, _ arguments: [String]) -> (executable: String, arguments: [String]) {
        prepare()
        guard active else { return (executable, arguments) }
        return ("/usr/bin/setpriv", ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", "--inh-caps=-all",
                                     "/bin/sh", "-c", "umask 022; exec \"$0\" \"$@\"", executable] + arguments)
    }

    /// Gives `url` and everything under it to the user (when the test process is root): a copy
    /// keeps its source's modes, so a copied device root would otherwise be root's and closed to
    /// the tools. The corresponding C function is `lchown`.
    public static func own(_ url: URL) {
        guard active else { return }
        lchown(url.path, uid, gid)
        guard let walker = FileManager.default.enumerator(atPath: url.path) else { return }
        while let relative = walker.nextObject() as? String { lchown(url.path + "/" + relative, uid, gid) }
    }

    /// Gives the user the test folders (``TestSupport/temporaryDirectory()``'s) that `words`
    /// name, before a tool starts as the user with them: what the test made in its own process
    /// (a device root's registry, its identity key, written 0600 as root) is then the user's,
    /// as it would be had the person made it.
    public static func ownFolders(named words: [String]) {
        guard active else { return }
        let prefix = NSTemporaryDirectory() + "plist-tests-"
        var folders: Set<String> = []
        for word in words {
            var rest = Substring(word)
            while let range = rest.range(of: prefix) {
                let tail = rest[range.upperBound...]
                let end = tail.firstIndex(where: { $0 == "/" || $0 == ":" || $0 == " " || $0 == "=" }) ?? tail.endIndex
                folders.insert(String(rest[range.lowerBound..<end]))
                rest = tail[end...]
            }
        }
        for folder in folders where FileManager.default.fileExists(atPath: folder) { own(URL(fileURLWithPath: folder)) }
    }

    /// The environment `inherited` becomes for a tool started as the user: its own home, and no
    /// root session's runtime folder or bus (which it could not open). A test's own values are
    /// merged over this.
    public static func environment(from inherited: [String: String]) -> [String: String] {
        guard active else { return inherited }
        var environment = inherited
        environment["HOME"] = home
        environment["USER"] = "nobody"
        environment["LOGNAME"] = "nobody"
        environment["XDG_RUNTIME_DIR"] = nil
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        return environment
    }

    /// A `Process` that starts `executable` as the user (``command(_:_:)``), with `environment`
    /// merged over ours as ``environment(from:)`` makes it.
    public static func process(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) -> Process {
        let process = Process()
        let command = command(executable, arguments)
        process.executableURL = URL(fileURLWithPath: command.executable)
        process.arguments = command.arguments
        process.environment = Self.environment(from: ProcessInfo.processInfo.environment).merging(environment) { $1 }
        return process
    }

    /// What the shell fixtures need to start tools as the user themselves (`lab-user.sh`).
    public static var fixtureEnvironment: [String: String] {
        prepare()
        return ["TEST_UID": "\(uid)", "TEST_GID": "\(gid)", "TEST_HOME": home, "TEST_AS_USER": active ? "1" : "0"]
    }
}
