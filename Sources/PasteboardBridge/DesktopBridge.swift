import Logging
import Pasteboards
import SystemCalls

/// Keeps the general pasteboard and the desktop clipboard the same, both ways, as a clipboard
/// manager does (docs/pasteboards.md, "The desktop clipboard"):
///
/// - A write to the general pasteboard (by `pbcopy` or an app) is published on the desktop
///   clipboard: the first item's representations, each under the MIME types the type registry
///   gives it (UTF-8 text also under `UTF8_STRING`, `TEXT`, `STRING`), and under its type
///   identifier. Items written `localOnly` are not published (and an expired write is withdrawn).
/// - When another program takes the clipboard, every type it offers is read (X11 targets and MIME
///   types turned into type identifiers by the registry) and written to the general pasteboard as
///   one item.
/// - When the clipboard's owner exits, the bridge takes the clipboard with the general
///   pasteboard's item: the data outlives the program that copied it.
public final class DesktopBridge {
    let store: PasteboardStore
    let general: Pasteboard
    let clipboard: DesktopClipboard
    let logger: Logger
    /// The change count last written from the desktop: the bridge does not publish its own import.
    var imported = -1
    /// The change count last acted on.
    var seen = -1
    /// When what is published now expires (seconds since 1970), if it does.
    var publishedExpiry: Double?

    /// A bridge between `store`'s general pasteboard and `clipboard`.
    public init(store: PasteboardStore, clipboard: DesktopClipboard, logger: Logger) {
        self.store = store
        self.general = store.general()
        self.clipboard = clipboard
        self.logger = logger
    }

    /// Runs until SIGTERM or SIGINT, or until the display goes away.
    public func run(sweepInterval: Double = 60) throws(BridgeError) {
        let folder = store.folder + "/general"
        let signals: SignalDescriptor, inotify: Inotify
        do {
            signals = try SignalDescriptor(SignalDescriptor.termination)
            inotify = try Inotify()
            if store.root.origin == .explicit && !store.root.exists { throw BridgeError(message: "the device root \(store.root.path) does not exist") }
            try FileSystem.makeDirectories(folder, permissions: 0o700)
            _ = try inotify.watch(folder, for: [.movedIn, .closedAfterWriting, .onlyFolder])
        } catch let error as BridgeError {
            throw error
        } catch {
            throw BridgeError(message: "\(error)")
        }
        logger.info("started", metadata: ["backend": "\(clipboard.backend.rawValue)", "root": "\(store.root.path)"])
        var nextSweep = Clock.monotonic() + sweepInterval
        // The clipboard as it is at the start: a desktop program's copy is imported (the desktop
        // wins); an empty clipboard gets the general pasteboard.
        handle(clipboard.dispatch())
        seen = (try? general.changeCount()) ?? -1
        while true {
            guard let pending = clipboard.flush() else { throw BridgeError(message: "the display connection was lost") }
            var timeout = pending ? 0 : max(0, nextSweep - Clock.monotonic())
            if let expiry = publishedExpiry { timeout = min(timeout, max(0, expiry - store.clock.now())) }
            let ready: [PollEvents]
            do {
                ready = try Poll.wait([(signals.descriptor, .readable), (inotify.descriptor, .readable), (clipboard.descriptor, .readable)],
                                      timeout: timeout)
            } catch { throw BridgeError(message: "\(error)") }
            if !ready[0].isEmpty {
                logger.info("stopped", metadata: ["served": "\(clipboard.served)"])
                clipboard.release()
                return
            }
            if !ready[1].isEmpty {
                _ = try? inotify.pendingEvents()
                generalChanged()
            }
            // Dispatched every turn: events already queued (the state at connection) are
            // handled without the descriptor becoming readable.
            guard handle(clipboard.dispatch()) else { throw BridgeError(message: "the display connection was lost") }
            if let expiry = publishedExpiry, store.clock.now() >= expiry {
                logger.info("expired: clipboard withdrawn")
                clipboard.release()
                publishedExpiry = nil
            }
            if Clock.monotonic() >= nextSweep {
                nextSweep = Clock.monotonic() + sweepInterval
                if let removed = try? store.removeAbandoned(), !removed.isEmpty {
                    logger.info("removed abandoned pasteboards", metadata: ["names": "\(removed.map(\.rawValue))"])
                }
            }
        }
    }

    /// Acts on what the display reported; `false` when it is gone.
    @discardableResult
    func handle(_ events: DesktopClipboard.Events) -> Bool {
        if events.contains(.disconnected) { return false }
        if events.contains(.foreignSelection) { importDesktop() }
        if events.contains(.selectionEmpty) { publishGeneral() }
        return true
    }

    /// The general pasteboard was written: publish it unless the bridge wrote it.
    func generalChanged() {
        guard let contents = try? general.contents(), contents.changeCount != seen else { return }
        seen = contents.changeCount
        if contents.changeCount == imported { return }
        publish(contents)
    }

    /// Publishes the general pasteboard now (the clipboard's owner went away, or at the start).
    func publishGeneral() {
        guard let contents = try? general.contents() else { return }
        seen = contents.changeCount
        publish(contents)
    }

    func publish(_ contents: PasteboardContents) {
        guard contents.numberOfItems > 0, !contents.options.localOnly, !contents.isExpired else {
            if clipboard.owns {
                clipboard.release()
                logger.info("clipboard withdrawn", metadata: ["changeCount": "\(contents.changeCount)",
                                                             "why": "\(contents.options.localOnly ? "local only" : contents.isExpired ? "expired" : "empty")"])
            }
            publishedExpiry = nil
            return
        }
        // The first item: the desktop clipboard holds one.
        var offers: [(type: String, item: Int, representation: Int)] = []
        var names: Set<String> = []
        for (index, type) in contents.types(inItem: 0).enumerated() {
            for name in store.types.mimeTypes(for: type) + [type] where names.insert(name).inserted {
                offers.append((name, 0, index))
            }
        }
        let ok = withRepresentations(contents, offers.map { ($0.item, $0.representation) }) { buffers in
            clipboard.publish(zip(offers, buffers).map { ($0.type, $1) })
        }
        publishedExpiry = contents.options.expirationDate
        logger.info(ok ? "published" : "publish refused", metadata: ["changeCount": "\(contents.changeCount)", "types": "\(offers.count)"])
    }

    /// Calls `body` with the bytes of each listed representation, all valid at once.
    func withRepresentations<R>(_ contents: PasteboardContents, _ list: [(Int, Int)], _ body: ([UnsafeRawBufferPointer]) -> R) -> R {
        func nest(_ index: Int, _ collected: [UnsafeRawBufferPointer]) -> R {
            if index == list.count { return body(collected) }
            return contents.withBytes(item: list[index].0, representation: list[index].1) { nest(index + 1, collected + [$0]) }
        }
        return nest(0, [])
    }

    /// Another program took the clipboard: copy what it offers to the general pasteboard.
    func importDesktop() {
        guard let offered = clipboard.foreignTypes() else {
            logger.warning("the clipboard's owner did not list its types")
            return
        }
        var representations: [PasteboardRepresentation] = []
        var types: Set<String> = []
        var total = 0
        let started = Clock.monotonic()
        for name in offered {
            guard let type = store.types.type(forMIME: name), types.insert(type.lowercased()).inserted else { continue }
            switch clipboard.fetch(name, limit: Int(store.limits.maximumBytes) - total) {
            case .success(let bytes):
                total += bytes.count
                representations.append(PasteboardRepresentation(type: type, data: bytes))
            case .failure(.tooLarge):
                logger.warning("clipboard data over the size limit not imported", metadata: ["type": "\(name)", "limit": "\(store.limits.maximumBytes)"])
            case .failure:
                logger.warning("the clipboard's owner did not send a type it offered", metadata: ["type": "\(name)"])
            }
        }
        guard !representations.isEmpty else { return }
        let fetched = Clock.monotonic()
        do {
            let count = try general.setItems([PasteboardItem(representations: representations)])
            imported = count
            seen = count
            let done = Clock.monotonic()
            logger.info("imported", metadata: ["changeCount": "\(count)", "types": "\(representations.map(\.type))", "bytes": "\(total)",
                                               "fetchMilliseconds": "\(Int((fetched - started) * 1000))",
                                               "storeMilliseconds": "\(Int((done - fetched) * 1000))"])
        } catch {
            logger.error("import failed", metadata: ["error": "\(error)"])
        }
    }
}

/// Why the bridge stopped: one sentence.
public struct BridgeError: Error, Sendable, CustomStringConvertible {
    /// The reason.
    public var message: String
    public var description: String { message }
}
