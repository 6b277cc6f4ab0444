/// An object that shows an item to the user and wants to hear about coordinated changes to it
/// from any process (`NSFilePresenter`). Register it with
/// ``FileCoordinator/addFilePresenter(_:space:)``. Its methods are called on its space's
/// delivery thread, one at a time; every method has a default that does nothing (or answers at
/// once), as the protocol's methods are optional on Apple's systems.
public protocol FilePresenter: AnyObject, Sendable {
    /// The item presented (a file or a folder), as a path.
    var presentedItemPath: String? { get }

    /// Another process is about to read: call `reader` when ready, with a block to run when the
    /// read is over (or `nil`).
    func relinquishPresentedItem(toReader reader: @escaping @Sendable ((@Sendable () -> Void)?) -> Void)
    /// Another process is about to write: call `writer` when ready, with a block to run when the
    /// write is over (or `nil`).
    func relinquishPresentedItem(toWriter writer: @escaping @Sendable ((@Sendable () -> Void)?) -> Void)
    /// Save unsaved changes now (another process is about to read or write); call
    /// `completionHandler` when done, with an error to make that access fail.
    func savePresentedItemChanges(completionHandler: @escaping @Sendable ((any Error)?) -> Void)
    /// The item is about to be deleted: let go of it and call `completionHandler`.
    func accommodatePresentedItemDeletion(completionHandler: @escaping @Sendable ((any Error)?) -> Void)
    /// The item was moved or renamed to `newPath`.
    func presentedItemDidMove(to newPath: String)
    /// The item's contents or attributes were changed by a coordinated write.
    func presentedItemDidChange()
    /// An item inside the presented folder changed (written, created or deleted).
    func presentedSubitemDidChange(at path: String)
    /// An item inside the presented folder was moved.
    func presentedSubitem(at oldPath: String, didMoveTo newPath: String)
}

extension FilePresenter {
    public func relinquishPresentedItem(toReader reader: @escaping @Sendable ((@Sendable () -> Void)?) -> Void) { reader(nil) }
    public func relinquishPresentedItem(toWriter writer: @escaping @Sendable ((@Sendable () -> Void)?) -> Void) { writer(nil) }
    public func savePresentedItemChanges(completionHandler: @escaping @Sendable ((any Error)?) -> Void) { completionHandler(nil) }
    public func accommodatePresentedItemDeletion(completionHandler: @escaping @Sendable ((any Error)?) -> Void) { completionHandler(nil) }
    public func presentedItemDidMove(to newPath: String) {}
    public func presentedItemDidChange() {}
    public func presentedSubitemDidChange(at path: String) {}
    public func presentedSubitem(at oldPath: String, didMoveTo newPath: String) {}
}
