import AppRegistry
import PropertyLists

extension Spool {
    /// Hands item `index`'s complete file at `path` to `destination`, in the order that makes a
    /// kill at any point recoverable: the move is recorded first, then the file is delivered,
    /// then the item is marked delivered. Returns where it landed.
    func deliver(_ index: Int, file path: String, type: String, to destination: Destination, root: DeviceRoot,
                 senderApp: String, annotation: PropertyList, launch: Bool) throws(NearbyError) -> String {
        try recordMove(index, of: path)
        let landed = try destination.deliver(path, type: type, root: root, senderApp: senderApp, annotation: annotation, launch: launch)
        try markDelivered(index, destination: destination.label, path: landed)
        return landed
    }
}
