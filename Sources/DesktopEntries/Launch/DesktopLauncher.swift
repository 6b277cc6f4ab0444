import SystemCalls

/// Starts a desktop application with documents, as GIO's `g_app_info_launch` does:
///
/// - `DBusActivatable=true` (and a file name that is a bus name): `org.freedesktop.Application.Open`
///   with the documents' `file://` URIs (`Activate` without documents) on the session bus, the
///   app's object path being its ID with `.` → `/` and `-` → `_`; the bus starts the app if needed.
///   Without a session bus, `Exec=` is used, as GIO does;
/// - otherwise each command line of ``ExecCommandLine`` is started in `Path=` (when set), through
///   the same `/bin/sh -e -u -c 'export GIO_LAUNCHED_DESKTOP_FILE_PID=$$; exec "$@"'` wrapper GIO
///   uses, with `GIO_LAUNCHED_DESKTOP_FILE` set to the desktop file, and not waited for;
/// - a sandboxed app (Flatpak, Snap) first gets each document through the document portal
///   (``DocumentPortal``), and is started with the portal's path instead: no copy is made.
public struct DesktopLauncher: Sendable {
    /// Why an app could not be started.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The desktop file has no usable entry.
        case unusable(String)
        /// No command line can be built.
        case commandLine(ExecCommandLine.Failure)
        /// The program could not be started.
        case spawn(SystemCallError)
        /// The D-Bus activation failed.
        case activation(BusError)
        /// The document portal could not export a document for a sandboxed app.
        case portal(path: String, BusError)

        /// One sentence.
        public var description: String {
            switch self {
            case .unusable(let why): why
            case .commandLine(let failure): failure.description
            case .spawn(let error): error.description
            case .activation(let error): "D-Bus activation failed: \(error)"
            case .portal(let path, let error): "the document portal could not export \(path): \(error)"
            }
        }
    }

    /// How the app was started.
    public enum Method: Sendable, Hashable {
        /// These processes were started (program and arguments of each, before the shell wrapper).
        case spawned([[String]])
        /// `Open` (or `Activate`) was called on this bus name and object path with these URIs.
        case activated(busName: String, objectPath: String, uris: [String])
    }

    /// What a launch did.
    public struct Result: Sendable, Hashable {
        /// How the app was started.
        public var method: Method
        /// The documents as the app received them (portal paths for a sandboxed app).
        public var documents: [String]
        /// For a sandboxed app: each original path and the portal path granted for it.
        public var portalGrants: [(original: String, granted: String)] { zip(originals, documents).filter { $0.0 != $0.1 }.map { ($0.0, $0.1) } }
        /// The documents as given.
        public var originals: [String]

        public static func == (a: Result, b: Result) -> Bool { a.method == b.method && a.documents == b.documents && a.originals == b.originals }
        public func hash(into hasher: inout Hasher) { hasher.combine(method); hasher.combine(documents) }
    }

    /// The session bus address to use (`nil`: none, so D-Bus apps are started through `Exec=`).
    public var busAddress: String?
    /// Whether sandboxed apps get documents through the portal (else the original paths).
    public var usePortal: Bool
    /// Finds programs on `PATH`.
    public var findProgram: (@Sendable (String) -> String?)?

    /// A launcher for this process's session bus.
    public init(busAddress: String? = SessionBus.address(), usePortal: Bool = true, findProgram: (@Sendable (String) -> String?)? = nil) {
        self.busAddress = busAddress
        self.usePortal = usePortal
        self.findProgram = findProgram
    }

    /// The D-Bus application ID of `app`: its file's name without `.desktop`, when that is a
    /// well-known bus name (GIO's rule).
    public static func busName(of app: DesktopApp) -> String? {
        guard app.entry?.dbusActivatable == true else { return nil }
        let base = app.path.split(separator: "/").last.map(String.init) ?? app.id
        guard base.hasSuffix(".desktop") else { return nil }
        let name = String(base.dropLast(8))
        let elements = name.split(separator: ".", omittingEmptySubsequences: false)
        guard name.utf8.count <= 255, elements.count >= 2, !name.hasPrefix(":") else { return nil }
        for element in elements {
            guard let first = element.utf8.first, !(0x30...0x39).contains(first) else { return nil }
            guard element.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F || $0 == 0x2D }) else { return nil }
        }
        return name
    }

    /// `/org/gnome/Evince` for `org.gnome.Evince`.
    public static func objectPath(of busName: String) -> String {
        "/" + String(busName.map { $0 == "." ? "/" : $0 == "-" ? "_" : $0 })
    }

    /// Starts `app` with `documents` (absolute paths).
    public func launch(_ app: DesktopApp, documents: [String]) throws(Failure) -> Result {
        guard let entry = app.entry else { throw .unusable(app.problem ?? "\(app.path) cannot be parsed") }
        var delivered = documents
        var bus: SessionBus?
        if let sandbox = app.sandbox, usePortal, !documents.isEmpty {
            let connection: SessionBus
            do { connection = try SessionBus(address: busAddress) } catch { throw .portal(path: documents[0], error) }
            let portal = DocumentPortal(bus: connection)
            delivered = []
            for path in documents {
                do { delivered.append(try portal.grant(path, to: sandbox.portalAppID)) } catch { throw .portal(path: path, error) }
            }
            bus = connection
        }
        if let name = Self.busName(of: app), busAddress != nil {
            let connection: SessionBus
            if let bus {
                connection = bus
            } else {
                do { connection = try SessionBus(address: busAddress) } catch { throw .activation(error) }
            }
            let path = Self.objectPath(of: name)
            let uris = delivered.map { FileURI.from(path: $0) }
            do {
                _ = try connection.call(destination: name, path: path, interface: "org.freedesktop.Application",
                                        method: uris.isEmpty ? "Activate" : "Open",
                                        arguments: uris.isEmpty ? [.dictionary([:])] : [.strings(uris), .dictionary([:])])
            } catch {
                throw .activation(error)
            }
            return Result(method: .activated(busName: name, objectPath: path, uris: uris), documents: delivered, originals: documents)
        }
        let lines: ExecCommandLine
        do { lines = try ExecCommandLine(entry: entry, documents: delivered.map { Array($0.utf8) }, findProgram: findProgram) } catch {
            throw .commandLine(error)
        }
        let wrapper: [[UInt8]] = ["/bin/sh", "-e", "-u", "-c", "export GIO_LAUNCHED_DESKTOP_FILE_PID=$$; exec \"$@\"", "sh"].map { Array($0.utf8) }
        for words in lines.processes {
            do {
                let pid = try Spawn.detached(bytes: wrapper + words, setting: ["GIO_LAUNCHED_DESKTOP_FILE=" + app.path],
                                             workingDirectory: entry.workingDirectory)
                // Left to run; reaped when it ends (the caller may live on).
                Spawn.reapWhenDone(pid)
            } catch {
                throw .spawn(error)
            }
        }
        return Result(method: .spawned(lines.processes.map { $0.map { String(decoding: $0, as: UTF8.self) } }), documents: delivered, originals: documents)
    }
}
