import AppRegistry
import Handlers
import PropertyLists
import Spelling
import SystemCalls
import ToolSupport
import UniformTypes
import URLSchemes

/// What `openurl` does with a parsed command line: a thin layer over the URLSchemes library.
struct OpenurlCommands {
    /// What went wrong, said as the tool prints it, with the exit status.
    typealias Failure = ToolFailure

    let command: OpenurlCommand
    let root: DeviceRoot

    init(_ command: OpenurlCommand) {
        self.command = command
        root = DeviceRoot.resolve(explicit: command[.root])
    }

    /// The registry (``RegistryStore/forQuery(root:)``: the root named must exist, a catalog found).
    func registry() throws(Failure) -> TypeRegistry {
        do { return try RegistryStore.forQuery(root: root) } catch { throw Failure(message: "\(error)") }
    }

    func directory() throws(Failure) -> SchemeDirectory {
        let defaults: SchemeDefaults
        do { defaults = try SchemeDefaults(root: root) } catch { throw Failure(message: "\(error)") }
        return SchemeDirectory(registry: try registry(), defaults: defaults)
    }

    func run() throws(Failure) -> Int32 {
        switch command.verb {
        case .default: return try defaults(command.operands)
        case .desktop: return try desktop(command.operands[0])
        case nil: break
        }
        guard command.operands.count == 1 else { throw Failure(message: "name one URL, or - to read it from standard input (see openurl --help)") }
        if command.flag(.can) && command.flag(.list) { throw Failure(message: "--can and --list exclude each other") }
        let text = try urlText(command.operands[0])
        if command.flag(.list) { return try list(text) }
        let url: SchemeURL
        do { url = try SchemeURL(text) } catch {
            // A mistyped verb (`openurl defualt`) reads as a URL without a scheme.
            let verb = Spelling.nearest(to: text, among: openurlSpec.verbs.map(\.name)).map { " (did you mean the verb \($0)?)" } ?? ""
            throw Failure(message: "\(error)\(verb)")
        }
        if command.flag(.can) { return try can(url) }
        return try openURL(url)
    }

    /// The operand, or standard input for `-` (line breaks at the end removed).
    func urlText(_ operand: String) throws(Failure) -> String {
        guard operand == "-" else { return operand }
        var bytes: [UInt8]
        // Read from the descriptor, as pbcopy does: opening /dev/stdin anew is refused when the
        // pipe belongs to another user (a caller that dropped its privileges, sudo -u).
        do { bytes = try OwnedDescriptor.duplicate(borrowing: 0).readAll() } catch {
            throw Failure(message: "cannot read the URL from standard input: \(error)")
        }
        while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
        guard !bytes.isEmpty else { throw Failure(message: "standard input holds no URL") }
        return String(decoding: bytes, as: UTF8.self)
    }

    func annotation() throws(Failure) -> PropertyList? {
        guard let text = command[.annotation] else { return nil }
        var options = PropertyListReadOptions()
        options.readsJSON = true
        do {
            if text.hasPrefix("@") { return try PropertyListReader.read(contentsOf: .init(String(text.dropFirst())), options: options).value }
            return try PropertyListReader.read(Array(text.utf8), options: options).value
        } catch {
            throw Failure(message: "--annotation: \(error)")
        }
    }

    static func shown(_ url: String) -> String {
        url.utf8.count > 100 ? String(decoding: url.utf8.prefix(80), as: UTF8.self) + "… (\(url.utf8.count) bytes)" : url
    }

    func openURL(_ url: SchemeURL) throws(Failure) -> Int32 {
        var opener = URLOpener(root: root, directory: try directory(), sourceApplication: command[.from] ?? URLOpener.defaultSourceApplication,
                               annotation: try annotation())
        opener.launch = !command.flag(.noLaunch)
        opener.desktopHandoff = !command.flag(.noDesktop)
        let outcome: URLOpener.Outcome
        do {
            if let target = command[.to] { outcome = try opener.open(url, with: target) } else { outcome = try opener.open(url) }
        } catch {
            switch error {
            case .noHandler, .doesNotHandle, .handoffLoop, .noDesktopHandler: throw Failure(message: "\(error)", status: 1)
            default: throw Failure(message: "\(error)")
            }
        }
        switch outcome {
        case .delivered(let app, let requestPath, let launched):
            Output.line("\(Self.shown(url.text)): opened by \(app.name) (\(app.bundleIdentifier)); request \(requestPath)")
            if let launched { Output.line("started: " + launched.map(Self.shown).joined(separator: " ")) }
        case .deliveredToRunningApp(let app, let requestPath):
            Output.line("\(Self.shown(url.text)): opened by \(app.name) (\(app.bundleIdentifier)), already running; request \(requestPath)")
        case .handedToDesktop(let command):
            Output.line("\(Self.shown(url.text)): no registered app handles \(url.normalizedScheme); handed to the desktop: \(command.map(Self.shown).joined(separator: " "))")
        }
        return 0
    }

    func can(_ url: SchemeURL) throws(Failure) -> Int32 {
        guard let sender = command[.from] else { throw Failure(message: "--can needs --from BUNDLE-ID: canOpenURL answers for one app") }
        let directory = try directory()
        let answer = directory.canOpen(url, from: sender)
        // An unknown sender is a mistake to name, not a silent no.
        if case .unknownSender = answer {
            let known = AppBundle.all(on: root).apps.map(\.bundleIdentifier)
            let suggestion = Spelling.nearest(to: sender, among: known).map { " (did you mean \($0)?)" } ?? ""
            throw Failure(message: "--from \(sender): no registered app of that name on \(root.path)\(suggestion)")
        }
        if command.flag(.explain) { Output.line(answer.description) }
        return answer.canOpen ? 0 : 1
    }

    func list(_ text: String) throws(Failure) -> Int32 {
        // A bare scheme is accepted as well as a URL.
        let scheme: String
        if URLType.problem(withScheme: text) == nil {
            scheme = URLType.normalized(text)
        } else {
            do { scheme = try SchemeURL(text).normalizedScheme } catch { throw Failure(message: "\(error)") }
        }
        let resolution = try directory().resolve(scheme)
        if command.flag(.json) {
            let apps = resolution.candidates.map { c in
                PropertyList.dictionary(["bundleIdentifier": .string(c.app.bundleIdentifier), "name": .string(c.app.name),
                                         "role": .string(c.urlType.role.rawValue), "userDefault": .bool(c.isUserDefault),
                                         "namedByScheme": .bool(c.isNamedByScheme), "reason": .string(c.reason)])
            }
            var top: [(String, PropertyList)] = [("scheme", .string(scheme)), ("contested", .bool(resolution.isContested)), ("apps", .array(apps))]
            if let stale = resolution.staleDefault { top.append(("staleDefault", .string(stale))) }
            let bytes = (try? JSONPropertyListWriter(prettyPrinted: true).write(.dictionary(.init(uniqueKeysWithValues: top)))) ?? []
            Output.text(String(decoding: bytes, as: UTF8.self) + "\n")
            return resolution.candidates.isEmpty ? 1 : 0
        }
        guard let first = resolution.handler else {
            let desktop = (try? SchemeURL(scheme + ":")).flatMap(DesktopHandoff.command(for:))
            Output.line("\(scheme): no registered app handles it; openurl hands its URLs to the desktop" + (desktop.map { " (\($0.dropLast().joined(separator: " ")))" } ?? ", but none of gio or xdg-open is installed"))
            return 1
        }
        Output.line(resolution.isContested
            ? "\(scheme): \(resolution.candidates.count) apps claim it; \(first.app.name) (\(first.app.bundleIdentifier)) opens its URLs"
            : "\(scheme): \(first.app.name) (\(first.app.bundleIdentifier)) opens its URLs")
        for (i, candidate) in resolution.candidates.enumerated() {
            Output.line("\(i + 1). \(candidate.app.name) (\(candidate.app.bundleIdentifier))")
            if command.flag(.explain) { Output.line("   why: \(candidate.reason)") }
        }
        if resolution.isContested && command.flag(.explain) {
            Output.line("contested: iOS leaves the choice undefined; here the user's default comes first, then the app whose bundle identifier is the scheme, then role (Editor, Viewer, Shell), then bundle identifier (docs/url-schemes.md). Choose with: openurl default set \(scheme) BUNDLE-ID")
        }
        if let stale = resolution.staleDefault { Output.line("note: the default \(stale) set for \(scheme) no longer handles it and is ignored") }
        return 0
    }

    func defaults(_ words: [String]) throws(Failure) -> Int32 {
        var store: SchemeDefaults
        do { store = try SchemeDefaults(root: root) } catch { throw Failure(message: "\(error)") }
        func scheme(_ text: String) throws(Failure) -> String {
            if let problem = URLType.problem(withScheme: text) { throw Failure(message: "'\(text)' is not a URL scheme: \(problem)") }
            return URLType.normalized(text)
        }
        switch (words.first.flatMap(OpenurlDefaultAction.init(rawValue:)), words.count) {
        case (.set, 3):
            let scheme = try scheme(words[1])
            let resolution = try directory().resolve(scheme)
            guard resolution.candidates.contains(where: { $0.app.bundleIdentifier == words[2] }) else {
                let claimants = resolution.candidates.map(\.app.bundleIdentifier)
                throw Failure(message: "\(words[2]) does not handle \(scheme)" + (claimants.isEmpty ? "; no registered app does" : "; it is handled by " + claimants.joined(separator: ", ")))
            }
            do { try store.set(scheme, to: words[2]) } catch { throw Failure(message: "\(error)") }
            Output.line("\(scheme) → \(words[2])")
            return 0
        case (.unset, 2):
            let scheme = try scheme(words[1])
            guard store.get(scheme) != nil else { Output.error("openurl: no default is set for \(scheme)"); return 1 }
            do { try store.set(scheme, to: nil) } catch { throw Failure(message: "\(error)") }
            return 0
        case (.get, 2):
            guard let app = store.get(try scheme(words[1])) else { Output.error("openurl: no default is set for \(words[1])"); return 1 }
            Output.line(app)
            return 0
        case (.list, 1):
            if command.flag(.json) {
                let entries = store.entries.map { PropertyList.dictionary(["scheme": .string($0.key), "app": .string($0.value)]) }
                Output.text(String(decoding: (try? JSONPropertyListWriter(prettyPrinted: true).write(.array(entries))) ?? [], as: UTF8.self) + "\n")
            } else {
                for (scheme, app) in store.entries { Output.line("\(scheme)\t\(app)") }
            }
            return 0
        default:
            throw Failure(message: "default takes: set SCHEME BUNDLE-ID | get SCHEME | unset SCHEME | list")
        }
    }

    func desktop(_ action: String) throws(Failure) -> Int32 {
        if !root.exists { throw Failure(message: root.absence) }
        let changes: DesktopSchemeEntries.Changes
        do {
            switch OpenurlDesktopAction(rawValue: action) {
            case .sync:
                let apps = AppBundle.all(in: try registry()) ?? []
                changes = try DesktopSchemeEntries.sync(root: root, apps: apps, openurl: CurrentProcess.executablePath() ?? "openurl")
            case .remove:
                changes = try DesktopSchemeEntries.remove(root: root)
            case nil:
                throw Failure(message: "desktop takes sync or remove, not '\(action)'")
            }
        } catch let error as URLSchemeError {
            throw Failure(message: "\(error)")
        } catch let error as Failure {
            throw error
        } catch {
            throw Failure(message: "\(error)")
        }
        for path in changes.written { Output.line("wrote \(path)") }
        for path in changes.removed { Output.line("removed \(path)") }
        if changes.written.isEmpty && changes.removed.isEmpty { Output.line("up to date (\(DesktopSchemeEntries.applicationsDirectory))") }
        return 0
    }
}
