import FileCoordination
import Foundation
import Synchronization

/// An ``NSFilePresenter`` as the coordination engine's presenter: the engine calls from its
/// delivery thread; each call is handed to the presenter's own operation queue, as Foundation does.
final class PresenterBridge: FilePresenter, @unchecked Sendable {
    /// The presenter, not kept alive by its registration (Foundation holds it weakly too).
    weak var presenter: (any NSFilePresenter)?

    init(_ presenter: any NSFilePresenter) { self.presenter = presenter }

    var presentedItemPath: String? { presenter?.presentedItemURL?.path }

    private func onQueue(_ body: @escaping @Sendable (any NSFilePresenter) -> Void) {
        guard let presenter else { return }
        nonisolated(unsafe) let target = presenter
        presenter.presentedItemOperationQueue.addOperation { body(target) }
    }

    func relinquishPresentedItem(toReader reader: @escaping @Sendable ((@Sendable () -> Void)?) -> Void) {
        relinquish(reader) { presenter, answer in presenter.relinquishPresentedItem(toReader: answer) }
    }

    func relinquishPresentedItem(toWriter writer: @escaping @Sendable ((@Sendable () -> Void)?) -> Void) {
        relinquish(writer) { presenter, answer in presenter.relinquishPresentedItem(toWriter: answer) }
    }

    /// Asks the presenter (on its queue) to let another process in; `proceed` gets the block the
    /// presenter wants run once that access is over.
    private func relinquish(_ proceed: @escaping @Sendable ((@Sendable () -> Void)?) -> Void,
                            _ ask: @escaping @Sendable (any NSFilePresenter, @escaping ((() -> Void)?) -> Void) -> Void) {
        guard presenter != nil else { return proceed(nil) }
        onQueue { presenter in
            ask(presenter) { done in
                guard let done else { return proceed(nil) }
                // Foundation's block is not Sendable; the engine runs it once, after the access.
                nonisolated(unsafe) let after = done
                proceed({ after() })
            }
        }
    }

    func savePresentedItemChanges(completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        guard presenter != nil else { return completionHandler(nil) }
        onQueue { presenter in presenter.savePresentedItemChanges { error in completionHandler(error) } }
    }

    func accommodatePresentedItemDeletion(completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        guard presenter != nil else { return completionHandler(nil) }
        onQueue { presenter in presenter.accommodatePresentedItemDeletion { error in completionHandler(error) } }
    }

    func presentedItemDidMove(to newPath: String) { onQueue { $0.presentedItemDidMove(to: URL(fileURLWithPath: newPath)) } }
    func presentedItemDidChange() { onQueue { $0.presentedItemDidChange() } }
    func presentedSubitemDidChange(at path: String) { onQueue { $0.presentedSubitemDidChange(at: URL(fileURLWithPath: path)) } }
    func presentedSubitem(at oldPath: String, didMoveTo newPath: String) {}

    /// The bridge of each registered presenter (``NSFileCoordinator/addFilePresenter(_:)``), so
    /// that removing it, and a coordinator made for it, find the same bridge.
    static let registered = Mutex<[ObjectIdentifier: PresenterBridge]>([:])

    /// The registered bridge of `presenter`, made and registered when `register` asks.
    static func bridge(for presenter: any NSFilePresenter, register: Bool) -> PresenterBridge {
        registered.withLock { table in
            if let existing = table[ObjectIdentifier(presenter)], existing.presenter != nil { return existing }
            let made = PresenterBridge(presenter)
            if register { table[ObjectIdentifier(presenter)] = made }
            return made
        }
    }
}
