import FileCoordination
import Foundation

/// Foundation's error out-parameter (`var error: NSError?`, then `error: &error`).
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?

/// Foundation's file coordinator, between processes (docs/file-coordination.md): readers share,
/// a writer excludes, waits are first come first served, and presenters in any process are asked
/// to save, relinquish and hear about changes. The accessor runs on the calling thread once the
/// item is the caller's; a coordination that fails (the timeout, a presenter's error) does not
/// run it and fills `error` instead, as Foundation does.
open class NSFileCoordinator: @unchecked Sendable {
    /// How a read is coordinated (`.withoutChanges`, `.resolvesSymbolicLink`,
    /// `.immediatelyAvailableMetadataOnly`, `.forUploading`): the engine's own options.
    public typealias ReadingOptions = FileCoordination.ReadingOptions
    /// How a write is coordinated (`.forDeleting`, `.forMoving`, `.forMerging`, `.forReplacing`,
    /// `.contentIndependentMetadataOnly`): the engine's own options.
    public typealias WritingOptions = FileCoordination.WritingOptions

    let coordinator: FileCoordinator

    /// A coordinator; `filePresenter`'s own process is not asked about the coordinator's accesses.
    public init(filePresenter: (any NSFilePresenter)?) {
        coordinator = FileCoordinator(filePresenter: filePresenter.map { PresenterBridge.bridge(for: $0, register: false) })
    }

    /// Makes `filePresenter` hear about other processes' accesses to its item.
    open class func addFilePresenter(_ filePresenter: any NSFilePresenter) {
        try? FileCoordinator.addFilePresenter(PresenterBridge.bridge(for: filePresenter, register: true))
    }

    /// Stops `filePresenter` hearing about them.
    open class func removeFilePresenter(_ filePresenter: any NSFilePresenter) {
        let bridge = PresenterBridge.registered.withLock { $0.removeValue(forKey: ObjectIdentifier(filePresenter)) }
        if let bridge { try? FileCoordinator.removeFilePresenter(bridge) }
    }

    /// The presenters this process registered.
    open class var filePresenters: [any NSFilePresenter] {
        FileCoordinator.filePresenters().compactMap { ($0 as? PresenterBridge)?.presenter }
    }

    /// Reads the item at `url` once no writer holds it (presenters asked to save first).
    open func coordinate(readingItemAt url: URL, options: ReadingOptions = [], error outError: NSErrorPointer, byAccessor reader: (URL) -> Void) {
        run(outError) { () throws(CoordinationError) in
            try coordinator.coordinate(readingItemAt: url.path, options: options) { reader(URL(fileURLWithPath: $0)) }
        }
    }

    /// Writes the item at `url` once no other reader or writer holds it.
    open func coordinate(writingItemAt url: URL, options: WritingOptions = [], error outError: NSErrorPointer, byAccessor writer: (URL) -> Void) {
        run(outError) { () throws(CoordinationError) in
            try coordinator.coordinate(writingItemAt: url.path, options: options) { writer(URL(fileURLWithPath: $0)) }
        }
    }

    /// Reads one item and writes another, both held at once.
    open func coordinate(readingItemAt readingURL: URL, options readingOptions: ReadingOptions = [], writingItemAt writingURL: URL,
                         options writingOptions: WritingOptions = [], error outError: NSErrorPointer, byAccessor readerWriter: (URL, URL) -> Void) {
        run(outError) { () throws(CoordinationError) in
            try coordinator.coordinate(readingItemAt: readingURL.path, options: readingOptions, writingItemAt: writingURL.path,
                                       options: writingOptions) { readerWriter(URL(fileURLWithPath: $0), URL(fileURLWithPath: $1)) }
        }
    }

    /// Writes two items, both held at once.
    open func coordinate(writingItemAt url1: URL, options options1: WritingOptions = [], writingItemAt url2: URL,
                         options options2: WritingOptions = [], error outError: NSErrorPointer, byAccessor writer: (URL, URL) -> Void) {
        run(outError) { () throws(CoordinationError) in
            try coordinator.coordinate(writingItemAt: url1.path, options: options1, writingItemAt: url2.path,
                                       options: options2) { writer(URL(fileURLWithPath: $0), URL(fileURLWithPath: $1)) }
        }
    }

    /// Tells presenters of the item at `oldURL` that it moved to `newURL` (call inside a write).
    open func item(at oldURL: URL, didMoveTo newURL: URL) { coordinator.item(at: oldURL.path, didMoveTo: newURL.path) }

    /// Cancels a coordination that is waiting: it ends with an error, its accessor not run.
    open func cancel() { coordinator.cancel() }

    private func run(_ outError: NSErrorPointer, _ body: () throws(CoordinationError) -> Void) {
        do { try body() } catch {
            outError?.pointee = NSError(domain: NSCocoaErrorDomain, code: 256, userInfo: [NSLocalizedDescriptionKey: "\(error)"])
        }
    }
}
