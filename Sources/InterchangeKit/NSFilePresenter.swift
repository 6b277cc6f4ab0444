import Foundation

/// An object that shows a file to the user and wants to hear about other processes' changes
/// (Foundation's protocol). Its methods are called on ``presentedItemOperationQueue``.
public protocol NSFilePresenter: AnyObject {
    /// The file or folder it presents.
    var presentedItemURL: URL? { get }
    /// Where its methods are called.
    var presentedItemOperationQueue: OperationQueue { get }
    /// Another process wants to read: call `reader` (with a block to run when it is done).
    func relinquishPresentedItem(toReader reader: @escaping ((() -> Void)?) -> Void)
    /// Another process wants to write: call `writer`.
    func relinquishPresentedItem(toWriter writer: @escaping ((() -> Void)?) -> Void)
    /// Write unsaved changes before another process reads.
    func savePresentedItemChanges(completionHandler: @escaping ((any Error)?) -> Void)
    /// The item is about to be deleted.
    func accommodatePresentedItemDeletion(completionHandler: @escaping ((any Error)?) -> Void)
    /// The item was moved.
    func presentedItemDidMove(to newURL: URL)
    /// Another process changed the item.
    func presentedItemDidChange()
    /// Something inside the presented folder changed.
    func presentedSubitemDidChange(at url: URL)
}

extension NSFilePresenter {
    /// Foundation's default: let the reader go ahead.
    public func relinquishPresentedItem(toReader reader: @escaping ((() -> Void)?) -> Void) { reader(nil) }
    /// Foundation's default: let the writer go ahead.
    public func relinquishPresentedItem(toWriter writer: @escaping ((() -> Void)?) -> Void) { writer(nil) }
    /// Foundation's default: nothing unsaved.
    public func savePresentedItemChanges(completionHandler: @escaping ((any Error)?) -> Void) { completionHandler(nil) }
    /// Foundation's default: nothing to do.
    public func accommodatePresentedItemDeletion(completionHandler: @escaping ((any Error)?) -> Void) { completionHandler(nil) }
    /// Foundation's default: nothing to do.
    public func presentedItemDidMove(to newURL: URL) {}
    /// Foundation's default: nothing to do.
    public func presentedItemDidChange() {}
    /// Foundation's default: nothing to do.
    public func presentedSubitemDidChange(at url: URL) {}
}
