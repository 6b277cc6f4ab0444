import OrderedCollections
import PropertyLists
import SystemPackage
import UniformTypes
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Hands documents to an app: a durable copy in its Inbox, an open request in its `Library/`, and
/// its launch command when it declares one.
///
/// The copy is written to a temporary file in the target's own container (`tmp/`, same file system
/// as the Inbox), flushed, made read-only (0444) and renamed into `Documents/Inbox` with
/// `renameat2(RENAME_NOREPLACE)`; when the name is taken, `name-1.ext`, `name-2.ext`, … (shortened
/// to stay within 255 bytes). Then the Inbox folder is flushed. So the Inbox never holds a partial
/// file, even when `openin` is killed (a killed copy leaves a temporary file in `tmp/`), and
/// nothing in it is ever overwritten. Apps with `LSSupportsOpeningDocumentsInPlace` get no copy:
/// the request names the original.
public enum Delivery {
    /// What one delivery did.
    public struct Result: Sendable, Hashable {
        /// The document as the app receives it: the Inbox copy, or the original when opened in place.
        public var documentPath: String
        /// The open request written into the app's `Library/OpenRequests/`.
        public var requestPath: String
        /// Whether the app opens the original in place.
        public var inPlace: Bool
        /// The launch command started, if any.
        public var launched: [String]?
    }

    /// The `sourceApplication` used when the sender does not say (`openin --from`).
    public static let defaultSourceApplication = "org.document-interchange.openin"

    /// Delivers `documentPath` of type `type` to `app`.
    /// - Parameters:
    ///   - progress: called with bytes copied and the total, during the copy.
    ///   - launch: whether to start the app's launch command.
    public static func deliver(_ documentPath: String, type: String, to app: AppBundle, on root: DeviceRoot,
                               sourceApplication: String = defaultSourceApplication, annotation: PropertyList? = nil,
                               activity: String? = nil, launch: Bool = true,
                               progress: ((Int64, Int64) -> Void)? = nil) throws(HandlerError) -> Result {
        let container = try AppContainer(bundleIdentifier: app.bundleIdentifier, on: root)
        try container.create()
        let absolute = absolutePath(documentPath)
        let delivered: String
        if app.opensDocumentsInPlace {
            guard FileSystem.status(absolute) != nil else { throw .system("cannot open \(absolute)", errno) }
            delivered = absolute
        } else {
            let name = baseName(absolute)
            delivered = try copyWithoutReplacing(absolute, into: container.inbox, temporaryFolder: container.temporary,
                                                 name: name, mode: 0o444, progress: progress)
        }
        var request: OrderedDictionary<String, PropertyList> = [
            "DocumentPath": .string(delivered),
            "OriginalPath": .string(absolute),
            "DocumentType": .string(type),
            "SourceApplication": .string(sourceApplication),
            "TargetApplication": .string(app.bundleIdentifier),
            "OpensInPlace": .bool(app.opensDocumentsInPlace),
            "Time": .date(PropertyListDate(secondsSince1970: now())),
        ]
        if let annotation { request["Annotation"] = annotation }
        if let activity { request["Activity"] = .string(activity) }
        let requestPath = try writeRequest(.dictionary(request), into: container.openRequests)
        var launched: [String]?
        if launch, let command = app.launchCommand {
            let words = command.expanded(bundlePath: app.path, documentPath: delivered, sourceApplication: sourceApplication,
                                         requestPath: requestPath)
            try spawn(words, environment: ["DI_DOCUMENT_URL=file://" + LaunchCommand.percentEncoded(delivered),
                                          "DI_SOURCE_APPLICATION=" + sourceApplication, "DI_OPEN_REQUEST=" + requestPath])
            launched = words
        }
        return Result(documentPath: delivered, requestPath: requestPath, inPlace: app.opensDocumentsInPlace, launched: launched)
    }

    /// Copies `source` into `folder` under `name`, or the first free `name-N.ext`, never replacing
    /// anything, through a flushed temporary file in `temporaryFolder` (same file system).
    /// - Returns: the path of the copy.
    public static func copyWithoutReplacing(_ source: String, into folder: String, temporaryFolder: String, name: String,
                                            mode: mode_t, progress: ((Int64, Int64) -> Void)? = nil) throws(HandlerError) -> String {
        try FileSystem.makeFolders(folder)
        try FileSystem.makeFolders(temporaryFolder)
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw .system("cannot open \(source)", errno) }
        defer { close(input) }
        var info = stat()
        guard fstat(input, &info) == 0 else { throw .system("cannot read \(source)", errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .refused("\(source) is not a regular file") }
        var template = Array((temporaryFolder + "/.delivery-XXXXXX").utf8CString)
        let output = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard output >= 0 else { throw .system("cannot create a temporary file in \(temporaryFolder)", errno) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var keepTemporary = false
        defer { close(output); if !keepTemporary { unlink(temporary) } }
        let total = Int64(info.st_size)
        var copied: Int64 = 0
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 4096)
        defer { buffer.deallocate() }
        while true {
            let n = read(input, buffer, chunk)
            if n < 0 { if errno == EINTR { continue }; throw .system("cannot read \(source)", errno) }
            if n == 0 { break }
            var offset = 0
            while offset < n {
                let w = write(output, buffer + offset, n - offset)
                if w < 0 { if errno == EINTR { continue }; throw .system("cannot write \(temporary)", errno) }
                offset += w
            }
            copied += Int64(n)
            progress?(copied, total)
        }
        guard fchmod(output, mode) == 0 else { throw .system("cannot set the mode of \(temporary)", errno) }
        guard fsync(output) == 0 else { throw .system("cannot flush \(temporary)", errno) }
        let fromDirectory = open(temporaryFolder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fromDirectory >= 0 else { throw .system("cannot open \(temporaryFolder)", errno) }
        defer { close(fromDirectory) }
        let toDirectory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard toDirectory >= 0 else { throw .system("cannot open \(folder)", errno) }
        defer { close(toDirectory) }
        let temporaryName = baseName(temporary)
        var attempt = 0
        while true {
            let candidate = suffixed(name, attempt)
            if try FileSystem.renameWithoutReplacing(from: fromDirectory, temporaryName, to: toDirectory, candidate) {
                keepTemporary = true   // it is the delivered file now
                guard fsync(toDirectory) == 0 else { throw .system("cannot flush \(folder)", errno) }
                return folder + "/" + candidate
            }
            attempt += 1
            guard attempt < 100_000 else { throw .refused("no free name for \(name) in \(folder)") }
        }
    }

    /// `name` for the first attempt, then `stem-N.ext`, the stem shortened (on a character
    /// boundary) so the result stays within NAME_MAX (255 bytes).
    public static func suffixed(_ name: String, _ attempt: Int) -> String {
        let safe = name.isEmpty || name == "." || name == ".." ? "document" : name
        var stem = Substring(safe), ext = Substring("")
        if let dot = safe.lastIndex(of: "."), dot != safe.startIndex {
            stem = safe[..<dot]
            ext = safe[dot...]
        }
        let suffix = attempt == 0 ? "" : "-\(attempt)"
        let limit = 255
        if ext.utf8.count + suffix.utf8.count >= limit { ext = "" }
        while stem.utf8.count + suffix.utf8.count + ext.utf8.count > limit { stem.removeLast() }
        return String(stem) + suffix + String(ext)
    }

    /// Writes `request` as an XML property list into `folder`, atomically, under a unique name.
    static func writeRequest(_ request: PropertyList, into folder: String) throws(HandlerError) -> String {
        let bytes: [UInt8]
        do { bytes = try XMLPropertyListWriter().write(request) } catch { throw .refused("the open request cannot be written: \(error)") }
        var generator = SystemRandomNumberGenerator()
        let random = generator.next()
        let name = "\(Int64(now() * 1e9))-\(getpid())-\(String(random, radix: 16)).plist"
        let path = folder + "/" + name
        do { try FileContents.write(bytes, to: FilePath(path)) } catch { throw .refused("cannot write \(path): \(error)") }
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 { fsync(directory); close(directory) }
        return path
    }

    /// Starts `words` detached, with `environment` added; does not wait.
    static func spawn(_ words: [String], environment: [String]) throws(HandlerError) {
        var env = environment
        var index = 0
        while let entry = environ[index] { env.append(String(cString: entry)); index += 1 }
        let argv = words.map { strdup($0) } + [nil]
        let envp = env.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, words[0], nil, nil, argv, envp)
        guard status == 0 else { throw .system("cannot start \(words[0])", status) }
    }

    /// Seconds since 1970, from CLOCK_REALTIME.
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func absolutePath(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/" + path
    }

    static func baseName(_ path: String) -> String {
        var p = Substring(path)
        while p.count > 1 && p.last == "/" { p.removeLast() }
        return String(p[(p.lastIndex(of: "/").map { p.index(after: $0) } ?? p.startIndex)...])
    }
}
